"""Killer techniques: cage combinations and cage-house interactions (the 45 rule is
:mod:`solver.logic.innies`).

See :mod:`solver.logic.general` for what each one finds; here is how. A cage's state is
the mask of each of its cells (a placed cell: its value's bit). :func:`cage_support`
searches the cage's assignments (different values, each a candidate of its cell, adding up
to the sum) and returns, per cell, the values some assignment gives it, and the value sets
the assignments use. A cage holds at most N cells and usually two to five, so the search
is small, and it is cached by state.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache

from solver.logic.houses import VBoard, readers_of
from solver.logic.techniques.base import Step, values_of
from solver.rules.ruleset import RULES_CACHED, Rules


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
    return tuple([(1 << (values[c] - 1)) if values[c] else cand[c] for c in cells])


@lru_cache(maxsize=RULES_CACHED)
def cage_readers(rules: Rules) -> tuple[int, ...]:
    """Per cell the cages holding it (bit i: cage i), for :meth:`VBoard.pending`."""
    return readers_of((cage.cells for cage in rules.cages), rules.shape.ncells)


def cage_combinations(board: VBoard) -> Iterator[Step]:
    """Values no assignment of a cage's sum gives a cell leave that cell."""
    cages = board.rules.cages
    todo = board.pending(cage_combinations, cage_readers(board.rules))
    for i in todo.take(len(cages)):
        cage = cages[i]
        if cage.total is None:
            continue
        state = _cage_state(board, cage.cells)
        support, sets = cage_support(state, cage.total)
        if support == state:
            continue  # the usual case: every candidate left has an assignment
        elim = [
            (c, v)
            for c, m, s in zip(cage.cells, state, support, strict=True)
            if not board.values[c]
            for v in values_of(m & ~s)
        ]
        if not elim:
            continue
        union = 0
        for s in sets:
            union |= s
        todo.again(i)
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
