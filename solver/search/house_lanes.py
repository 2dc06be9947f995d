"""The exact engine's lanes for any :class:`~solver.rules.ruleset.Rules`: houses and cages.

:mod:`solver.search.exact` keeps one lane per (value, unit) and one per cell; a variant changes
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

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache, partial

from solver.rules.ruleset import Rules, layout
from solver.search.constraint_lanes import (
    ConstraintLanes,
    constraint_lanes,
    propagate_constraints,
)
from solver.search.lanes import (
    CageLanes,
    State,
    _Lanes,
    _lanes,
    _lock_passes,
    _MaskCache,
    _propagate,
)

LANES_CACHED = 16  # about 1 MB each at 9x9


@lru_cache(maxsize=LANES_CACHED)
def variant_lanes(rules: Rules) -> _Lanes:
    """The lane layout and mask tables for ``rules`` (cached for the latest rules)."""
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
    # A candidate's bits for value v are its cell's bits for the first value shifted: by
    # v*N lanes in the rows, columns and regions, by v*X lanes among the X extra houses,
    # by v bits in its cell's lane. So are the bits of a cell's peers.
    line_shift, extra_shift = n * w, nx * w
    owner = [-1] * (nlanes * w)
    lines0 = [0] * nc
    extras0 = [0] * nc
    for cell in range(nc):
        r, k = divmod(cell, n)
        region = 2 * n * n * w + rules.regions[cell] * w + region_index[cell]
        candidates = range(cell, n * nc, nc)  # the cell's candidates, by value
        for q in (r * w + k, n * n * w + k * w + r, region):
            lines0[cell] |= 1 << q
            owner[q : q + n * line_shift : line_shift] = candidates
        for h, i in extra_of[cell]:
            q = base_x + h * w + i
            extras0[cell] |= 1 << q
            owner[q : q + n * extra_shift : extra_shift] = candidates
        q = cell_region + cell * w
        owner[q : q + n] = candidates
    cells0 = [1 << (cell_region + cell * w) for cell in range(nc)]
    # a cell's peers are its houses' cells but itself, and its cage mates
    by_house = []
    for house in lay.houses:
        lines = extras = in_cells = 0
        for c in house:
            lines |= lines0[c]
            extras |= extras0[c]
            in_cells |= cells0[c]
        by_house.append((lines, extras, in_cells))
    peer_lines0 = [0] * nc
    peer_extras0 = [0] * nc
    peer_cells0 = [0] * nc
    for cell in range(nc):
        lines = extras = in_cells = 0
        for h in lay.cell_houses[cell]:
            hl, hx, hc = by_house[h]
            lines |= hl
            extras |= hx
            in_cells |= hc
        for c in lay.mates[cell]:  # cage mates, and cells a constraint makes differ
            lines |= lines0[c]
            extras |= extras0[c]
            in_cells |= cells0[c]
        peer_lines0[cell] = lines & ~lines0[cell]
        peer_extras0[cell] = extras & ~extras0[cell]
        peer_cells0[cell] = in_cells & ~cells0[cell]

    def bits_of(p: int) -> int:
        value, cell = divmod(p, nc)
        return (
            (lines0[cell] << value * line_shift)
            | (extras0[cell] << value * extra_shift)
            | (1 << (cell_region + cell * w + value))
        )

    def keep_of(p: int) -> int:
        value, cell = divmod(p, nc)
        clear = (
            (peer_lines0[cell] << value * line_shift)
            | (peer_extras0[cell] << value * extra_shift)
            | (peer_cells0[cell] << value)
        )
        clear |= same_cell[cell] ^ bits[p]  # the cell's other values
        return full ^ (full & clear)

    cap = max(1024, (16 << 20) // (full.bit_length() // 8 + 1))
    keep, bits = _MaskCache(keep_of, cap), _MaskCache(bits_of, cap)
    # Masks are built when a search first asks for them: a Jigsaw layout drawn for an
    # easy puzzle needs a fraction. A cell's bits for every value at once are its bits
    # for the first value times a repunit (a copy per value, none overlapping).
    every_line = sum(1 << (v * line_shift) for v in range(n))
    every_extra = sum(1 << (v * extra_shift) for v in range(n))
    lane = (1 << n) - 1
    same_cell = [
        lines0[cell] * every_line | extras0[cell] * every_extra | cells0[cell] * lane
        for cell in range(nc)
    ]
    cages = _caged_cages(rules)
    plan = constraint_lanes(rules)
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
        propagate=_propagator(cages, plan),
        cages=cages,
        constraints=plan,
    )
    return lanes


def _caged_cages(rules: Rules) -> tuple[CageLanes, ...]:
    """The cages with a sum, as the search reads them."""
    w = rules.size + 1
    lane = (1 << rules.size) - 1
    out = []
    for cage, combos in zip(rules.cages, layout(rules).combos, strict=True):
        if cage.total is not None:
            shifts = tuple(c * w for c in cage.cells)
            mask = sum(lane << s for s in shifts)
            out.append(CageLanes(shifts, cage.cells, combos, mask, {}))
    return tuple(out)


def _caged_classic(rules: Rules) -> _Lanes:
    """Boxes, cages and constraints: the classic's lanes, whose bits are the same, with each
    cage mate (and each cell a constraint makes differ) added to what placing a value
    clears."""
    base = _lanes(rules.shape)
    nc = rules.shape.ncells
    n = rules.size
    keep = dict(base.keep)  # filled for every candidate up to 16x16
    if len(keep) < n * nc:
        keep = {p: base.keep[p] for p in range(n * nc)}
    lay = layout(rules)
    for cell in range(nc):
        mates = lay.mates[cell]
        if mates:
            for value in range(n):
                clear = 0
                for m in mates:
                    clear |= base.bits[value * nc + m]
                p = value * nc + cell
                keep[p] &= ~clear
    cages = _caged_cages(rules)
    plan = constraint_lanes(rules)
    return replace(
        base,
        keep=keep,
        propagate=_propagator(cages, plan),
        cages=cages,
        constraints=plan,
    )


def _propagator(cages: tuple[CageLanes, ...], plan: ConstraintLanes | None) -> Callable:
    base = _propagate_cages if cages else _propagate
    if plan is not None:
        return partial(propagate_constraints, base=base)
    return base


def _propagate_cages(board: int, open_: int, lz: _Lanes) -> State | None:
    """Singles and locked candidates (:func:`solver.search.lanes._propagate`), then the cage
    combinations (see the module docstring), until nothing changes; None on a
    contradiction. What a cage's state takes out is remembered per cage: between two
    rounds most cages do not change."""
    cages = lz.cages
    bits = lz.bits
    cr = lz.cell_region
    while True:
        state = _propagate(board, open_, lz)
        if state is None:
            return None
        board, open_ = state
        cells = board >> cr
        gone: list[int] = []
        for cage in cages:
            key = cells & cage.mask
            out = cage.memo.get(key)
            if out is None:
                if len(cage.memo) >= CAGE_MEMO:
                    cage.memo.clear()
                out = cage.memo[key] = _cage_cuts(key, cage, lz.n, lz.ncells)
            if out:
                if out is NO_COMBINATION:
                    return None
                gone += out
        if not gone:
            return board, open_
        for p in gone:
            board &= ~bits[p]


NO_COMBINATION = (-1,)
CAGE_MEMO = 512
"""Cage states remembered per cage (about 150 bytes each), then forgotten all at once."""


def _cage_cuts(cells: int, cage: CageLanes, n: int, nc: int) -> tuple[int, ...]:
    """The candidates a cage whose cell lanes are ``cells`` loses: the values of no
    combination that still fits; :data:`NO_COMBINATION` when none fits."""
    lane = (1 << n) - 1
    masks = [(cells >> s) & lane for s in cage.shifts]
    union = 0
    for m in masks:
        union |= m
    allowed = 0
    for combo in cage.combos:
        if combo & union != combo or combo & allowed == combo:
            continue  # a value no cell may hold, or nothing new to allow
        for m in masks:
            if not m & combo:
                break
        else:
            allowed |= combo
    if not allowed:
        return NO_COMBINATION
    out = []
    if union & ~allowed:
        for cell, m in zip(cage.cells, masks, strict=True):
            cut = m & ~allowed
            while cut:
                low = cut & -cut
                cut ^= low
                out.append((low.bit_length() - 1) * nc + cell)
    return tuple(out)
