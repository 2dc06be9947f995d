"""XV: an X between two orthogonal neighbours says they add up to 10, a V to 5. The
negative constraint (:class:`XVNegative`): every X and V is given, so unmarked
neighbours add up to neither.

f-puzzles: ``"xv": [{"cells": ["R1C1", "R1C2"], "value": "X"}]``; ``"negative": ["xv"]``.
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
    pair,
    parse_refs,
)
from solver.rules.constraints.dots import NegativeDots, check_neighbours

if TYPE_CHECKING:
    from solver.grid import Shape
    from solver.rules.constraints.base import RulesView
    from solver.rules.symmetry import Move

LETTERS = {"X": 10, "V": 5}


@dataclass(frozen=True, slots=True)
class XV(Constraint):
    pair: tuple[int, int]
    total: int
    kind = "xv"

    def cells(self) -> tuple[int, ...]:
        return self.pair

    def check(self, rules: RulesView) -> None:
        Constraint.check(self, rules)
        check_neighbours(self.kind, *self.pair, rules.size)
        if self.total not in LETTERS.values():
            raise ConstraintError("xv: the sum is 10 (X) or 5 (V)")

    def moved(self, move: Move) -> XV:
        a, b = sorted(move.cells(self.pair))
        return XV((a, b), self.total)

    def complemented(self, rules: RulesView) -> XV | None:
        """Two values summing to s complemented sum to 2(N + 1) - s: an X on 9x9 stays."""
        total = 2 * (rules.size + 1) - self.total
        return XV(self.pair, total) if total in LETTERS.values() else None

    def propagators(self, rules: RulesView) -> list[Propagator]:
        return [pair(*self.pair, rules.size, lambda x, y: x + y == self.total)]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        a, b = self.pair
        if values[a] and values[b] and values[a] + values[b] != self.total:
            return [self.pair]
        return []

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "cells": list(self.pair), "sum": self.total}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> XV:
        cells = cell_list(data, "cells", cls.kind, shape, 2)
        total = data.get("sum")
        if len(cells) != 2 or total not in LETTERS.values():
            raise ConstraintError("xv: two cells and a sum of 10 or 5")
        return cls((cells[0], cells[1]), int(total))  # type: ignore[arg-type]

    @classmethod
    def read_fpuzzles(cls, data: Mapping[str, Any], n: int) -> list[Constraint]:
        out: list[Constraint] = []
        for i, item in enumerate(entries(data, "xv", n), start=1):
            where = f"xv {i}"
            cells = parse_refs(item.get("cells"), n, where, 2)
            letter = str(item.get("value", "")).strip().upper()
            if len(cells) != 2 or letter not in LETTERS:
                raise ConstraintError(f"{where} must join two cells with the value X or V")
            out.append(cls((cells[0], cells[1]), LETTERS[letter]))
        return out

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        letter = "X" if self.total == 10 else "V"
        append(out, "xv", {"cells": [cell_ref(n, c) for c in self.pair], "value": letter})


@dataclass(frozen=True, slots=True)
class XVNegative(NegativeDots):
    """Every X and V is given: unmarked neighbours add up to neither 5 nor 10."""

    kind = "xv_negative"
    negative_key = "xv"

    @staticmethod
    def marked(con: object) -> bool:
        return isinstance(con, XV)

    @staticmethod
    def forbidden(x: int, y: int) -> bool:
        return x + y in (5, 10)
