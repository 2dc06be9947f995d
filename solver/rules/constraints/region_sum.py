"""Region-sum line: the line's values add up to the same number in every region (box)
it passes through; values may repeat on the line where no house forbids it.

f-puzzles (as SudokuPad and the f-puzzles add-on write it): ``"regionsumline": [{"lines":
[[...]]}]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.rules.constraints.base import Masks, Propagator, bit_values, linear_prune
from solver.rules.constraints.lines import Line

if TYPE_CHECKING:
    from solver.rules.constraints.base import RulesView


def groups(rules: RulesView, line: Sequence[int]) -> list[tuple[int, ...]]:
    """The line's cells by region, in the order the line meets the regions."""
    found: dict[int, list[int]] = {}
    for c in line:
        found.setdefault(rules.regions[c], []).append(c)
    return [tuple(cells) for cells in found.values()]


def reachable(masks: Sequence[int]) -> int:
    """The sums the cells can make, as a bitset."""
    sums = 1
    for m in masks:
        out = 0
        for v in bit_values(m):
            out |= sums << v
        sums = out
    return sums


class EqualSums(Propagator):
    """Groups of cells whose sums are equal; each keeps the values of a common sum."""

    __slots__ = ("sizes",)

    def __init__(self, parts: Sequence[tuple[int, ...]]) -> None:
        super().__init__([c for part in parts for c in part])
        self.sizes = [len(p) for p in parts]

    def prune(self, masks: Masks) -> Masks | None:
        parts = []
        at = 0
        for k in self.sizes:
            parts.append(masks[at : at + k])
            at += k
        common = -1
        for part in parts:
            common &= reachable(part)
        if not common:
            return None
        out: list[int] = []
        for part in parts:
            found = linear_prune(part, [1] * len(part), common, 0)
            if found is None:
                return None
            out += found
        return tuple(out)


@dataclass(frozen=True, slots=True)
class RegionSumLine(Line):
    kind = "region_sum"
    fpuzzles_key = "regionsumline"
    order = "none"

    def complemented(self, rules: RulesView) -> RegionSumLine | None:
        """k cells summing to s complemented sum to k(N + 1) - s: equal sums stay equal
        only when the line has as many cells in every region it meets."""
        return self if len({len(p) for p in groups(rules, self.line)}) == 1 else None

    def propagators(self, rules: RulesView) -> list[Propagator]:
        parts = groups(rules, self.line)
        return [EqualSums(parts)] if len(parts) > 1 else []

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        full = [p for p in groups(rules, self.line) if all(values[c] for c in p)]
        if len({sum(values[c] for c in p) for p in full}) > 1:
            return [tuple(c for p in full for c in p)]
        return []
