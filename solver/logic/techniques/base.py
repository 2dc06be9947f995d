"""The candidate board every technique reads, and the Step a technique reports.

Glossary (see also :mod:`solver.grid`):
- a *board* holds the placed values (0 = empty) and, for every empty cell, its *candidate
  mask* (bit v-1 set when value v may still go there); a placed cell has mask 0;
- a *bit* is ``1 << (v - 1)`` for value v;
- a *position* of value v in a unit is an empty cell of the unit whose mask holds v's bit;
- a *conjugate pair* (strong link) for v: a unit where v has exactly two positions, so one
  of the two cells is v;
- a *step* is one deduction: the technique, the unit(s) and cells of its pattern, the
  placements and eliminations it makes, and one sentence a player understands; the
  sentence is rendered from the step's *parameters* (:mod:`solver.logic.sentences`), so the site
  can render the same step in another language.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from solver.grid import Grid, Shape, Tables, cell_name, symbol, tables, unit_name
from solver.logic.sentences import render as render_sentence
from solver.logic.sentences import unit_label

Pair = tuple[int, int]  # (cell, value)
Params = tuple[tuple[str, Any], ...]  # (name, int or tuple of ints...), see solver.logic.sentences


@dataclass(frozen=True, slots=True)
class Step:
    """One deduction, with the sentence that explains it to a player and the parameters
    the sentence was rendered from."""

    technique: str
    name: str
    sentence: str
    units: tuple[int, ...] = ()
    cells: tuple[int, ...] = ()
    placements: tuple[Pair, ...] = ()
    eliminations: tuple[Pair, ...] = ()
    shape: Shape = field(default=Shape(3, 3), repr=False)
    params: Params = ()
    regions: bool = False  # the boxes are irregular regions (Jigsaw): named so in sentences

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: cells as ints plus their names (``r5c4``), units with names."""
        shape = self.shape

        def pair(cell: int, value: int) -> dict[str, Any]:
            return {"cell": cell, "cell_name": cell_name(shape, cell), "value": value}

        return {
            "technique": self.technique,
            "name": self.name,
            "sentence": self.sentence,
            "units": list(self.units),
            "unit_names": [
                unit_label(shape.size, u, regions=True) if self.regions else unit_name(shape, u)
                for u in self.units
            ],
            "cells": list(self.cells),
            "cell_names": [cell_name(shape, c) for c in self.cells],
            "placements": [pair(c, v) for c, v in self.placements],
            "eliminations": [pair(c, v) for c, v in self.eliminations],
            "size": shape.size,
            "params": {key: _json(value) for key, value in self.params},
            **({"regions": True} if self.regions else {}),
        }


def _json(value: Any) -> Any:
    return [_json(v) for v in value] if isinstance(value, tuple | list) else value


def values_of(mask: int) -> list[int]:
    """The values whose bits are set in ``mask``, smallest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def unit_spread(cand: list[int], cells: Iterable[int]) -> tuple[int, int]:
    """(the values with a candidate in ``cells``, those with exactly one): the scan behind
    hidden singles, wherever candidates are propagated."""
    once = twice = 0
    for c in cells:
        m = cand[c]
        twice |= once & m
        once |= m
    return once, once & ~twice


def mask_of(values: Iterable[int]) -> int:
    """The mask with the bits of ``values`` set."""
    m = 0
    for v in values:
        m |= 1 << (v - 1)
    return m


@cache
def _places(shape: Shape) -> tuple[tuple[int, int, int, int, int, int, int], ...]:
    """Per cell: the cell, its row, column and box units, and its bit in each of them (bit
    i for the unit's i-th cell), as :meth:`Board.positions` marks them."""
    t = tables(shape)
    return tuple(
        (c, r, k, x, 1 << t.units[r].index(c), 1 << t.units[k].index(c), 1 << t.units[x].index(c))
        for c, (r, k, x) in enumerate(t.cell_units)
    )


class Board:
    """Placed values and candidate masks, as flat lists indexed by cell."""

    __slots__ = ("_pos", "_pos_version", "cand", "shape", "t", "values", "version")

    def __init__(self, shape: Shape, values: list[int], cand: list[int]) -> None:
        self.shape = shape
        self.t: Tables = tables(shape)
        self.values = values
        self.cand = cand
        self.version = 0  # bumped by every change made through the methods below
        self._pos: list[list[int]] = []
        self._pos_version = -1

    @classmethod
    def from_values(cls, shape: Shape, values: Iterable[int]) -> Board | None:
        """The board with candidates computed from the placed values; None if values clash."""
        t = tables(shape)
        vals = list(values)
        unit_masks = [0] * len(t.units)
        for u, cells in enumerate(t.units):
            m = 0
            for c in cells:
                v = vals[c]
                if v:
                    b = 1 << (v - 1)
                    if m & b:
                        return None
                    m |= b
            unit_masks[u] = m
        full = t.all_mask
        cand = [0] * t.ncells
        for c, (r, k, x) in enumerate(t.cell_units):
            if not vals[c]:
                cand[c] = full & ~(unit_masks[r] | unit_masks[k] | unit_masks[x])
        return cls(shape, vals, cand)

    @classmethod
    def from_grid(cls, grid: Grid) -> Board | None:
        return cls.from_values(grid.shape, grid.cells)

    def copy(self) -> Board:
        return Board(self.shape, self.values[:], self.cand[:])

    def grid(self) -> Grid:
        return Grid(self.shape, tuple(self.values))

    def place(self, cell: int, value: int) -> bool:
        """Place ``value`` in ``cell``; False (and nothing done) if it is not a candidate."""
        b = 1 << (value - 1)
        cand = self.cand
        if self.values[cell] or not cand[cell] & b:
            return False
        self.values[cell] = value
        cand[cell] = 0
        keep = ~b
        for p in self.t.peers[cell]:
            cand[p] &= keep
        self.version += 1
        return True

    def restrict(self, cell: int, mask: int) -> None:
        """Keep only the candidates of ``cell`` that are in ``mask``."""
        self.cand[cell] &= mask
        self.version += 1

    def apply(self, step: Step) -> bool:
        """Apply a step's placements and eliminations; False if a placement no longer fits."""
        for cell, value in step.placements:
            if not self.place(cell, value):
                return False
        cand = self.cand
        for cell, value in step.eliminations:
            cand[cell] &= ~(1 << (value - 1))
        self.version += 1
        return True

    def is_solved(self) -> bool:
        return all(self.values)

    def is_broken(self) -> bool:
        """True when an empty cell has no candidate or a unit has no place for a value."""
        cand, values = self.cand, self.values
        if any(not m and not v for m, v in zip(cand, values, strict=True)):
            return True
        full = self.t.all_mask
        for cells in self.t.units:
            m = 0
            for c in cells:
                v = values[c]
                m |= (1 << (v - 1)) if v else cand[c]
            if m != full:
                return True
        return False

    def positions(self) -> list[list[int]]:
        """``pos[unit][v - 1]``: the positions of v in the unit, as a bitset of unit indexes.

        Bit i stands for ``t.units[unit][i]``; computed once per board version and shared by
        every technique that looks at where values fit.
        """
        if self._pos_version != self.version:
            cand, n = self.cand, self.t.n
            pos = [[0] * n for _ in self.t.units]
            # one pass over the cells, each value of a cell marked in its three units
            for c, r, k, x, br, bk, bx in _places(self.shape):
                m = cand[c]
                if not m:
                    continue
                pr, pk, px = pos[r], pos[k], pos[x]
                while m:
                    low = m & -m
                    m ^= low
                    i = low.bit_length() - 1
                    pr[i] |= br
                    pk[i] |= bk
                    px[i] |= bx
            self._pos = pos
            self._pos_version = self.version
        return self._pos

    def empty_cells(self) -> list[int]:
        values = self.values
        return [c for c in range(self.t.ncells) if not values[c]]

    # Naming helpers for sentences -----------------------------------------------------

    def cell(self, cell: int) -> str:
        return cell_name(self.shape, cell)

    def cells(self, cells: Iterable[int]) -> str:
        return join_words([cell_name(self.shape, c) for c in cells])

    def unit(self, unit: int) -> str:
        return unit_name(self.shape, unit)

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
        """A step; its sentence is rendered from ``params`` unless one is given."""
        elim = tuple(sorted(eliminations))
        frozen: Params = tuple((k, _frozen(v)) for k, v in (params or {}).items())
        if sentence is None:
            sentence = render_sentence(
                technique, dict(frozen), size=self.shape.size, eliminations=elim
            )
            if sentence is None:
                raise ValueError(f"no sentence for {technique} {params}")
        return Step(
            technique=technique,
            name=name,
            sentence=sentence,
            units=tuple(units),
            cells=tuple(cells),
            placements=tuple(placements),
            eliminations=elim,
            shape=self.shape,
            params=frozen,
        )

    def describe_eliminations(self, eliminations: Iterable[Pair]) -> str:
        """``5 from r1c1 and r1c2, and 7 from r3c3``: eliminations grouped by value."""
        by_value: dict[int, list[int]] = {}
        for c, v in sorted(eliminations, key=lambda p: (p[1], p[0])):
            by_value.setdefault(v, []).append(c)
        parts = [f"{symbol(v)} from {self.cells(cs)}" for v, cs in by_value.items()]
        return join_words(parts)


def _frozen(value: Any) -> Any:
    """Lists and tuples as (nested) tuples, so a step stays hashable."""
    return tuple(_frozen(v) for v in value) if isinstance(value, tuple | list) else value


def join_words(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def digits(values: Iterable[int]) -> str:
    """``2 and 7``: values as symbols joined for a sentence."""
    return join_words([symbol(v) for v in values])


def bit_indexes(bits: int) -> list[int]:
    """The indexes of the set bits, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def common_peers(board: Board, cells: Iterable[int], bit: int) -> list[int]:
    """The cells that see every cell in ``cells`` and still hold ``bit``, sorted."""
    peer_sets = board.t.peer_sets
    it: Iterator[int] = iter(cells)
    common = set(peer_sets[next(it)])
    for c in it:
        common &= peer_sets[c]
    cand = board.cand
    return sorted(c for c in common if cand[c] & bit)


def conjugate_pairs(
    board: Board, bit: int, units: Iterable[int] | None = None
) -> list[tuple[int, int, int]]:
    """(unit, cell, cell) for each unit (of ``units``, else all) where ``bit`` fits in two cells."""
    pos, all_units = board.positions(), board.t.units
    i = bit.bit_length() - 1
    out = []
    for u in range(len(all_units)) if units is None else units:
        s = pos[u][i]
        if s.bit_count() == 2:
            low = s & -s
            cells = all_units[u]
            out.append((u, cells[low.bit_length() - 1], cells[(s ^ low).bit_length() - 1]))
    return out
