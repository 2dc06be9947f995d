"""The 45 rule (innies and outies) of Killer, over houses and groups of houses.

A house holds 1..N once, so its cells add up to N(N+1)/2, and k houses that share no
cell add up to k times that. :func:`sum_groups` lists, once per rules, the groups worth
looking at with what the cages make of each: the cages wholly inside account for part
of the total, so the cells left inside (innies) add up to the rest; when every cell
inside is caged, the cells outside of the cages that cross the edge (outies) add up to
the crossing cages' totals less the innies' sum. :func:`innies_outies` then looks at the
innies and outies with at most three open cells: one is placed, two or three lose the
values that cannot make their sum.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from solver.logic.cages import cage_support
from solver.logic.houses import VBoard, readers_of
from solver.logic.techniques.base import Step, bit_indexes, values_of
from solver.rules.ruleset import RULES_CACHED, Rules, layout


@dataclass(frozen=True, slots=True)
class SumGroup:
    """Houses whose cells add up to k * N(N+1)/2, with what the cages make of it.

    ``innies``: the cells not in a cage wholly inside, adding up to ``innie_total``;
    ``outies``: the cells outside of the cages that cross the edge, adding up to
    ``outie_total`` (empty when the group has uncaged cells, whose sum is not known)."""

    houses: tuple[int, ...]
    innies: tuple[int, ...]
    innie_total: int
    outies: tuple[int, ...]
    outie_total: int


@lru_cache(maxsize=RULES_CACHED)
def sum_groups(rules: Rules) -> tuple[SumGroup, ...]:
    """The 45 rule's groups, most natural first: the houses, every run of 2..N-1
    neighbouring rows or columns, then every two and three edge-neighbouring regions that
    are not such a run (two boxes side by side, an L of three). Groups that can never
    yield are left out: a cage without a sum touches them, or nothing is left inside
    and out; innies or outies that an earlier group already names are not named again.

    Cells and cages are bitmasks here (bit c a cell, bit i a cage): a Killer generator
    draws new cages at every attempt, so this runs once per attempt that gets this far."""
    lay, n = layout(rules), rules.size
    house_total = n * (n + 1) // 2
    cage_masks = [sum(1 << c for c in cage.cells) for cage in rules.cages]
    totals = [cage.total or 0 for cage in rules.cages]
    no_sum = sum(1 << i for i, cage in enumerate(rules.cages) if cage.total is None)
    caged = sum(cage_masks)
    house_cages = [0] * len(lay.houses)
    for h, cells in enumerate(lay.houses):
        for c in cells:
            if lay.cage_of[c] >= 0:
                house_cages[h] |= 1 << lay.cage_of[c]
    out = []
    named = {0}
    for hs, group in house_groups(rules):
        touching = 0
        for h in hs:
            touching |= house_cages[h]
        if touching & no_sum:
            continue
        inside_sum = crossing_sum = outies = 0
        innies = group & ~caged
        while touching:
            low = touching & -touching
            touching ^= low
            i = low.bit_length() - 1
            outside = cage_masks[i] & ~group
            if outside:
                innies |= cage_masks[i] & group
                outies |= outside
                crossing_sum += totals[i]
            else:
                inside_sum += totals[i]
        if group & ~caged:
            outies = 0  # the uncaged cells' sum is not known
        innies = 0 if innies in named else innies
        outies = 0 if outies in named else outies
        if innies or outies:
            named.update((innies, outies))
            innie_total = len(hs) * house_total - inside_sum
            out.append(
                SumGroup(
                    hs,
                    tuple(bit_indexes(innies)),
                    innie_total,
                    tuple(bit_indexes(outies)),
                    crossing_sum - innie_total,
                )
            )
    return tuple(out)


def house_groups(rules: Rules) -> tuple[tuple[tuple[int, ...], int], ...]:
    """(houses, cell mask) of every group :func:`sum_groups` looks at, in its order: each
    house (extra houses too), then the runs of lines and the groups of regions."""
    singles = tuple(
        ((h,), sum(1 << c for c in cells)) for h, cells in enumerate(layout(rules).houses)
    )
    return singles + _house_groups(rules.shape.size, rules.regions)


@lru_cache(maxsize=RULES_CACHED)
def _house_groups(n: int, regions: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The runs of 2..N-1 rows, then of columns, then the groups of regions no run covers."""
    masks = [sum(1 << (r * n + k) for k in range(n)) for r in range(n)]
    masks += [sum(1 << (r * n + k) for r in range(n)) for k in range(n)]
    masks += [0] * n
    for c, r in enumerate(regions):
        masks[2 * n + r] |= 1 << c
    groups: list[tuple[int, ...]] = []
    for first in (0, n):
        for size in range(2, n):
            for start in range(first, first + n - size + 1):
                groups.append(tuple(range(start, start + size)))
    out = [(hs, sum(masks[h] for h in hs)) for hs in groups]
    seen = {mask for _, mask in out}
    for group in region_groups(n, regions):
        hs = tuple(2 * n + r for r in group)
        mask = sum(masks[h] for h in hs)
        if mask not in seen:
            seen.add(mask)
            out.append((hs, mask))
    return tuple(out)


def region_groups(n: int, regions: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every two, then every three regions that make one piece (neighbours sharing a
    side), each sorted: boxes 1 and 2, then boxes 1, 2 and 3, boxes 1, 2 and 4..."""
    near: list[set[int]] = [set() for _ in range(n)]
    for c, r in enumerate(regions):
        right = regions[c + 1] if (c + 1) % n else r
        below = regions[c + n] if c + n < n * n else r
        for s in (right, below):
            if s != r:
                near[r].add(s)
                near[s].add(r)
    pairs = sorted({(a, b) for a in range(n) for b in near[a] if a < b})
    threes = {
        tuple(sorted((a, b, c))) for a, b in pairs for c in near[a] | near[b] if c not in (a, b)
    }
    return [*pairs, *sorted(threes)]


def innies_outies(board: VBoard) -> Iterator[Step]:
    """The 45 rule over every group of :func:`sum_groups`: innies, then outies."""
    values = board.values
    sets = _sum_cell_sets(board.rules)
    todo = board.pending(innies_outies, _sum_set_readers(board.rules))
    placed = 0
    for c, v in enumerate(values):
        if v:
            placed |= 1 << c
    for i in todo.take(len(sets)):
        houses, kind, cells, mask, total = sets[i]
        if 0 < (mask & ~placed).bit_count() <= 3:
            open_cells = [c for c in cells if not values[c]]
            left = total - sum([values[c] for c in cells])
            for step in _sum_cells(board, houses, open_cells, left, kind):
                todo.again(i)
                yield step


@lru_cache(maxsize=RULES_CACHED)
def _sum_set_readers(rules: Rules) -> tuple[int, ...]:
    """Per cell the sets of :func:`_sum_cell_sets` holding it (for :meth:`VBoard.pending`)."""
    return readers_of((cells for _, _, cells, _, _ in _sum_cell_sets(rules)), rules.shape.ncells)


@lru_cache(maxsize=RULES_CACHED)
def _sum_cell_sets(
    rules: Rules,
) -> tuple[tuple[tuple[int, ...], str, tuple[int, ...], int, int], ...]:
    """(houses, kind, cells, cell mask, total) of each group's innies, then outies, in
    :func:`sum_groups` order, empty ones left out: a scan then counts open cells by mask."""
    out = []
    for group in sum_groups(rules):
        for kind, cells, total in (
            ("innies", group.innies, group.innie_total),
            ("outies", group.outies, group.outie_total),
        ):
            if cells:
                out.append((group.houses, kind, cells, sum(1 << c for c in cells), total))
    return tuple(out)


def _sum_cells(
    board: VBoard, hs: tuple[int, ...], open_cells: list[int], left: int, kind: str
) -> Iterator[Step]:
    """Open cells known to add up to ``left``: one is placed, two or three lose the values
    that cannot make the sum (different values only when they share a house)."""
    if len(open_cells) == 1:
        c = open_cells[0]
        if 1 <= left <= board.n and board.cand[c] & (1 << (left - 1)):
            params = _params(board, hs, open_cells, left)
            yield board.step(
                "innies_outies",
                "45 Rule",
                {"variant": f"{kind}_one", "cell": c, "value": left, **params},
                units=hs,
                cells=open_cells,
                placements=((c, left),),
            )
        return
    cand = board.cand
    masks = tuple([cand[c] for c in open_cells])
    in_houses = cell_house_bits(board.rules)
    shared = in_houses[open_cells[0]]
    for c in open_cells[1:]:
        shared &= in_houses[c]
    support = _sum_support_cached(masks, left, bool(shared))
    if support == masks:
        return  # every candidate makes the sum somehow: nothing to remove
    elim = [
        (c, v)
        for c, m, s in zip(open_cells, masks, support, strict=True)
        for v in values_of(m & ~s)
    ]
    if elim and any(support):
        params = _params(board, hs, open_cells, left)
        yield board.step(
            "innies_outies",
            "45 Rule",
            {"variant": kind, **params},
            units=hs,
            cells=open_cells,
            eliminations=elim,
        )


def _params(board: VBoard, hs: tuple[int, ...], open_cells: list[int], left: int) -> dict:
    ids = [board.lay.unit_ids[h] for h in hs]
    return {"units": ids, "cells": open_cells, "count": left}


@lru_cache(maxsize=RULES_CACHED)
def cell_house_bits(rules: Rules) -> tuple[int, ...]:
    """Per cell its houses as a bitmask (bit h: house h)."""
    return tuple(sum(1 << h for h in hs) for hs in layout(rules).cell_houses)


@lru_cache(maxsize=1 << 14)
def _sum_support_cached(masks: tuple[int, ...], total: int, distinct: bool) -> tuple[int, ...]:
    return tuple(_sum_support(masks, total, distinct))


def _sum_support(masks: tuple[int, ...], total: int, distinct: bool) -> list[int]:
    """Per cell the values some choice (different if ``distinct``) adding to ``total`` uses."""
    if distinct:
        return list(cage_support(masks, total)[0])
    support = [0] * len(masks)
    if len(masks) == 2:
        for a in values_of(masks[0]):
            b = total - a
            if 1 <= b <= 32 and masks[1] >> (b - 1) & 1:
                support[0] |= 1 << (a - 1)
                support[1] |= 1 << (b - 1)
        return support
    for a in values_of(masks[0]):
        for b in values_of(masks[1]):
            c = total - a - b
            if 1 <= c <= 32 and masks[2] >> (c - 1) & 1:
                support[0] |= 1 << (a - 1)
                support[1] |= 1 << (b - 1)
                support[2] |= 1 << (c - 1)
    return support
