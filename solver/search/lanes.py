"""The bitmask engine under :mod:`solver.search.exact`: lane bitboards, propagation and the search.

Glossary (see also :mod:`solver.grid`):

- a *candidate* is a pair (value, cell) that may still hold; it is numbered
  ``p = (value - 1) * ncells + cell``;
- a *lane* is a run of N bits plus one always-zero *guard* bit: the candidates of one
  value in one unit, or of one cell;
- the *board* is a single int holding every candidate four times, in four *regions* of
  N*N lanes each: rows (a lane per value and row, a bit per column), columns (per value and
  column, a bit per row), boxes (per value and box, a bit per box cell) and cells (per cell,
  a bit per value);
- *open* is an int with the same layout whose bits are the candidates not yet placed.

Because every unit and every cell is a lane, one pass of a dozen big-int operations finds,
for the whole board at once, every empty lane (a contradiction) and every lane with a single
open bit: the naked singles (cell lanes) and the hidden singles (row, column, box lanes).
The guard bit stops the borrow of ``lanes - LOW`` at the lane's edge, so ``x & (x - 1)``
works lane by lane. Placing a candidate is two operations: ``board &= keep[p]`` (its
peers lose the value, its cell loses the other values, in all four regions) and
``open ^= bits[p]``.

When singles run dry, *locked candidates* are found the same way: inside a band, the
segments of a row lane are the box's mini-rows, and the lanes of the next rows of the band
are ``W`` bits away, so "a box whose candidates for v sit in one mini-row" (pointing) and
"a row whose candidates for v sit in one box" (claiming) are shifts and masks over the row
and column regions. They cut the search tree about threefold on hard puzzles.

The search branches on a cell with two candidates if there is one, else on the cell or
(value, unit) lane with the fewest open candidates, and keeps its own stack of boards
(ints, so a copy is free): no recursion, any depth. A *node* is one branch tried; ``budget``
caps the nodes and raises :class:`BudgetExceeded`, so a hostile grid cannot hold a worker.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from solver.grid import BudgetExceeded, Grid, Shape, tables

State = tuple[int, int]  # (board, open)
LockPass = tuple[int, int, int, int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""(region mask, its guards, its lane low bits, segment low bits, segment low bits of each
band's first lane, segment fill, shifts within a segment, shifts to the band's next lanes,
shifts to the lane's next segments)."""


class _MaskCache(dict[int, int]):
    """Masks by candidate, built on first use; bounded, so 25x25 tables stay small."""

    def __init__(self, build: Callable[[int], int], cap: int) -> None:
        super().__init__()
        self.build = build
        self.cap = cap

    def __missing__(self, p: int) -> int:
        if len(self) >= self.cap:
            self.clear()
        mask = self[p] = self.build(p)
        return mask


@dataclass(frozen=True, slots=True, eq=False)
class CageLanes:
    """A cage with a sum, as :mod:`solver.search.house_lanes` reads it in the cell region."""

    shifts: tuple[int, ...]  # per cell, the offset of its lane in the cell region
    cells: tuple[int, ...]
    combos: tuple[int, ...]  # the value sets with its sum
    mask: int  # its cells' lanes in the cell region
    memo: dict[int, tuple[int, ...]]  # its cells' lanes -> the candidates they lose


@dataclass(frozen=True, slots=True)
class _Lanes:
    """The lane layout of one shape (see the module docstring); built once per shape."""

    n: int
    width: int  # W = N + 1 bits per lane
    ncells: int
    cell_region: int  # bit offset of the cell region
    guards: int  # G: the guard bit of every lane
    low: int  # LOW: the lowest bit of every lane
    full: int  # every candidate bit
    cell_guards: int  # the guards of the cell region's lanes
    owner: list[int]  # bit position -> candidate p (-1 for guards)
    bits: dict[int, int]  # p -> its four bits
    keep: dict[int, int]  # p -> the board bits that survive placing p
    locked: tuple[LockPass, ...]  # see _lock_passes
    # Rules beyond the classic (solver.search.house_lanes): their propagation, or None.
    propagate: Callable[[int, int, _Lanes], State | None] | None = None
    cages: tuple[CageLanes, ...] = ()
    constraints: Any = None  # solver.search.constraint_lanes.ConstraintLanes, or None


def _position(shape: Shape, region: int, value: int, cell: int) -> int:
    """The bit of (value counted from 0, cell) in region 0 rows, 1 columns, 2 boxes, 3 cells."""
    n = shape.size
    w = n + 1
    r, k = divmod(cell, n)
    base = region * n * n * w
    if region == 0:
        return base + (value * n + r) * w + k
    if region == 1:
        return base + (value * n + k) * w + r
    if region == 2:
        br, bc = shape.box_rows, shape.box_cols
        box = (r // br) * br + k // bc
        return base + (value * n + box) * w + (r % br) * bc + (k % bc)
    return base + cell * w + value


def _lock_passes(shape: Shape) -> tuple[LockPass, ...]:
    """Constants for locked candidates, one pass per region group (see :data:`LockPass`).

    Row lanes split into segments of ``box_cols`` bits and bands of ``box_rows`` lanes;
    column lanes into segments of ``box_rows`` and stacks of ``box_cols``. Square boxes
    let one pass cover both regions. The rows and columns are the low half of the board,
    so the constants stop there and the pass works on ints half the board's size.
    """
    n = shape.size
    w = n + 1
    nl = n * n
    lane = (1 << n) - 1
    br, bc = shape.box_rows, shape.box_cols
    regions = [(0, bc, br, br), (1, br, bc, bc)]
    groups = [regions] if br == bc else [[regions[0]], [regions[1]]]
    passes = []
    for group in groups:
        mask = guards = low = seg = first = 0
        sw = ns = gs = 0
        for region, sw, ns, gs in group:
            for line in range(nl):
                at = (region * nl + line) * w
                mask |= lane << at
                guards |= 1 << (at + n)
                low |= 1 << at
                for j in range(ns):
                    seg |= 1 << (at + j * sw)
                    if line % gs == 0:
                        first |= 1 << (at + j * sw)
        passes.append(
            (
                mask,
                guards,
                low,
                seg,
                first,
                (1 << sw) - 1,
                tuple(range(1, sw)),
                tuple(i * w for i in range(1, gs)),
                tuple(j * sw for j in range(1, ns)),
            )
        )
    return tuple(passes)


@cache
def _lanes(shape: Shape) -> _Lanes:
    """The lane layout and mask tables for ``shape``."""
    t = tables(shape)
    n, nc = t.n, t.ncells
    w = n + 1
    nlanes = 4 * n * n
    low = 0
    for lane in range(nlanes):
        low |= 1 << (lane * w)
    guards = low << n
    full = low * ((1 << n) - 1)
    cell_region = 3 * n * n * w
    owner = [-1] * (nlanes * w)
    positions: list[tuple[int, int, int, int]] = []
    for p in range(n * nc):
        value, cell = divmod(p, nc)
        pos = tuple(_position(shape, region, value, cell) for region in range(4))
        for q in pos:
            owner[q] = p
        positions.append(pos)  # type: ignore[arg-type]

    def bits_of(p: int) -> int:
        a, b, c, d = positions[p]
        return (1 << a) | (1 << b) | (1 << c) | (1 << d)

    # The peers of a cell for value 0 in the first three regions, and in the cell region;
    # a value v shifts the first by v*N lanes and the second by v bits.
    peer_lines = []
    peer_cells = []
    for cell in range(nc):
        lines = cells_ = 0
        for other in t.peers[cell]:
            for region in range(3):
                lines |= 1 << _position(shape, region, 0, other)
            cells_ |= 1 << _position(shape, 3, 0, other)
        peer_lines.append(lines)
        peer_cells.append(cells_)
    same_cell = [0] * nc
    for p in range(n * nc):
        same_cell[p % nc] |= bits_of(p)

    def keep_of(p: int) -> int:
        value, cell = divmod(p, nc)
        clear = (peer_lines[cell] << (value * n * w)) | (peer_cells[cell] << value)
        clear |= same_cell[cell] ^ bits_of(p)
        return full ^ (full & clear)

    # At most ~16 MB per table: all of 16x16 (4096 candidates), a working set of 25x25.
    cap = max(1024, (16 << 20) // (full.bit_length() // 8 + 1))
    keep, bits = _MaskCache(keep_of, cap), _MaskCache(bits_of, cap)
    if n * nc <= cap:  # fill them now (up to 16x16), so no search pays for it
        for p in range(n * nc):
            keep[p], bits[p] = keep_of(p), bits_of(p)
    return _Lanes(
        n=n,
        width=w,
        ncells=nc,
        cell_region=cell_region,
        guards=guards,
        low=low,
        full=full,
        cell_guards=(guards >> cell_region) << cell_region,
        owner=owner,
        bits=bits,
        keep=keep,
        locked=_lock_passes(shape),
    )


def _propagate(board: int, open_: int, lz: _Lanes) -> State | None:
    """Place every single and apply locked candidates until nothing changes; None on a
    contradiction (a cell with no value, or a value with no place in a unit)."""
    n = lz.n
    G, LOW = lz.guards, lz.low
    owner, keep, bits = lz.owner, lz.keep, lz.bits
    while True:
        t = (board | G) - LOW  # per lane: guard kept iff the lane is not empty
        if t & G != G:
            return None
        rest = t & board  # each lane without its lowest bit
        single = G ^ (((rest | G) - LOW) & G)  # guards of lanes with one bit
        found = board & (single - (single >> n)) & open_
        if found:
            while found:
                p = owner[found.bit_length() - 1]
                board &= keep[p]
                open_ ^= bits[p]
                found &= open_  # drops p in its other lanes: it may be single in several
            continue
        gone = _locked(board & open_, lz)
        if not gone:
            return board, open_
        while gone:
            board ^= bits[owner[gone.bit_length() - 1]]
            gone &= board  # drops it from its other lanes too


def _locked(unplaced: int, lz: _Lanes) -> int:
    """The candidates that locked candidates (pointing and claiming) eliminate."""
    n = lz.n
    out = 0
    for mask, guards, low, seg, first, fill, seg_shifts, lane_shifts, line_shifts in lz.locked:
        b = unplaced & mask
        f = b  # a flag at the low bit of every segment holding a candidate
        for s in seg_shifts:
            f |= b >> s
        f &= seg
        # Pointing: a box (at its band's first lane) whose flags lie in one of its lanes.
        once = f & first
        twice = 0
        for s in lane_shifts:
            x = (f >> s) & first
            twice |= once & x
            once |= x
        pointing = once ^ (once & twice)
        if pointing:
            spread = pointing
            for s in lane_shifts:
                spread |= pointing << s
            q = spread & f
            lanes = q
            for s in line_shifts:
                lanes |= q >> s
            lanes = b & ((lanes & low) * ((1 << n) - 1))
            out |= lanes ^ (lanes & (q * fill))
        # Claiming: a line whose flags lie in one segment (one box).
        t = (f | guards) - low
        one = (guards ^ (((t & f) | guards) - low) & guards) & t
        if one:
            c = f & (one - (one >> n))
            box = c
            for s in lane_shifts:
                box |= c >> s
            box &= first
            spread = box
            for s in lane_shifts:
                spread |= box << s
            out |= b & ((spread ^ c) * fill)
    return out


def _start(grid: Grid, lz: _Lanes) -> State | None:
    """The propagated state of the givens; None when they clash or cannot be completed."""
    board = open_ = lz.full
    nc = lz.ncells
    keep, bits = lz.keep, lz.bits
    for cell, v in enumerate(grid.cells):
        if v:
            p = (v - 1) * nc + cell
            if not board & bits[p]:
                return None  # a peer holds the same value
            board &= keep[p]
            open_ ^= bits[p]
    return (lz.propagate or _propagate)(board, open_, lz)


def _branch(board: int, open_: int, lz: _Lanes) -> list[int] | None:
    """The candidates to try in turn at a stalled state, or None when the grid is full.

    A cell with two candidates if any; otherwise the cell, or the (value, unit) lane, with
    the fewest open candidates (the lowest-numbered lane on ties)."""
    unplaced = board & open_
    if not unplaced >> lz.cell_region:
        return None
    G, LOW = lz.guards, lz.low
    rest = unplaced
    while True:
        t = (rest | G) - LOW
        rest &= t  # remove the lowest bit of every lane
        now_empty = t & G & ~(((rest | G) - LOW) & G)  # lanes that just ran out
        if now_empty:
            if now_empty & lz.cell_guards:
                now_empty &= lz.cell_guards
            lane_bit = (now_empty & -now_empty).bit_length() - 1 - lz.n
            row = (unplaced >> lane_bit) & ((1 << lz.n) - 1)
            owner = lz.owner
            out = []
            while row:
                i = row.bit_length() - 1
                row ^= 1 << i
                out.append(owner[lane_bit + i])
            out.reverse()
            return out


def _search(
    start: State, lz: _Lanes, budget: int | None, rng: random.Random | None = None
) -> Iterator[int]:
    """Yield the board of every solution below ``start``, depth first."""
    keep, bits = lz.keep, lz.bits
    propagate = lz.propagate or _propagate
    nodes = 0
    stack: list[tuple[int, int, list[int], int]] = []
    state: State | None = start
    while True:
        if state is not None:
            board, open_ = state
            tries = _branch(board, open_, lz)
            if tries is None:
                yield board
            else:
                if rng is not None:
                    rng.shuffle(tries)
                stack.append((board, open_, tries, 0))
            state = None
        if not stack:
            return
        board, open_, tries, i = stack[-1]
        if i + 1 < len(tries):
            stack[-1] = (board, open_, tries, i + 1)
        else:
            stack.pop()
        nodes += 1
        if budget is not None and nodes > budget:
            raise BudgetExceeded(f"the search used up its budget of {budget} nodes")
        p = tries[i]
        state = propagate(board & keep[p], open_ ^ bits[p], lz)


def _grid_of(shape: Shape, board: int, lz: _Lanes) -> Grid:
    """The grid of a solved board, read from the cell region."""
    lane = (1 << lz.n) - 1
    w = lz.width
    cells = board >> lz.cell_region
    return Grid(shape, tuple(((cells >> (c * w)) & lane).bit_length() for c in range(lz.ncells)))
