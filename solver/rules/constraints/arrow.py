"""Arrow: the values on the arrow's line add up to the number in its circle.

A circle of two or three cells (a pill) reads as a number, its cells in the order given
(the first is the leading digit). The line's values may repeat where no house forbids it.

f-puzzles: ``"arrow": [{"cells": ["R1C1"], "lines": [["R1C1", "R1C2", "R1C3"]]}]``:
``cells`` is the circle, each line starts in the circle; an entry with several lines is
several arrows from one circle, each adding up to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.rules.constraints.base import (
    Constraint,
    ConstraintError,
    LinearSum,
    Propagator,
    append,
    cell_list,
    cell_ref,
    entries,
    parse_refs,
)

if TYPE_CHECKING:
    from solver.grid import Shape
    from solver.rules.constraints.base import RulesView
    from solver.rules.symmetry import Move

MAX_CIRCLE = 3


@dataclass(frozen=True, slots=True)
class Arrow(Constraint):
    circle: tuple[int, ...]
    line: tuple[int, ...]
    kind = "arrow"

    def cells(self) -> tuple[int, ...]:
        return self.circle + self.line

    def check(self, rules: RulesView) -> None:
        Constraint.check(self, rules)
        if not 1 <= len(self.circle) <= MAX_CIRCLE or not self.line:
            raise ConstraintError(f"arrow: a circle of 1 to {MAX_CIRCLE} cells and a line")
        if set(self.circle) & set(self.line):
            raise ConstraintError("arrow: its line runs through its circle")

    def moved(self, move: Move) -> Arrow:
        """The circle's cells keep their order (it reads as a number); the line's sum
        does not depend on its order."""
        return Arrow(move.cells(self.circle), tuple(sorted(move.cells(self.line))))

    def weights(self) -> list[int]:
        k = len(self.circle)
        return [1] * len(self.line) + [-(10 ** (k - 1 - i)) for i in range(k)]

    def propagators(self, rules: RulesView) -> list[Propagator]:
        return [LinearSum(self.line + self.circle, self.weights(), (0,), rules.size)]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        if not all(values[c] for c in self.circle):
            return []
        number = 0
        for c in self.circle:
            number = number * 10 + values[c]
        filled = [values[c] for c in self.line if values[c]]
        least = sum(filled) + len(self.line) - len(filled)
        if least > number or (len(filled) == len(self.line) and sum(filled) != number):
            return [tuple(c for c in self.cells() if values[c])]
        return []

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "circle": list(self.circle), "line": list(self.line)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> Arrow:
        return cls(
            cell_list(data, "circle", cls.kind, shape), cell_list(data, "line", cls.kind, shape)
        )

    @classmethod
    def read_fpuzzles(cls, data: Mapping[str, Any], n: int) -> list[Constraint]:
        out: list[Constraint] = []
        for i, item in enumerate(entries(data, "arrow", n), start=1):
            where = f"arrow {i}"
            circle = parse_refs(item.get("cells"), n, where)
            lines = item.get("lines")
            if not isinstance(lines, list) or not lines:
                raise ConstraintError(f"{where} must have lines, lists of cells like R6C3")
            for raw in lines:
                line = tuple(c for c in parse_refs(raw, n, where) if c not in circle)
                if line:
                    out.append(cls(circle, line))
        return out

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        start = min(self.circle, key=lambda c: _distance(n, c, self.line[0]))
        line = [cell_ref(n, c) for c in (start, *self.line)]
        append(out, "arrow", {"cells": [cell_ref(n, c) for c in self.circle], "lines": [line]})


def _distance(n: int, a: int, b: int) -> int:
    return max(abs(a // n - b // n), abs(a % n - b % n))
