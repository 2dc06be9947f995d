"""The exact engine's lanes for any :class:`~solver.variant.Rules`: houses and cages.

:mod:`solver.search` keeps one lane per (value, unit) and one per cell; a variant changes
only which cells a lane covers, so the same propagation and search serve it:

- the third region holds a lane per (value, region), a bit per cell of the region in cell
  order, so irregular regions are lanes like boxes;
- extra houses (diagonals, windows) get a region of their own between the regions and the
  cells, a lane per (value, house); a cell on a diagonal has one more bit per value;
- cage mates are peers (placing a value clears it from the rest of the cage);
- locked candidates (pointing and claiming) are shifts over bands of boxes, so they run
  only when the regions are the boxes; on irregular regions singles and search do it all.

A cage's sum is not a lane. After the singles, :func:`_propagate_cages` keeps in each cell
of a cage only the values of the cage's *combinations* (sets of different values with its
sum) that still fit: every value of the combination has a cell left that may hold it and
every cell may hold a value of the combination. When the cage is filled that test is exact
(the values are different, as peers, and their set must be a combination), so the search
never accepts a wrong sum; before that it prunes, and a cage with no combination left is a
contradiction.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from solver.grid import tables
from solver.lanes import (
    State,
    _Lanes,
    _lanes,
    _lock_passes,
    _MaskCache,
    _propagate,
)
from solver.variant import Rules, layout


@cache
def variant_lanes(rules: Rules) -> _Lanes:
    """The lane layout and mask tables for ``rules`` (cached per rules)."""
    shape = rules.shape
    lay = layout(rules)
    n, nc = shape.size, shape.ncells
    w = n + 1
    extra = lay.houses[3 * n :]
    nx = len(extra)
    if not nx and not rules.irregular:
        return _caged_classic(rules)
    nlanes = (3 * n + nx) * n + nc
    low = 0
    for lane in range(nlanes):
        low |= 1 << (lane * w)
    guards = low << n
    full = low * ((1 << n) - 1)
    base_x = 3 * n * n * w
    cell_region = base_x + n * nx * w
    region_index = [0] * nc
    for h in range(2 * n, 3 * n):
        for i, c in enumerate(lay.houses[h]):
            region_index[c] = i
    extra_of: list[list[tuple[int, int]]] = [[] for _ in range(nc)]
    for h, cells in enumerate(extra):
        for i, c in enumerate(cells):
            extra_of[c].append((h, i))
    owner = [-1] * (nlanes * w)
    positions: list[tuple[int, ...]] = []
    for p in range(n * nc):
        value, cell = divmod(p, nc)
        r, k = divmod(cell, n)
        pos = [
            (value * n + r) * w + k,
            n * n * w + (value * n + k) * w + r,
            2 * n * n * w + (value * n + rules.regions[cell]) * w + region_index[cell],
            cell_region + cell * w + value,
        ]
        pos += [base_x + (value * nx + h) * w + i for h, i in extra_of[cell]]
        for q in pos:
            owner[q] = p
        positions.append(tuple(pos))

    def bits_of(p: int) -> int:
        m = 0
        for q in positions[p]:
            m |= 1 << q
        return m

    all_bits = [bits_of(p) for p in range(n * nc)]
    same_cell = [0] * nc
    for p in range(n * nc):
        same_cell[p % nc] |= all_bits[p]
    peers = lay.peers

    def keep_of(p: int) -> int:
        value, cell = divmod(p, nc)
        clear = same_cell[cell] ^ all_bits[p]
        base = value * nc
        for other in peers[cell]:
            clear |= all_bits[base + other]
        return full ^ (full & clear)

    cap = max(1024, (16 << 20) // (full.bit_length() // 8 + 1))
    keep, bits = _MaskCache(keep_of, cap), _MaskCache(bits_of, cap)
    if n * nc <= cap:
        for p in range(n * nc):
            keep[p], bits[p] = keep_of(p), bits_of(p)
    cages = tuple(
        (tuple(c * w for c in cage.cells), cage.cells, combos)
        for cage, combos in zip(rules.cages, lay.combos, strict=True)
        if cage.total is not None
    )
    lanes = _Lanes(
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
        locked=() if rules.irregular else _lock_passes(shape),
        propagate=_propagate_cages if cages else _propagate,
        cages=cages,
    )
    return lanes


def _caged_cages(
    rules: Rules,
) -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    w = rules.size + 1
    return tuple(
        (tuple(c * w for c in cage.cells), cage.cells, combos)
        for cage, combos in zip(rules.cages, layout(rules).combos, strict=True)
        if cage.total is not None
    )


def _caged_classic(rules: Rules) -> _Lanes:
    """Boxes and cages only (Killer): the classic's lanes, whose bits are the same, with
    each cage mate added to what placing a value clears."""
    base = _lanes(rules.shape)
    nc = rules.shape.ncells
    n = rules.size
    keep = dict(base.keep)  # filled for every candidate up to 16x16
    if len(keep) < n * nc:
        keep = {p: base.keep[p] for p in range(n * nc)}
    peer_sets = tables(rules.shape).peer_sets
    for cage in rules.cages:
        for cell in cage.cells:
            mates = [m for m in cage.cells if m != cell and m not in peer_sets[cell]]
            if not mates:
                continue
            for value in range(n):
                clear = 0
                for m in mates:
                    clear |= base.bits[value * nc + m]
                p = value * nc + cell
                keep[p] &= ~clear
    cages = _caged_cages(rules)
    return replace(
        base,
        keep=keep,
        propagate=_propagate_cages if cages else _propagate,
        cages=cages,
    )


def _propagate_cages(board: int, open_: int, lz: _Lanes) -> State | None:
    """Singles and locked candidates (:func:`solver.lanes._propagate`), then the cage
    combinations (see the module docstring), until nothing changes; None on a
    contradiction."""
    cages = lz.cages
    lane = (1 << lz.n) - 1
    nc = lz.ncells
    bits = lz.bits
    cr = lz.cell_region
    while True:
        state = _propagate(board, open_, lz)
        if state is None:
            return None
        board, open_ = state
        cells = board >> cr
        gone = []
        for shifts, members, combos in cages:
            masks = [(cells >> s) & lane for s in shifts]
            union = 0
            for m in masks:
                union |= m
            allowed = 0
            for combo in combos:
                if combo & union != combo or combo & allowed == combo:
                    continue  # a value no cell may hold, or nothing new to allow
                for m in masks:
                    if not m & combo:
                        break
                else:
                    allowed |= combo
            if not allowed:
                return None
            if union & ~allowed:
                for cell, m in zip(members, masks, strict=True):
                    out = m & ~allowed
                    while out:
                        low = out & -out
                        out ^= low
                        gone.append((low.bit_length() - 1) * nc + cell)
        if not gone:
            return board, open_
        for p in gone:
            board &= ~bits[p]
