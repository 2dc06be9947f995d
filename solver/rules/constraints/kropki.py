"""Kropki dots between two orthogonal neighbours: a white dot, values ``value`` apart
(1: consecutive); a black dot, one value ``value`` times the other (2: double).
The negative constraint for black dots (:class:`BlackDotsNegative`): every black dot is
given, so no unmarked neighbours are in ratio 1:2. (For white dots it is
:class:`~solver.rules.constraints.nonconsecutive.NonConsecutive`.)

f-puzzles: ``"difference": [{"cells": ["R1C1", "R1C2"], "value": "1"}]`` (white),
``"ratio": [...]`` (black), the value optional; ``"negative": ["ratio"]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.rules.constraints.base import (
    Constraint,
    ConstraintError,
    Propagator,
    append,
    cell_list,
    cell_ref,
    entries,
    fpuzzles_number,
    is_int,
    pair,
    parse_refs,
)
from solver.rules.constraints.dots import NegativeDots, check_neighbours

if TYPE_CHECKING:
    from solver.grid import Shape
    from solver.rules.constraints.base import RulesView
    from solver.rules.symmetry import Move

COLOURS = {"white": ("difference", 1), "black": ("ratio", 2)}


def related(colour: str, value: int, x: int, y: int) -> bool:
    if colour == "white":
        return abs(x - y) == value
    return x == value * y or y == value * x


@dataclass(frozen=True, slots=True)
class Kropki(Constraint):
    colour: str
    pair: tuple[int, int]
    value: int
    kind = "kropki"

    def cells(self) -> tuple[int, ...]:
        return self.pair

    def check(self, rules: RulesView) -> None:
        Constraint.check(self, rules)
        if self.colour not in COLOURS:
            raise ConstraintError("kropki: colour must be white or black")
        check_neighbours(self.kind, *self.pair, rules.size)
        if not 1 <= self.value < rules.size:
            raise ConstraintError(f"kropki: value must be 1 to {rules.size - 1}")

    def moved(self, move: Move) -> Kropki:
        a, b = sorted(move.cells(self.pair))
        return Kropki(self.colour, (a, b), self.value)

    def complemented(self, rules: RulesView) -> Kropki | None:
        """A white dot's difference stays; a black dot's ratio does not."""
        return self if self.colour == "white" else None

    def holds(self, x: int, y: int) -> bool:
        return related(self.colour, self.value, x, y)

    def propagators(self, rules: RulesView) -> list[Propagator]:
        return [pair(*self.pair, rules.size, self.holds)]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        a, b = self.pair
        if values[a] and values[b] and not self.holds(values[a], values[b]):
            return [self.pair]
        return []

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "colour": self.colour,
            "cells": list(self.pair),
            "value": self.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> Kropki:
        colour = data.get("colour")
        if colour not in COLOURS:
            raise ConstraintError("kropki: colour must be white or black")
        cells = cell_list(data, "cells", cls.kind, shape, 2)
        value = data.get("value", COLOURS[colour][1])
        if not is_int(value) or len(cells) != 2:
            raise ConstraintError("kropki: two cells and a whole value")
        return cls(colour, (cells[0], cells[1]), value)

    @classmethod
    def read_fpuzzles(cls, data: Mapping[str, Any], n: int) -> list[Constraint]:
        out: list[Constraint] = []
        for colour, (key, default) in COLOURS.items():
            for i, item in enumerate(entries(data, key, n), start=1):
                where = f"{key} {i}"
                cells = parse_refs(item.get("cells"), n, where, 2)
                if len(cells) != 2:
                    raise ConstraintError(f"{where} must join two cells")
                value = fpuzzles_number(item.get("value"), where, default)
                out.append(cls(colour, (cells[0], cells[1]), value))
        return out

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        key, default = COLOURS[self.colour]
        item: dict[str, Any] = {"cells": [cell_ref(n, c) for c in self.pair]}
        if self.value != default:
            item["value"] = str(self.value)
        append(out, key, item)


@dataclass(frozen=True, slots=True)
class BlackDotsNegative(NegativeDots):
    """Every black dot is given: unmarked neighbours are not in ratio 1:2."""

    kind = "black_dots_negative"
    negative_key = "ratio"

    @staticmethod
    def marked(con: object) -> bool:
        return isinstance(con, Kropki) and con.colour == "black"

    @staticmethod
    def forbidden(x: int, y: int) -> bool:
        return related("black", 2, x, y)
