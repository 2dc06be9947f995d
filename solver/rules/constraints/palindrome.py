"""Palindrome line: the line reads the same from either end.

f-puzzles: ``"palindrome": [{"lines": [["R1C1", ...]]}]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.rules.constraints.base import Propagator, pair
from solver.rules.constraints.lines import Line

if TYPE_CHECKING:
    from solver.rules.constraints.base import RulesView


@dataclass(frozen=True, slots=True)
class Palindrome(Line):
    kind = "palindrome"
    fpuzzles_key = "palindrome"

    def mirrored(self) -> list[tuple[int, int]]:
        k = len(self.line)
        return [(self.line[i], self.line[k - 1 - i]) for i in range(k // 2)]

    def propagators(self, rules: RulesView) -> list[Propagator]:
        return [pair(a, b, rules.size, lambda x, y: x == y) for a, b in self.mirrored()]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        return [
            (a, b) for a, b in self.mirrored() if values[a] and values[b] and values[a] != values[b]
        ]
