"""The variant engine's board and techniques (see :mod:`solver.logic.general`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations
from typing import Any

from solver.grid import Grid
from solver.logic.house_masks import CELL_BITS, first_bits, house_masks, indexes, value_cells
from solver.logic.sentences import render
from solver.logic.techniques.base import Pair, Step, values_of
from solver.rules.ruleset import Layout, Rules, layout


class VBoard:
    """Placed values and candidate masks under ``rules`` (a placed cell has mask 0).

    A finder that scans many pieces (cages, known sums) skips those it found nothing in
    whose cells have not changed since (:meth:`pending`). The board compares contents,
    not a log of writes, so code that writes ``cand`` directly cannot make it wrong."""

    __slots__ = (
        "__weakref__",
        "all_mask",
        "bare",
        "cand",
        "clean",
        "explain",
        "house_view",
        "lay",
        "left",
        "n",
        "rules",
        "values",
    )

    def __init__(self, rules: Rules, values: list[int], cand: list[int]) -> None:
        self.rules = rules
        self.lay: Layout = layout(rules)
        self.n = rules.size
        self.all_mask = (1 << self.n) - 1
        self.values = values
        self.cand = cand
        self.explain = True  # False: steps carry no sentence (a solvability check's speed)
        self.bare = False  # True: steps carry only their placements and eliminations
        self.house_view: Any = None  # the classic finders' view (solver.logic.classic_on_houses)
        self.left = [sum(1 for c in h if not values[c]) for h in self.lay.houses]  # empty cells
        self.clean: dict[Any, Any] = {}  # per finder, what it need not look at again

    def copy(self) -> VBoard:
        board = VBoard(self.rules, self.values[:], self.cand[:])
        board.explain, board.bare = self.explain, self.bare
        return board

    @classmethod
    def from_grid(cls, rules: Rules, grid: Grid) -> VBoard | None:
        """The board with candidates from the houses and cages; None if the givens clash."""
        board = cls(rules, [0] * grid.shape.ncells, [(1 << rules.size) - 1] * grid.shape.ncells)
        for c, v in enumerate(grid.cells):
            if v and not board.place(c, v):
                return None
        return board

    def pending(self, key: Any, readers: tuple[int, ...]) -> Pending:
        """The pieces finder ``key`` must look at on this board: every one the first
        time, then those whose cells changed since it last looked, and those it has not
        yet found nothing in. ``readers``: per cell, the pieces that read it (bit i:
        piece i)."""
        state = self.clean.get(key)
        if state is None:
            state = Pending(self.values[:], self.cand[:], -1)
            self.clean[key] = state
            return state
        values, cand = state.values, state.cand
        if cand != self.cand or values != self.values:
            items = state.items
            now = zip(cand, self.cand, values, self.values, strict=True)
            for c, (a, b, x, y) in enumerate(now):
                if a != b or x != y:
                    items |= readers[c]
            state.items = items
            state.values, state.cand = self.values[:], self.cand[:]
        return state

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
        """A step whose sentence is rendered from ``params`` (:mod:`solver.logic.sentences`);
        on a :attr:`bare` board, its placements and eliminations alone (a level's search,
        which reads nothing else, spares the rest)."""
        elim = tuple(sorted(eliminations))
        if self.bare:
            return Step(technique, name, "", placements=tuple(placements), eliminations=elim)
        frozen = tuple((k, _frozen(v)) for k, v in params.items())
        sentence = ""
        if self.explain:
            sentence = (
                render(
                    technique,
                    dict(frozen),
                    size=self.n,
                    eliminations=elim,
                    regions=self.rules.irregular,
                )
                or ""
            )
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
            regions=self.rules.irregular,
        )


class Pending:
    """A finder's pieces still to look at on a board (bit i: piece i; see
    :meth:`VBoard.pending`), and the board as it last saw it. A finder walks them with
    :meth:`take` and calls :meth:`again` for a piece it finds a step in."""

    __slots__ = ("cand", "items", "values")

    def __init__(self, values: list[int], cand: list[int], items: int) -> None:
        self.values, self.cand, self.items = values, cand, items

    def take(self, count: int) -> Iterator[int]:
        """The pieces to look at, of ``count``, lowest first; each counts as looked at
        (nothing found) once taken."""
        items = self.items & ((1 << count) - 1)
        while items:  # lazily: a finder mostly stops at its first step
            low = items & -items
            items ^= low
            self.items &= ~low
            yield low.bit_length() - 1

    def again(self, i: int) -> None:
        """Piece ``i`` gave a step: look at it again next time."""
        self.items |= 1 << i


def readers_of(pieces: Iterable[Iterable[int]], ncells: int) -> tuple[int, ...]:
    """Per cell, the pieces (bit i: piece i) whose cells hold it."""
    out = [0] * ncells
    for i, cells in enumerate(pieces):
        for c in cells:
            out[c] |= 1 << i
    return tuple(out)


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
    loses the value. Pointing starts from a region or an extra house, claiming from a line.

    Positions are cell masks (:mod:`solver.logic.house_masks`), so a house holds them all
    when they miss nothing outside it."""
    lay, n = board.lay, board.n
    houses, ids, cell_houses = lay.houses, lay.unit_ids, lay.cell_houses
    width = CELL_BITS
    masks = house_masks(board.rules)
    where = value_cells(board.cand, n)
    starts = range(2 * n, len(houses)) if pointing else range(2 * n)
    # A value's steps depend on its cells alone: a value whose cells are as they were
    # when it gave none is skipped, and one that gives none now is remembered.
    clean = board.clean.setdefault((locked, pointing), {})
    live = []
    for value, spread in enumerate(where, start=1):
        if clean.get(value) != spread:
            if _locks(spread, starts, masks, cell_houses, width):
                live.append((value, spread))
            else:
                clean[value] = spread
    for h in starts:
        inside = masks[h]
        for value, spread in live:
            pos_mask = spread & inside
            if not pos_mask & (pos_mask - 1):
                continue  # fewer than two positions
            first = ((pos_mask & -pos_mask).bit_length() - 1) // width
            for other in cell_houses[first]:
                if other == h or pos_mask & ~masks[other]:
                    continue
                cut = spread & masks[other] & ~inside
                if cut:
                    pos = [c for c in houses[h] if pos_mask >> (c * width) & 1]
                    removed = [c for c in houses[other] if cut >> (c * width) & 1]
                    yield board.step(
                        "pointing" if pointing else "claiming",
                        "Pointing" if pointing else "Claiming",
                        {
                            "unit": ids[h],
                            "value": value,
                            "other_unit": ids[other],
                            "cells": pos,
                            "removed_cells": removed,
                        },
                        units=(h, other),
                        cells=pos,
                        eliminations=[(c, value) for c in removed],
                    )


def _locks(
    spread: int,
    starts: range,
    masks: tuple[int, ...],
    cell_houses: tuple[tuple[int, ...], ...],
    width: int,
) -> bool:
    """True when a value on the cells ``spread`` has a locked step from a house of
    ``starts`` (the test :func:`locked` makes before it writes one)."""
    for h in starts:
        inside = masks[h]
        pos_mask = spread & inside
        if not pos_mask & (pos_mask - 1):
            continue
        first = ((pos_mask & -pos_mask).bit_length() - 1) // width
        for other in cell_houses[first]:
            if other != h and not pos_mask & ~masks[other] and spread & masks[other] & ~inside:
                return True
    return False


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
    width = CELL_BITS
    masks = house_masks(board.rules)
    spread = value_cells(cand, board.n)
    for h in range(len(masks)):
        inside = masks[h]
        where = {}
        for value, cells_of in enumerate(spread, start=1):
            pos_mask = cells_of & inside
            if 2 <= pos_mask.bit_count() <= k:
                where[value] = pos_mask
        if len(where) < k:
            continue
        for vals in combinations(where, k):
            union = 0
            for v in vals:
                union |= where[v]
            if union.bit_count() != k:
                continue
            cells = indexes(union, width)
            m = sum(1 << (v - 1) for v in vals)
            elim = [(c, v) for c in cells for v in values_of(cand[c] & ~m)]
            if elim:
                yield board.step(
                    f"hidden_{('pair', 'triple', 'quad')[k - 2]}",
                    names[k],
                    {"unit": ids[h], "values": vals, "cells": cells},
                    units=(h,),
                    cells=cells,
                    eliminations=elim,
                )


def x_wings(board: VBoard, *, k: int) -> Iterator[Step]:
    """X-Wing (k=2) and Swordfish (k=3) on rows and columns, which every variant keeps."""
    n, cand, houses = board.n, board.cand, board.lay.houses
    slug, name = ("x_wing", "X-Wing") if k == 2 else ("swordfish", "Swordfish")
    width = CELL_BITS
    # a row's positions are bits i * width (column i), a column's bits r * n * width (row r)
    row_bits = first_bits(width, n)
    col_bits = first_bits(n * width, n)
    where = value_cells(board.cand, n)
    for base0, cover0, kind in ((0, n, "rows"), (n, 0, "columns")):
        step, line_shift, line_bits = (
            (width, n * width, row_bits) if kind == "rows" else (n * width, width, col_bits)
        )
        for v in range(1, n + 1):
            b = 1 << (v - 1)
            spread = where[v - 1]
            lines = {}
            for i in range(n):
                idx = (spread >> (i * line_shift)) & line_bits
                if 2 <= idx.bit_count() <= k:
                    lines[base0 + i] = idx
            if len(lines) < k:
                continue
            for base in combinations(lines, k):
                cover = 0
                for line in base:
                    cover |= lines[line]
                if cover.bit_count() != k:
                    continue
                covered = indexes(cover, step)
                removed = [
                    c
                    for i in covered
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
                            "cover_units": [cover0 + i for i in covered],
                            "removed_cells": removed,
                        },
                        units=(*base, *(cover0 + i for i in covered)),
                        cells=[c for line in base for c in houses[line] if cand[c] & b],
                        eliminations=[(c, v) for c in removed],
                    )
