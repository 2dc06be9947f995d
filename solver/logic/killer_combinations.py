"""House combinations: the cages that cross a house, filled together.

A house holds every value once, and each cage that crosses it holds some of them. A Killer
solver who is stuck takes one row, column or box, writes down for every cage crossing it
the ways its sum can still be made (the cells outside the house included, which may rule a
way out), and keeps only the ways that fit together: no value twice in the house, every
value once. A value no fitting choice gives a cell leaves it, in the house or outside.

Killer pairs and triples do this for two or three cages wholly inside a house; this is the
same reasoning over every cage that touches the house, whole or in part. It is exact over
what it reads (the cages' sums, the house, the candidates): for each cage the ways to fill
it (:func:`cage_fillings`), grouped by the values they put in the house, and a search over
the cages with the house's used values as its state (:func:`_fitting`), memoised, so each
grouping is kept or dropped once.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from solver.logic.houses import VBoard
from solver.logic.techniques.base import Step, values_of
from solver.rules.ruleset import RULES_CACHED, Rules, layout

MAX_FILLINGS = 3000
"""Ways to fill one cage past which a house is not read (a wide-open cage of five cells)."""


@lru_cache(maxsize=65536)
def cage_fillings(masks: tuple[int, ...], total: int) -> tuple[tuple[int, ...], ...] | None:
    """Every way to give the cells their candidates (``masks``) with no value twice and the
    values adding up to ``total``; None past :data:`MAX_FILLINGS`."""
    k = len(masks)
    order = sorted(range(k), key=lambda i: masks[i].bit_count())
    vals = [0] * k
    out: list[tuple[int, ...]] = []

    def walk(j: int, used: int, left: int) -> bool:
        if j == k:
            if left == 0:
                out.append(tuple(vals))
            return len(out) <= MAX_FILLINGS
        rest = k - j - 1
        m = masks[order[j]] & ~used
        while m:
            bit = m & -m
            m ^= bit
            v = bit.bit_length()
            after = left - v
            if after < rest * (rest + 1) // 2:
                break  # the values only grow from here
            if rest == 0 and after:
                continue
            vals[order[j]] = v
            if not walk(j + 1, used | bit, after):
                return False
        return True

    complete = walk(0, 0, total)
    walk = None  # type: ignore[assignment]  # it calls itself: a cycle, freed now
    return tuple(out) if complete else None


Piece = tuple[tuple[int, ...], int | None, tuple[int, ...]]
"""A cage crossing a house, or a cell of it no summed cage holds: its cells, its sum (None
for a lone cell) and the indexes of its cells inside the house."""


@lru_cache(maxsize=RULES_CACHED)
def _plans(rules: Rules) -> tuple[tuple[tuple[Piece, ...], tuple[int, ...]] | None, ...]:
    """Per house, its pieces and every cell they read (None where cages overlap)."""
    lay = layout(rules)
    out = []
    for house in lay.houses:
        inside = set(house)
        pieces: list[Piece] = []
        caged: set[int] = set()
        overlap = False
        for cage in rules.cages:
            if cage.total is None or inside.isdisjoint(cage.cells):
                continue
            overlap = overlap or not caged.isdisjoint(cage.cells)
            caged.update(cage.cells)
            where = tuple(i for i, c in enumerate(cage.cells) if c in inside)
            pieces.append((cage.cells, cage.total, where))
        pieces += [((c,), None, (0,)) for c in house if c not in caged]
        cells = tuple(c for cells, _, _ in pieces for c in cells)
        out.append(None if overlap or not caged else (tuple(pieces), cells))
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _house_eliminations(
    pieces: tuple[Piece, ...], masks: tuple[int, ...], full: int
) -> tuple[tuple[int, int], ...]:
    """The eliminations of one house: ``masks`` are the candidates (a placed value as its
    bit) of the pieces' cells, in order. A pure function, so a house whose cells have not
    changed since it was last read is answered from the cache."""
    groups_of: list[tuple[tuple[int, tuple[int, ...]], ...]] = []
    at = 0
    for cells, total, where in pieces:
        own = masks[at : at + len(cells)]
        at += len(cells)
        if total is None:
            groups_of.append(tuple((b, (b,)) for b in _bits(own[0])))
            continue
        groups = _groups(own, total, where)
        if groups is None:
            return ()
        groups_of.append(groups)
    kept = _fitting([[m for m, _ in groups] for groups in groups_of], full)
    elim = []
    at = 0
    for (cells, _, _), groups, fits in zip(pieces, groups_of, kept, strict=True):
        support = [0] * len(cells)
        for mask, gives in groups:
            if mask in fits:
                for i, m in enumerate(gives):
                    support[i] |= m
        for i, c in enumerate(cells):
            left = masks[at + i] & ~support[i]
            if left and masks[at + i] & (masks[at + i] - 1):  # an open cell loses values
                elim += [(c, v) for v in values_of(left)]
        at += len(cells)
    return tuple(sorted(set(elim)))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


@lru_cache(maxsize=65536)
def _groups(
    masks: tuple[int, ...], total: int, where: tuple[int, ...]
) -> tuple[tuple[int, tuple[int, ...]], ...] | None:
    """A cage's fillings grouped by the values they put in the house (the cells at
    ``where``): each group's mask of those values, and the values its fillings give each
    cell (as masks); None past :data:`MAX_FILLINGS`."""
    fillings = cage_fillings(masks, total)
    if fillings is None:
        return None
    out: dict[int, list[int]] = {}
    for filling in fillings:
        mask = 0
        for i in where:
            mask |= 1 << (filling[i] - 1)
        support = out.get(mask)
        if support is None:
            support = out[mask] = [0] * len(filling)
        for i, v in enumerate(filling):
            support[i] |= 1 << (v - 1)
    return tuple((mask, tuple(support)) for mask, support in out.items())


def _fitting(options: list[list[int]], full: int) -> list[set[int]]:
    """For each piece, its house-value masks (``options``) that some choice of one mask
    per other piece completes: no value twice, every value once (``full``)."""
    k = len(options)
    order = sorted(range(k), key=lambda i: len(options[i]))
    ahead: list[set[int]] = [set() for _ in range(k + 1)]  # masks pieces j.. can make
    ahead[k] = {0}
    for j in range(k - 1, -1, -1):
        ahead[j] = {m | u for u in ahead[j + 1] for m in options[order[j]] if not m & u}
    kept: list[set[int]] = [set() for _ in range(k)]
    reach = {0}
    for j, i in enumerate(order):
        after: set[int] = set()
        rest = ahead[j + 1]
        for m in options[i]:
            ok = [u for u in reach if not m & u and full & ~(u | m) in rest]
            if ok:
                kept[i].add(m)
                after.update(u | m for u in ok)
        reach = after
    return kept


def house_combinations(board: VBoard) -> Iterator[Step]:
    """For each house not yet full: the fillings of the cages crossing it that fit together
    (see the module docstring); the values they never give a cell leave it."""
    values, cand = board.values, board.cand
    lay = board.lay
    for h, plan in enumerate(_plans(board.rules)):
        if plan is None or not board.left[h]:
            continue
        pieces, cells = plan
        masks = tuple((1 << (values[c] - 1)) if values[c] else cand[c] for c in cells)
        elim = _house_eliminations(pieces, masks, board.all_mask)  # open cells only
        if elim:
            read = sorted(c for piece, _, _ in pieces if len(piece) > 1 for c in piece)
            yield board.step(
                "house_combination",
                "House Combinations",
                {"cells": read, "unit": lay.unit_ids[h]},
                units=(h,),
                cells=tuple(read),
                eliminations=elim,
            )
