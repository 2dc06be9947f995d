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
    any_labels = True  # it only says which cells are equal

    def normal(self, line: tuple[int, ...]) -> tuple[int, ...]:
        """The line with the same mirrored pairs that reads smallest: its pairs sorted,
        the first of each before the middle cell and the second after it, mirrored."""
        k = len(line)
        pairs = sorted(tuple(sorted((line[i], line[k - 1 - i]))) for i in range(k // 2))
        middle = (line[k // 2],) if k % 2 else ()
        return (*(a for a, _ in pairs), *middle, *(b for _, b in reversed(pairs)))

    def complemented(self, rules: RulesView) -> Palindrome:
        return self

    def mirrored(self) -> list[tuple[int, int]]:
        k = len(self.line)
        return [(self.line[i], self.line[k - 1 - i]) for i in range(k // 2)]

    def propagators(self, rules: RulesView) -> list[Propagator]:
        return [pair(a, b, rules.size, lambda x, y: x == y) for a, b in self.mirrored()]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        return [
            (a, b) for a, b in self.mirrored() if values[a] and values[b] and values[a] != values[b]
        ]
