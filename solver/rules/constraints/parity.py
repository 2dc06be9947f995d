"""Odd and even cells: a circle holds an odd value, a square an even one.

f-puzzles: ``"odd": [{"cell": "R1C1"}]``, ``"even": [{"cell": "R1C1"}]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from solver.rules.constraints.base import (
    Constraint,
    ConstraintError,
    Masks,
    Propagator,
    append,
    cell_ref,
    entries,
    is_int,
    parse_ref,
)

if TYPE_CHECKING:
    from solver.grid import Shape
    from solver.rules.constraints.base import RulesView
    from solver.rules.symmetry import Move


class Only(Propagator):
    """One cell keeps the values of ``allowed``."""

    __slots__ = ("allowed",)

    def __init__(self, cell: int, allowed: int) -> None:
        super().__init__((cell,))
        self.allowed = allowed

    def prune(self, masks: Masks) -> Masks | None:
        m = masks[0] & self.allowed
        return (m,) if m else None


@dataclass(frozen=True, slots=True)
class Parity(Constraint):
    cell: int
    remainder: ClassVar[int] = 1

    def cells(self) -> tuple[int, ...]:
        return (self.cell,)

    def moved(self, move: Move) -> Parity:
        return type(self)(move.cell(self.cell))

    def complemented(self, rules: RulesView) -> Parity:
        """N + 1 - d has d's parity when N is odd, the other one when N is even."""
        if rules.size % 2:
            return self
        return (Even if self.remainder else Odd)(self.cell)

    def propagators(self, rules: RulesView) -> list[Propagator]:
        allowed = sum(1 << (v - 1) for v in range(1, rules.size + 1) if v % 2 == self.remainder)
        return [Only(self.cell, allowed)]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        v = values[self.cell]
        return [(self.cell,)] if v and v % 2 != self.remainder else []

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "cell": self.cell}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> Constraint:
        cell = data.get("cell")
        if not is_int(cell) or not 0 <= cell < shape.ncells:
            raise ConstraintError(f"{cls.kind}: cell must be a cell index")
        return cls(cell)

    @classmethod
    def read_fpuzzles(cls, data: Mapping[str, Any], n: int) -> list[Constraint]:
        return [
            cls(parse_ref(item.get("cell"), n, f"{cls.kind} {i}"))
            for i, item in enumerate(entries(data, cls.kind, n), start=1)
        ]

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        append(out, self.kind, {"cell": cell_ref(n, self.cell)})


@dataclass(frozen=True, slots=True)
class Odd(Parity):
    kind = "odd"
    remainder = 1


@dataclass(frozen=True, slots=True)
class Even(Parity):
    kind = "even"
    remainder = 0
