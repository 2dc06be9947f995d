"""Renban line: the line's values are different and consecutive, in any order.

f-puzzles (as SudokuPad and the f-puzzles add-on write it): ``"renban": [{"lines": [[...]]}]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.rules.constraints.base import ConstraintError, Masks, Propagator, all_pairs
from solver.rules.constraints.lines import Line

if TYPE_CHECKING:
    from solver.rules.constraints.base import RulesView


class RunOfValues(Propagator):
    """Keeps the values of the runs (k consecutive values) the cells can still hold."""

    __slots__ = ("runs",)

    def __init__(self, cells: Sequence[int], n: int) -> None:
        super().__init__(cells)
        k = len(cells)
        self.runs = [((1 << k) - 1) << s for s in range(n - k + 1)]

    def prune(self, masks: Masks) -> Masks | None:
        allowed = 0
        for run in self.runs:
            if all(m & run for m in masks):
                covered = 0
                for m in masks:
                    covered |= m & run
                if covered == run:
                    allowed |= run
        if not allowed:
            return None
        return tuple(m & allowed for m in masks)


@dataclass(frozen=True, slots=True)
class Renban(Line):
    kind = "renban"
    fpuzzles_key = "renban"
    least = 1
    order = "none"

    def complemented(self, rules: RulesView) -> Renban:
        return self  # a run of values complemented is a run

    def check(self, rules: RulesView) -> None:
        Line.check(self, rules)
        if len(self.line) > rules.size:
            raise ConstraintError(f"renban: at most {rules.size} cells")

    def differ_pairs(self, rules: RulesView) -> Iterable[tuple[int, int]]:
        return all_pairs(self.line)

    def propagators(self, rules: RulesView) -> list[Propagator]:
        return [RunOfValues(self.line, rules.size)]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        filled = [c for c in self.line if values[c]]
        seen = [values[c] for c in filled]
        if len(set(seen)) != len(seen) or (seen and max(seen) - min(seen) >= len(self.line)):
            return [tuple(filled)]
        return []
