"""The variant engine's board and techniques (see :mod:`solver.variant_logic`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from solver.grid import Grid
from solver.sentences import render
from solver.techniques.base import Pair, Step, values_of
from solver.variant import RULES_CACHED, Layout, Rules, layout


class VBoard:
    """Placed values and candidate masks under ``rules`` (a placed cell has mask 0)."""

    __slots__ = ("all_mask", "cand", "explain", "lay", "left", "n", "rules", "t", "values")

    def __init__(self, rules: Rules, values: list[int], cand: list[int]) -> None:
        self.rules = rules
        self.lay: Layout = layout(rules)
        self.t = _peer_tables(rules)  # what the classic's wings read (solver.techniques.wings)
        self.n = rules.size
        self.all_mask = (1 << self.n) - 1
        self.values = values
        self.cand = cand
        self.explain = True  # False: steps carry no sentence (a solvability check's speed)
        self.left = [sum(1 for c in h if not values[c]) for h in self.lay.houses]  # empty cells

    @classmethod
    def from_grid(cls, rules: Rules, grid: Grid) -> VBoard | None:
        """The board with candidates from the houses and cages; None if the givens clash."""
        board = cls(rules, [0] * grid.shape.ncells, [(1 << rules.size) - 1] * grid.shape.ncells)
        for c, v in enumerate(grid.cells):
            if v and not board.place(c, v):
                return None
        return board

    def grid(self) -> Grid:
        return Grid(self.rules.shape, tuple(self.values))

    def place(self, cell: int, value: int) -> bool:
        b = 1 << (value - 1)
        if self.values[cell] or not self.cand[cell] & b:
            return False
        self.values[cell] = value
        self.cand[cell] = 0
        for p in self.lay.peers[cell]:
            self.cand[p] &= ~b
        for h in self.lay.cell_houses[cell]:
            self.left[h] -= 1
        return True

    def apply(self, step: Step) -> bool:
        for cell, value in step.placements:
            if not self.place(cell, value):
                return False
        cand, values = self.cand, self.values
        for cell, value in step.eliminations:
            cand[cell] &= ~(1 << (value - 1))
        touched = [c for cell, _ in step.placements for c in self.lay.peers[cell]]
        touched += [cell for cell, _ in step.eliminations]
        return all(cand[c] or values[c] for c in touched)

    def is_solved(self) -> bool:
        return all(self.values)

    def step(
        self,
        technique: str,
        name: str,
        params: dict[str, Any],
        *,
        units: Iterable[int] = (),
        cells: Iterable[int] = (),
        placements: Iterable[Pair] = (),
        eliminations: Iterable[Pair] = (),
    ) -> Step:
        """A step whose sentence is rendered from ``params`` (:mod:`solver.sentences`)."""
        elim = tuple(sorted(eliminations))
        frozen = tuple((k, _frozen(v)) for k, v in params.items())
        sentence = ""
        if self.explain:
            sentence = render(technique, dict(frozen), size=self.n, eliminations=elim) or ""
            assert sentence, technique
        ids = self.lay.unit_ids
        return Step(
            technique=technique,
            name=name,
            sentence=sentence,
            units=tuple(ids[h] for h in units),
            cells=tuple(cells),
            placements=tuple(placements),
            eliminations=elim,
            shape=self.rules.shape,
            params=frozen,
        )


@dataclass(frozen=True, slots=True)
class PeerTables:
    peer_sets: tuple[frozenset[int], ...]


@lru_cache(maxsize=RULES_CACHED)
def _peer_tables(rules: Rules) -> PeerTables:
    return PeerTables(tuple(frozenset(p) for p in layout(rules).peers))


def _frozen(value: Any) -> Any:
    return tuple(_frozen(v) for v in value) if isinstance(value, tuple | list) else value


def _positions(board: VBoard, house: tuple[int, ...], bit: int) -> list[int]:
    cand = board.cand
    return [c for c in house if cand[c] & bit]


# ---------------------------------------------------------------------------------------
# Singles


def full_houses(board: VBoard) -> Iterator[Step]:
    """A house with one empty cell left."""
    values, ids, houses = board.values, board.lay.unit_ids, board.lay.houses
    for h, left in enumerate(board.left):
        if left == 1:
            house = houses[h]
            c = next(c for c in house if not values[c])
            v = board.all_mask ^ sum(1 << (values[d] - 1) for d in house if values[d])
            if v & board.cand[c]:
                value = v.bit_length()
                yield board.step(
                    "full_house",
                    "Full House",
                    {"cell": c, "unit": ids[h], "value": value},
                    units=(h,),
                    cells=(c,),
                    placements=((c, value),),
                )


def naked_singles(board: VBoard) -> Iterator[Step]:
    """A cell with one candidate."""
    for c, m in enumerate(board.cand):
        if m and not m & (m - 1):
            v = m.bit_length()
            yield board.step(
                "naked_single",
                "Naked Single",
                {"variant": "ruled_out", "cell": c, "value": v},
                cells=(c,),
                placements=((c, v),),
            )


def hidden_singles(board: VBoard) -> Iterator[Step]:
    """A value with one place in a house."""
    cand, ids = board.cand, board.lay.unit_ids
    for h, house in enumerate(board.lay.houses):
        once = twice = 0
        for c in house:
            twice |= once & cand[c]
            once |= cand[c]
        for v in values_of(once & ~twice):
            b = 1 << (v - 1)
            c = next(c for c in house if cand[c] & b)
            if cand[c] != b:  # a naked single reports it otherwise
                yield board.step(
                    "hidden_single",
                    "Hidden Single",
                    {"unit": ids[h], "value": v, "cell": c},
                    units=(h,),
                    cells=(c,),
                    placements=((c, v),),
                )


# ---------------------------------------------------------------------------------------
# Locked candidates, subsets, fish: on every house


def locked(board: VBoard, *, pointing: bool) -> Iterator[Step]:
    """A house whose positions for a value lie in another house: the rest of that one
    loses the value. Pointing starts from a region or an extra house, claiming from a line."""
    lay, cand, n = board.lay, board.cand, board.n
    houses, ids = lay.houses, lay.unit_ids
    sets = _house_sets(board.rules)
    cell_sets = _cell_house_sets(board.rules)
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


def house_positions(board: VBoard, house: tuple[int, ...]) -> dict[int, list[int]]:
    """Per value bit, the empty cells of ``house`` where it may go (one pass)."""
    cand = board.cand
    out: dict[int, list[int]] = {}
    for c in house:
        m = cand[c]
        while m:
            low = m & -m
            m ^= low
            if low in out:
                out[low].append(c)
            else:
                out[low] = [c]
    return out


@lru_cache(maxsize=RULES_CACHED)
def _cell_house_sets(rules: Rules) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(h) for h in layout(rules).cell_houses)


@lru_cache(maxsize=RULES_CACHED)
def _house_sets(rules: Rules) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(h) for h in layout(rules).houses)


def naked_subsets(board: VBoard, *, k: int) -> Iterator[Step]:
    """k cells of a house holding k values between them: the rest of the house loses them."""
    cand, ids = board.cand, board.lay.unit_ids
    names = {2: "Naked Pair", 3: "Naked Triple", 4: "Naked Quad"}
    for h, house in enumerate(board.lay.houses):
        empty = [c for c in house if cand[c]]
        if len(empty) <= k:
            continue
        small = [c for c in empty if cand[c].bit_count() <= k]
        for group in combinations(small, k):
            m = 0
            for c in group:
                m |= cand[c]
            if m.bit_count() != k:
                continue
            elim = [(c, v) for c in empty if c not in group for v in values_of(cand[c] & m)]
            if elim:
                yield board.step(
                    f"naked_{('pair', 'triple', 'quad')[k - 2]}",
                    names[k],
                    {"unit": ids[h], "cells": group, "values": values_of(m)},
                    units=(h,),
                    cells=group,
                    eliminations=elim,
                )


def hidden_subsets(board: VBoard, *, k: int) -> Iterator[Step]:
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


def x_wings(board: VBoard, *, k: int) -> Iterator[Step]:
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
