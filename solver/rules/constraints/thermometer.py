"""Thermometer: values strictly increase from the bulb (the line's first cell).

f-puzzles: ``"thermometer": [{"lines": [["R1C1", "R1C2", ...]]}]``, each line from the
bulb; an entry with several lines is several thermometers sharing a bulb.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.rules.constraints.base import Propagator, all_pairs, pair
from solver.rules.constraints.lines import Line

if TYPE_CHECKING:
    from solver.rules.constraints.base import RulesView


@dataclass(frozen=True, slots=True)
class Thermometer(Line):
    kind = "thermometer"
    fpuzzles_key = "thermometer"

    def complemented(self, rules: RulesView) -> Thermometer:
        """Increasing values complemented decrease: the bulb moves to the other end."""
        return Thermometer(self.line[::-1])

    def differ_pairs(self, rules: RulesView) -> Iterable[tuple[int, int]]:
        return all_pairs(self.line)

    def propagators(self, rules: RulesView) -> list[Propagator]:
        n = rules.size
        steps = zip(self.line, self.line[1:], strict=False)
        return [pair(a, b, n, lambda x, y: x < y) for a, b in steps]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        filled = [c for c in self.line if values[c]]
        return [
            (a, b) for i, a in enumerate(filled) for b in filled[i + 1 :] if values[a] >= values[b]
        ]
