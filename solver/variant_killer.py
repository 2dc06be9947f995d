"""Killer techniques: cage combinations, cage-house interactions and the 45 rule.

See :mod:`solver.variant_logic` for what each one finds; here is how. A cage's state is
the mask of each of its cells (a placed cell: its value's bit). :func:`cage_support`
searches the cage's assignments (different values, each a candidate of its cell, adding up
to the sum) and returns, per cell, the values some assignment gives it, and the value sets
the assignments use. A cage holds at most N cells and usually two to five, so the search
is small, and it is cached by state.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache

from solver.techniques.base import Step, values_of
from solver.variant import RULES_CACHED, Rules, layout
from solver.variant_tech import VBoard


@lru_cache(maxsize=1 << 16)
def cage_support(masks: tuple[int, ...], total: int) -> tuple[tuple[int, ...], frozenset[int]]:
    """(per cell the values some assignment gives it, the value sets assignments use).

    A dynamic programme over the cells in turn: a state is the set of values used so far
    (its sum is known), so the states number at most 2^N per cell, never the assignments.
    Up to 9 values, a layer of states is one int with a bit per value set, and a value
    is tried on every state of the layer at once by a shift."""
    top = 0
    for m in masks:
        top |= m
    if top.bit_length() > BITSET_VALUES:
        return _cage_support_sets(masks, total)
    has_not, by_sum = _value_set_tables(top.bit_length())
    layers = [1]  # the empty set
    for m in masks:
        layer = 0
        states = layers[-1]
        while m:
            low = m & -m
            m ^= low
            layer |= (states & has_not[low.bit_length() - 1]) << low  # set s -> s + low
        layers.append(layer)
    good = ends = layers[-1] & by_sum.get(total, 0)
    support = [0] * len(masks)
    for d in range(len(masks) - 1, -1, -1):
        states = layers[d]
        back = 0
        m = masks[d]
        while m:
            low = m & -m
            m ^= low
            reached = ((states & has_not[low.bit_length() - 1]) << low) & good
            if reached:
                support[d] |= low
                back |= reached >> low
        good = back
    sets = []
    while ends:
        low = ends & -ends
        ends ^= low
        sets.append(low.bit_length() - 1)
    return tuple(support), frozenset(sets)


BITSET_VALUES = 9
"""Up to this many values a layer of value sets is an int of 2^N bits (512 at 9x9)."""


@cache
def _value_set_tables(n: int) -> tuple[tuple[int, ...], dict[int, int]]:
    """Bitsets over the value sets of 1..n: per value, the sets without it; per sum, the
    sets with that sum."""
    every = range(1 << n)
    has_not = tuple(sum(1 << s for s in every if not s >> v & 1) for v in range(n))
    by_sum: dict[int, int] = {}
    for s in every:
        by_sum[_sum(s)] = by_sum.get(_sum(s), 0) | 1 << s
    return has_not, by_sum


def _cage_support_sets(
    masks: tuple[int, ...], total: int
) -> tuple[tuple[int, ...], frozenset[int]]:
    """:func:`cage_support` with a set per layer, for values past :data:`BITSET_VALUES`."""
    k = len(masks)
    forward: list[set[int]] = [{0}]
    for m in masks:
        layer = set()
        for used in forward[-1]:
            free = m & ~used
            left = total - _sum(used)
            while free:
                low = free & -free
                free ^= low
                if low.bit_length() > left:
                    break
                layer.add(used | low)
        forward.append(layer)
    ends = {used for used in forward[k] if _sum(used) == total}
    support = [0] * k
    good = ends
    for d in range(k - 1, -1, -1):
        back = set()
        m = masks[d]
        for used in forward[d]:
            free = m & ~used
            while free:
                low = free & -free
                free ^= low
                if used | low in good:
                    support[d] |= low
                    back.add(used)
        good = back
    return tuple(support), frozenset(ends)


@lru_cache(maxsize=1 << 12)
def _sum(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        mask ^= low
        total += low.bit_length()
    return total


def _cage_state(board: VBoard, cells: tuple[int, ...]) -> tuple[int, ...]:
    values, cand = board.values, board.cand
    return tuple((1 << (values[c] - 1)) if values[c] else cand[c] for c in cells)


def cage_combinations(board: VBoard) -> Iterator[Step]:
    """Values no assignment of a cage's sum gives a cell leave that cell."""
    for cage in board.rules.cages:
        if cage.total is None:
            continue
        state = _cage_state(board, cage.cells)
        support, sets = cage_support(state, cage.total)
        elim = [
            (c, v)
            for c, m, s in zip(cage.cells, state, support, strict=True)
            if not board.values[c]
            for v in values_of(m & ~s)
        ]
        if elim:
            union = 0
            for s in sets:
                union |= s
            yield board.step(
                "cage_combination",
                "Cage Combination",
                {"cells": cage.cells, "count": cage.total, "values": values_of(union)},
                cells=cage.cells,
                eliminations=elim,
            )


def cage_houses(board: VBoard) -> Iterator[Step]:
    """A value every combination of a cage holds, whose cells in the cage share a house:
    the rest of the house loses it."""
    lay, cand, values = board.lay, board.cand, board.values
    for cage in board.rules.cages:
        if cage.total is None:
            continue
        _, sets = cage_support(_cage_state(board, cage.cells), cage.total)
        if not sets:
            continue
        must = board.all_mask
        for s in sets:
            must &= s
        inside = set(cage.cells)
        for v in values_of(must):
            b = 1 << (v - 1)
            if any(values[c] == v for c in cage.cells):
                continue
            pos = [c for c in cage.cells if cand[c] & b]
            if not pos:
                continue
            common = set(lay.cell_houses[pos[0]])
            for c in pos[1:]:
                common &= set(lay.cell_houses[c])
            for h in sorted(common):
                removed = [c for c in lay.houses[h] if c not in inside and cand[c] & b]
                if removed:
                    yield board.step(
                        "cage_house",
                        "Cage-House Interaction",
                        {
                            "cage_cells": cage.cells,
                            "value": v,
                            "cells": pos,
                            "unit": lay.unit_ids[h],
                            "removed_cells": removed,
                        },
                        units=(h,),
                        cells=pos,
                        eliminations=[(c, v) for c in removed],
                    )


@lru_cache(maxsize=RULES_CACHED)
def _groups(rules: Rules) -> tuple[tuple[tuple[int, ...], frozenset[int]], ...]:
    """The houses, then every run of 2..N-1 neighbouring rows or columns: (houses, cells)."""
    lay, n = layout(rules), rules.size
    out: list[tuple[tuple[int, ...], frozenset[int]]] = [
        ((h,), frozenset(cells)) for h, cells in enumerate(lay.houses)
    ]
    for first in (0, n):
        for size in range(2, n):
            for start in range(first, first + n - size + 1):
                hs = tuple(range(start, start + size))
                out.append((hs, frozenset(c for h in hs for c in lay.houses[h])))
    return tuple(out)


def innies_outies(board: VBoard) -> Iterator[Step]:
    """The 45 rule over every house and run of lines (see the module docstring)."""
    rules, lay, n = board.rules, board.lay, board.n
    house_total = n * (n + 1) // 2
    cages = rules.cages
    for hs, cells in _groups(rules):
        inside_sum = 0
        innies: list[int] = []
        crossing: list[int] = []
        known = True
        for i in {lay.cage_of[c] for c in cells}:
            if i < 0:
                continue
            cage = cages[i]
            if cage.total is None:
                known = False
                break
            if cells.issuperset(cage.cells):
                inside_sum += cage.total
            else:
                crossing.append(i)
        if not known:
            continue
        innies = sorted(c for c in cells if lay.cage_of[c] < 0 or lay.cage_of[c] in crossing)
        target = len(hs) * house_total - inside_sum
        yield from _sum_cells(board, hs, innies, target, "innies")
        if crossing and all(lay.cage_of[c] >= 0 for c in innies):
            outies = sorted(c for i in crossing for c in cages[i].cells if c not in cells)
            target = sum(cages[i].total or 0 for i in crossing) - target
            yield from _sum_cells(board, hs, outies, target, "outies")


def _sum_cells(
    board: VBoard, hs: tuple[int, ...], cells: list[int], target: int, kind: str
) -> Iterator[Step]:
    """Cells known to add up to ``target``: one is placed, two or three lose the values
    that cannot make the sum (different values only when they share a house)."""
    values = board.values
    open_cells = [c for c in cells if not values[c]]
    left = target - sum(values[c] for c in cells if values[c])
    if not open_cells or len(open_cells) > 3:
        return
    ids = [board.lay.unit_ids[h] for h in hs]
    params = {"units": ids, "cells": open_cells, "count": left}
    if len(open_cells) == 1:
        c = open_cells[0]
        if 1 <= left <= board.n and board.cand[c] & (1 << (left - 1)):
            yield board.step(
                "innies_outies",
                "45 Rule",
                {"variant": f"{kind}_one", "cell": c, "value": left, **params},
                units=hs,
                cells=open_cells,
                placements=((c, left),),
            )
        return
    masks = tuple(board.cand[c] for c in open_cells)
    shared = set(board.lay.cell_houses[open_cells[0]])
    for c in open_cells[1:]:
        shared &= set(board.lay.cell_houses[c])
    support = _sum_support(masks, left, bool(shared))
    elim = [
        (c, v)
        for c, m, s in zip(open_cells, masks, support, strict=True)
        for v in values_of(m & ~s)
    ]
    if elim and any(support):
        yield board.step(
            "innies_outies",
            "45 Rule",
            {"variant": kind, **params},
            units=hs,
            cells=open_cells,
            eliminations=elim,
        )


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
