"""Non-consecutive: orthogonal neighbours never hold consecutive values, except where a
white kropki dot joins them (so with white dots it is their negative constraint).

f-puzzles: ``"nonconsecutive": true``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.rules.constraints.base import Propagator, pair
from solver.rules.constraints.dots import unmarked_pairs
from solver.rules.constraints.kropki import Kropki
from solver.rules.constraints.whole_grid import WholeGrid

if TYPE_CHECKING:
    from solver.rules.constraints.base import RulesView


@dataclass(frozen=True, slots=True)
class NonConsecutive(WholeGrid):
    kind = "nonconsecutive"
    fpuzzles_key = "nonconsecutive"

    def complemented(self, rules: RulesView) -> NonConsecutive:
        return self  # consecutive values complemented are consecutive

    def unmarked(self, rules: RulesView) -> list[tuple[int, int]]:
        return unmarked_pairs(rules, lambda c: isinstance(c, Kropki) and c.colour == "white")

    def propagators(self, rules: RulesView) -> list[Propagator]:
        n = rules.size
        return [pair(a, b, n, lambda x, y: abs(x - y) != 1) for a, b in self.unmarked(rules)]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        return [
            (a, b)
            for a, b in self.unmarked(rules)
            if values[a] and values[b] and abs(values[a] - values[b]) == 1
        ]
