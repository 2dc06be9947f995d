"""What the line constraints share: a run of cells read from JSON and from f-puzzles lines."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from solver.rules.constraints.base import (
    Constraint,
    append,
    cell_list,
    cell_ref,
    fpuzzles_lines,
)

if TYPE_CHECKING:
    from solver.grid import Shape
    from solver.rules.symmetry import Move


@dataclass(frozen=True, slots=True)
class Line(Constraint):
    """A constraint drawn as a line through ``line`` (in its order). ``order`` says what
    its order means: ``path`` (a thermometer's, from the bulb), ``ends`` (the same read
    from either end: whispers), ``none`` (a set of cells: renban)."""

    line: tuple[int, ...]
    fpuzzles_key: ClassVar[str] = ""
    least: ClassVar[int] = 2
    order: ClassVar[str] = "path"

    def cells(self) -> tuple[int, ...]:
        return self.line

    def normal(self, line: tuple[int, ...]) -> tuple[int, ...]:
        """``line`` in the one order that stands for every order meaning the same."""
        if self.order == "ends":
            return min(line, line[::-1])
        if self.order == "none":
            return tuple(sorted(line))
        return line

    def moved(self, move: Move) -> Line:
        return replace(self, line=self.normal(move.cells(self.line)))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "cells": list(self.line)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> Line:
        return cls(cell_list(data, "cells", cls.kind, shape, cls.least))

    @classmethod
    def read_fpuzzles(cls, data: Mapping[str, Any], n: int) -> list[Constraint]:
        return [cls(line) for line in fpuzzles_lines(data, cls.fpuzzles_key, n, cls.least)]

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        append(out, self.fpuzzles_key, {"lines": [[cell_ref(n, c) for c in self.line]]})
