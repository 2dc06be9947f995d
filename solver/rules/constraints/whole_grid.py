"""What the rules over the whole grid share: no fields, a flag in f-puzzles."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from solver.rules.constraints.base import Constraint, ConstraintError

if TYPE_CHECKING:
    from solver.grid import Shape
    from solver.rules.constraints.base import RulesView
    from solver.rules.symmetry import Move


def moves(n: int, steps: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Every pair of cells one of ``steps`` apart, the smaller cell first."""
    out = set()
    for c in range(n * n):
        r, k = divmod(c, n)
        for dr, dk in steps:
            rr, kk = r + dr, k + dk
            if 0 <= rr < n and 0 <= kk < n:
                d = rr * n + kk
                out.add((min(c, d), max(c, d)))
    return sorted(out)


@dataclass(frozen=True, slots=True)
class WholeGrid(Constraint):
    fpuzzles_key: ClassVar[str] = ""

    def moved(self, move: Move) -> WholeGrid:
        return self  # its rule reads the same on every symmetry of the square

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> Constraint:
        return cls()

    @classmethod
    def read_fpuzzles(cls, data: Mapping[str, Any], n: int) -> list[Constraint]:
        flag = data.get(cls.fpuzzles_key, False)
        if not isinstance(flag, bool):
            raise ConstraintError(f"{cls.fpuzzles_key} must be true or false")
        return [cls()] if flag else []

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        out[self.fpuzzles_key] = True


@dataclass(frozen=True, slots=True)
class Apart(WholeGrid):
    """Cells a given move apart hold different values."""

    steps: ClassVar[tuple[tuple[int, int], ...]] = ()
    any_labels = True

    def complemented(self, rules: RulesView) -> Apart:
        return self

    def differ_pairs(self, rules: RulesView) -> Iterable[tuple[int, int]]:
        return moves(rules.size, self.steps)

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        return [(a, b) for a, b in self.differ_pairs(rules) if values[a] and values[a] == values[b]]
