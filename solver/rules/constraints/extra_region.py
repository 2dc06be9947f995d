"""Extra region: its cells hold different values (a region of N cells holds each once).

f-puzzles: ``"extraregion": [{"cells": ["R1C1", ...]}]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.rules.constraints.base import (
    Constraint,
    ConstraintError,
    all_pairs,
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


@dataclass(frozen=True, slots=True)
class ExtraRegion(Constraint):
    region: tuple[int, ...]
    kind = "extra_region"
    any_labels = True

    def moved(self, move: Move) -> ExtraRegion:
        return ExtraRegion(tuple(sorted(move.cells(self.region))))

    def complemented(self, rules: RulesView) -> ExtraRegion:
        return self

    def cells(self) -> tuple[int, ...]:
        return self.region

    def check(self, rules: RulesView) -> None:
        Constraint.check(self, rules)
        if len(self.region) > rules.size:
            raise ConstraintError(f"extra region: at most {rules.size} cells")

    def differ_pairs(self, rules: RulesView) -> Iterable[tuple[int, int]]:
        return all_pairs(self.region)

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        return [(a, b) for a, b in all_pairs(self.region) if values[a] and values[a] == values[b]]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "cells": list(self.region)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> ExtraRegion:
        return cls(cell_list(data, "cells", cls.kind, shape))

    @classmethod
    def read_fpuzzles(cls, data: Mapping[str, Any], n: int) -> list[Constraint]:
        return [
            cls(parse_refs(item.get("cells"), n, f"extraregion {i}"))
            for i, item in enumerate(entries(data, "extraregion", n), start=1)
        ]

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        append(out, "extraregion", {"cells": [cell_ref(n, c) for c in self.region]})
