"""The variant engine's locked candidates, hidden subsets and fish written plainly, with
sets: the bitmask versions in :mod:`solver.logic.houses` must find the same steps."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from solver.logic.houses import VBoard, house_positions
from solver.logic.techniques.base import Step, values_of


def _sets(houses):
    return [frozenset(h) for h in houses]


def plain_locked(board: VBoard, *, pointing: bool) -> Iterator[Step]:
    """A house whose positions for a value lie in another house: the rest of that one
    loses the value. Pointing starts from a region or an extra house, claiming from a line."""
    lay, cand, n = board.lay, board.cand, board.n
    houses, ids = lay.houses, lay.unit_ids
    sets = _sets(houses)
    cell_sets = _sets(lay.cell_houses)
    starts = range(2 * n, len(houses)) if pointing else range(2 * n)
    for h in starts:
        spots = house_positions(board, houses[h])
        for b in sorted(spots):
            pos = spots[b]
            if len(pos) < 2:
                continue
            common = cell_sets[pos[0]]
            for c in pos[1:]:
                common = common & cell_sets[c]
            if len(common) < 2:
                continue
            v = b.bit_length()
            for other in sorted(common - {h}):
                removed = [c for c in houses[other] if cand[c] & b and c not in sets[h]]
                if removed:
                    yield board.step(
                        "pointing" if pointing else "claiming",
                        "Pointing" if pointing else "Claiming",
                        {
                            "unit": ids[h],
                            "value": v,
                            "other_unit": ids[other],
                            "cells": pos,
                            "removed_cells": removed,
                        },
                        units=(h, other),
                        cells=pos,
                        eliminations=[(c, v) for c in removed],
                    )


def plain_hidden_subsets(board: VBoard, *, k: int) -> Iterator[Step]:
    """k values of a house that fit only in the same k cells: those cells lose the rest."""
    cand, ids = board.cand, board.lay.unit_ids
    names = {2: "Hidden Pair", 3: "Hidden Triple", 4: "Hidden Quad"}
    for h, house in enumerate(board.lay.houses):
        where = {}
        for b, cells_of in house_positions(board, house).items():
            if 2 <= len(cells_of) <= k:
                where[b.bit_length()] = frozenset(cells_of)
        for vals in combinations(sorted(where), k):
            cells = frozenset().union(*(where[v] for v in vals))
            if len(cells) != k:
                continue
            m = sum(1 << (v - 1) for v in vals)
            elim = [(c, v) for c in sorted(cells) for v in values_of(cand[c] & ~m)]
            if elim:
                yield board.step(
                    f"hidden_{('pair', 'triple', 'quad')[k - 2]}",
                    names[k],
                    {"unit": ids[h], "values": vals, "cells": sorted(cells)},
                    units=(h,),
                    cells=sorted(cells),
                    eliminations=elim,
                )


def plain_x_wings(board: VBoard, *, k: int) -> Iterator[Step]:
    """X-Wing (k=2) and Swordfish (k=3) on rows and columns, which every variant keeps."""
    n, cand, houses = board.n, board.cand, board.lay.houses
    slug, name = ("x_wing", "X-Wing") if k == 2 else ("swordfish", "Swordfish")
    for base0, cover0, kind in ((0, n, "rows"), (n, 0, "columns")):
        for v in range(1, n + 1):
            b = 1 << (v - 1)
            lines = {}
            for line in range(base0, base0 + n):
                idx = frozenset(i for i, c in enumerate(houses[line]) if cand[c] & b)
                if 2 <= len(idx) <= k:
                    lines[line] = idx
            for base in combinations(sorted(lines), k):
                cover = frozenset().union(*(lines[line] for line in base))
                if len(cover) != k:
                    continue
                removed = [
                    c
                    for i in sorted(cover)
                    for c in houses[cover0 + i]
                    if cand[c] & b and not any(c in houses[line] for line in base)
                ]
                if removed:
                    yield board.step(
                        slug,
                        name,
                        {
                            "variant": kind,
                            "base_units": list(base),
                            "value": v,
                            "cover_units": [cover0 + i for i in sorted(cover)],
                            "removed_cells": removed,
                        },
                        units=(*base, *(cover0 + i for i in sorted(cover))),
                        cells=[c for line in base for c in houses[line] if cand[c] & b],
                        eliminations=[(c, v) for c in removed],
                    )
