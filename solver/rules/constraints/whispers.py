"""German whispers: neighbours on the line differ by at least ``difference`` (5 on 9x9;
half the side, rounded up, by default on other sizes).

f-puzzles (as SudokuPad and the f-puzzles add-on write it): ``"whispers": [{"lines":
[[...]], "value": 5}]``, the value optional.
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
from solver.rules.constraints.lines import Line

if TYPE_CHECKING:
    from solver.grid import Shape
    from solver.rules.constraints.base import RulesView
    from solver.rules.symmetry import Move


def default_difference(n: int) -> int:
    return (n + 1) // 2


@dataclass(frozen=True, slots=True)
class Whispers(Line):
    difference: int | None = None  # None: the size's default
    kind = "whispers"
    fpuzzles_key = "whispers"
    order = "ends"

    def gap(self, n: int) -> int:
        return self.difference if self.difference is not None else default_difference(n)

    def moved(self, move: Move) -> Whispers:
        """Also the size's default difference written as None, as it reads the same."""
        d = None if self.difference == default_difference(move.n) else self.difference
        return Whispers(self.normal(move.cells(self.line)), d)

    def complemented(self, rules: RulesView) -> Whispers:
        return self  # |x - y| is |(N + 1 - x) - (N + 1 - y)|

    def check(self, rules: RulesView) -> None:
        Line.check(self, rules)
        if self.difference is not None and not 1 <= self.difference < rules.size:
            raise ConstraintError(f"whispers: difference must be 1 to {rules.size - 1}")

    def propagators(self, rules: RulesView) -> list[Propagator]:
        d = self.gap(rules.size)
        return [
            pair(a, b, rules.size, lambda x, y: abs(x - y) >= d)
            for a, b in zip(self.line, self.line[1:], strict=False)
        ]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        d = self.gap(rules.size)
        return [
            (a, b)
            for a, b in zip(self.line, self.line[1:], strict=False)
            if values[a] and values[b] and abs(values[a] - values[b]) < d
        ]

    def to_dict(self) -> dict[str, Any]:
        out = Line.to_dict(self)
        if self.difference is not None:
            out["difference"] = self.difference
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> Whispers:
        d = data.get("difference")
        if d is not None and not is_int(d):
            raise ConstraintError("whispers: difference must be a whole number")
        return cls(cell_list(data, "cells", cls.kind, shape, 2), d)

    @classmethod
    def read_fpuzzles(cls, data: Mapping[str, Any], n: int) -> list[Constraint]:
        out: list[Constraint] = []
        for i, item in enumerate(entries(data, "whispers", n), start=1):
            where = f"whispers {i}"
            value = item.get("value")
            d = None if value in (None, "") else fpuzzles_number(value, where)
            lines = item.get("lines")
            if not isinstance(lines, list):
                raise ConstraintError(f"{where} must have lines, lists of cells like R6C3")
            out += [cls(parse_refs(line, n, where, 2), d) for line in lines]
        return out

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        item: dict[str, Any] = {"lines": [[cell_ref(n, c) for c in self.line]]}
        if self.difference is not None:
            item["value"] = str(self.difference)
        append(out, "whispers", item)
