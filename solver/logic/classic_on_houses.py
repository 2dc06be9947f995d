"""The classic engine's harder techniques on any :class:`~solver.rules.ruleset.Rules`.

The classic finders (:mod:`solver.logic.techniques`) read a board's tables: ``t.units`` (where
strong links and fish live), ``t.peers`` and ``t.peer_sets`` (weak links: cells that may
not share a value), ``t.cell_units`` (a cell's row, column and box first) and
``t.box_of``. :class:`HouseBoard` shows a :class:`~solver.logic.houses.VBoard` to them
with tables built from the variant's layout, so the same code runs unchanged:

- the *units* are the houses: rows, columns, regions (a Jigsaw region where the classic
  has a box), then the diagonals and windows; a cage is not among them, since it need not
  hold every value, so no strong link, fish or hidden subset comes from a cage;
- the *peers* are house mates and cage mates: two cells of a cage cannot share a value,
  which is all a weak link or "sees" asks.

Each finder is then sound under any rules: its strong links say "one of these two cells
holds v" only of a house, and its weak links say "not both" only of cells that truly
exclude each other. The finders that place a pattern in a box (2-String Kite, Finned
Fish, Empty Rectangle, Sue de Coq) use the region instead; the only one that assumed the
boxes' geometry, finned fish, now checks that its fins share the region.

A step's unit parameters (``unit``, ``box_unit``, ``base_units``, ...) are house indexes
here; :meth:`HouseBoard.step` turns them into unit numbers (:attr:`Layout.unit_ids`), as
:meth:`VBoard.step` does for the step's ``units``.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from solver.grid import Shape
from solver.logic.houses import VBoard
from solver.logic.techniques.base import Board, Pair, Step
from solver.rules.ruleset import Rules, layout

ClassicFinder = Callable[[Board], Iterator[Step]]
VariantFinder = Callable[[VBoard], Iterator[Step]]


@dataclass(frozen=True, slots=True, eq=False)  # eq=False: hashed by identity, as caches key it
class HouseTables:
    """The fields of :class:`solver.grid.Tables` the classic finders read, from a layout."""

    shape: Shape
    n: int
    ncells: int
    all_mask: int
    units: tuple[tuple[int, ...], ...]  # the houses
    cell_units: tuple[tuple[int, ...], ...]  # per cell: row, column, region, extra houses
    box_of: tuple[int, ...]  # per cell: its region number
    peers: tuple[tuple[int, ...], ...]  # house and cage mates
    peer_sets: tuple[frozenset[int], ...]
    places: tuple[tuple[tuple[int, int], ...], ...]  # per cell: (house, its bit there)


@lru_cache(maxsize=256)  # bounded: the generators make new rules for every puzzle
def house_tables(rules: Rules) -> HouseTables:
    """The tables of ``rules``; cached, so every board of the same rules shares them."""
    lay = layout(rules)
    n = rules.size
    places = tuple(
        tuple((h, 1 << lay.houses[h].index(c)) for h in lay.cell_houses[c])
        for c in range(rules.shape.ncells)
    )
    return HouseTables(
        shape=rules.shape,
        n=n,
        ncells=rules.shape.ncells,
        all_mask=(1 << n) - 1,
        units=lay.houses,
        cell_units=lay.cell_houses,
        box_of=rules.regions,
        peers=lay.peers,
        peer_sets=tuple(frozenset(p) for p in lay.peers),
        places=places,
    )


class HouseBoard:
    """A :class:`VBoard` as the classic finders see a board: the same candidate list, the
    houses as units. One per VBoard (:func:`house_board`); its positions are computed again
    only when the candidates changed, so the finders of one pass share them."""

    __slots__ = ("_pos", "_pos_of", "board", "cand", "shape", "t", "values")

    def __init__(self, board: VBoard) -> None:
        # A weak reference: the board holds its view, and a cycle would wait for the
        # collector's sweep where a generator grades hundreds of boards a puzzle.
        self.board = cast(VBoard, weakref.proxy(board))
        self.cand = board.cand
        self.values = board.values
        self.shape = board.rules.shape
        self.t = house_tables(board.rules)
        self._pos: list[list[int]] = []
        self._pos_of: list[int] | None = None  # the candidates they were computed from

    def positions(self) -> list[list[int]]:
        """``pos[house][v - 1]``: the positions of v in the house, bit i for its i-th cell
        (as :meth:`solver.logic.techniques.base.Board.positions`)."""
        if self._pos_of != self.cand:
            cand, n = self.cand, self.t.n
            self._pos_of = cand[:]
            pos = [[0] * n for _ in self.t.units]
            for c, places in enumerate(self.t.places):
                m = cand[c]
                while m:
                    low = m & -m
                    m ^= low
                    i = low.bit_length() - 1
                    for h, bit in places:
                        pos[h][i] |= bit
            self._pos = pos
        return self._pos

    def step(
        self,
        technique: str,
        name: str,
        sentence: str | None = None,
        *,
        params: dict[str, Any] | None = None,
        units: Iterable[int] = (),
        cells: Iterable[int] = (),
        placements: Iterable[Pair] = (),
        eliminations: Iterable[Pair] = (),
    ) -> Step:
        """The classic's :meth:`Board.step`, with house indexes named as unit numbers."""
        ids = self.board.lay.unit_ids
        named = {}
        for key, value in (params or {}).items():
            if key == "unit" or key.endswith("_unit"):
                value = ids[value]
            elif key == "units" or key.endswith("_units"):
                value = [ids[h] for h in value]
            named[key] = value
        return self.board.step(
            technique,
            name,
            named,
            units=units,
            cells=cells,
            placements=placements,
            eliminations=eliminations,
        )


def house_board(board: VBoard) -> HouseBoard:
    """The board's :class:`HouseBoard`, made on first use."""
    view = board.house_view
    if view is None or view.cand is not board.cand:
        view = board.house_view = HouseBoard(board)
    return cast(HouseBoard, view)


def on_houses(finder: ClassicFinder) -> VariantFinder:
    """``finder`` run on a VBoard's houses and peers (see the module's docstring)."""

    def find(board: VBoard) -> Iterator[Step]:
        return finder(cast(Board, house_board(board)))

    find.__name__ = getattr(finder, "__name__", "find")
    find.__doc__ = finder.__doc__
    return find
