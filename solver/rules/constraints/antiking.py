"""Anti-king: cells a chess king's move apart (diagonal neighbours too) hold different values.

f-puzzles: ``"antiking": true``.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.rules.constraints.whole_grid import Apart


@dataclass(frozen=True, slots=True)
class AntiKing(Apart):
    kind = "antiking"
    fpuzzles_key = "antiking"
    steps = ((0, 1), (1, 0), (1, 1), (1, -1))
