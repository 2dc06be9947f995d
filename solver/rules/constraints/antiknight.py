"""Anti-knight: cells a chess knight's move apart hold different values.

f-puzzles: ``"antiknight": true``.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.rules.constraints.whole_grid import Apart


@dataclass(frozen=True, slots=True)
class AntiKnight(Apart):
    kind = "antiknight"
    fpuzzles_key = "antiknight"
    steps = ((1, 2), (2, 1), (1, -2), (2, -1))
