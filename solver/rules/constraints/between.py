"""Between line: the values on the line lie strictly between those of its two ends
(circles), in either order.

f-puzzles: ``"betweenline": [{"lines": [["R1C1", ..., "R1C5"]]}]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.rules.constraints.base import Masks, Propagator, bit_values
from solver.rules.constraints.lines import Line

if TYPE_CHECKING:
    from solver.rules.constraints.base import RulesView


class Between(Propagator):
    """Tries every pair of end values; keeps what some pair allows."""

    __slots__ = ()

    def prune(self, masks: Masks) -> Masks | None:
        first, last, middle = masks[0], masks[-1], masks[1:-1]
        keep_first = keep_last = keep_middle = 0
        for a in bit_values(first):
            for b in bit_values(last):
                lo, hi = min(a, b), max(a, b)
                inside = ((1 << (hi - 1)) - 1) & ~((1 << lo) - 1)  # lo < v < hi
                if all(m & inside for m in middle):
                    keep_first |= 1 << (a - 1)
                    keep_last |= 1 << (b - 1)
                    keep_middle |= inside
        if not keep_first:
            return None
        return (keep_first, *(m & keep_middle for m in middle), keep_last)


@dataclass(frozen=True, slots=True)
class BetweenLine(Line):
    kind = "between"
    fpuzzles_key = "betweenline"
    least = 3

    def normal(self, line: tuple[int, ...]) -> tuple[int, ...]:
        """Either end first; the cells between in any order: both sorted."""
        first, last = sorted((line[0], line[-1]))
        return (first, *sorted(line[1:-1]), last)

    def complemented(self, rules: RulesView) -> BetweenLine:
        return self  # lying between two values is lying between their complements

    def propagators(self, rules: RulesView) -> list[Propagator]:
        return [Between(self.line)]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        a, b = values[self.line[0]], values[self.line[-1]]
        if not a or not b:
            return []
        lo, hi = min(a, b), max(a, b)
        bad = [c for c in self.line[1:-1] if values[c] and not lo < values[c] < hi]
        return [(self.line[0], c, self.line[-1]) for c in bad]
