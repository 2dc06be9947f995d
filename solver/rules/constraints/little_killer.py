"""Little killer: a clue outside the grid gives the sum of the diagonal its arrow points
along; the values may repeat where no house forbids it.

The clue sits at ``clue`` (row, column counted from 0, outside the grid: -1 or N on one
side) and points ``direction``: ``DR``, ``DL``, ``UR`` or ``UL``.

f-puzzles: ``"littlekillersum": [{"cell": "R0C2", "direction": "DR", "value": "12",
"cells": [...]}]`` (``cells``, the diagonal, is written for other readers; the clue and
its direction say it). A clue without a value is a decoration and left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.rules.constraints.base import (
    Constraint,
    ConstraintError,
    LinearSum,
    Propagator,
    append,
    cell_ref,
    entries,
    fpuzzles_number,
    is_int,
    ref_position,
)

if TYPE_CHECKING:
    from solver.grid import Shape
    from solver.rules.constraints.base import RulesView
    from solver.rules.symmetry import Move

DIRECTIONS = {"DR": (1, 1), "DL": (1, -1), "UR": (-1, 1), "UL": (-1, -1)}


def diagonal(n: int, row: int, col: int, direction: str) -> tuple[int, ...]:
    dr, dk = DIRECTIONS[direction]
    r, k = row + dr, col + dk
    out = []
    while 0 <= r < n and 0 <= k < n:
        out.append(r * n + k)
        r, k = r + dr, k + dk
    return tuple(out)


@dataclass(frozen=True, slots=True)
class LittleKiller(Constraint):
    clue: tuple[int, int]
    direction: str
    total: int
    diagonal: tuple[int, ...] = ()  # filled from the clue when made by from_dict/read

    kind = "little_killer"

    def cells(self) -> tuple[int, ...]:
        return self.diagonal

    def check(self, rules: RulesView) -> None:
        n = rules.size
        r, k = self.clue
        if self.direction not in DIRECTIONS or (0 <= r < n and 0 <= k < n):
            raise ConstraintError(
                "little killer: a clue outside the grid pointing DR, DL, UR or UL"
            )
        if not self.diagonal or self.diagonal != diagonal(n, r, k, self.direction):
            raise ConstraintError("little killer: its arrow points at no cell of the grid")
        if not 1 <= self.total <= n * len(self.diagonal):
            raise ConstraintError(f"little killer: {self.total} is not a sum its diagonal can make")

    def moved(self, move: Move) -> LittleKiller:
        """The clue moves as a point outside the grid, its arrow as a step. A diagonal
        has a clue's place at either end, both saying the same: the smaller is kept."""
        n = move.n
        dr, dk = move.step(*DIRECTIONS[self.direction])
        r, k = move.point(*self.clue)
        last_r, last_k = divmod(move.cell(self.diagonal[-1]), n)
        back = next(d for d, s in DIRECTIONS.items() if s == (-dr, -dk))
        ahead = next(d for d, s in DIRECTIONS.items() if s == (dr, dk))
        clue, direction = min(((r, k), ahead), ((last_r + dr, last_k + dk), back))
        return LittleKiller.make(n, *clue, direction, self.total)

    def complemented(self, rules: RulesView) -> LittleKiller | None:
        """k values summing to s complemented sum to k(N + 1) - s."""
        k, n = len(self.diagonal), rules.size
        total = k * (n + 1) - self.total
        if not k <= total <= k * n:
            return None
        return LittleKiller(self.clue, self.direction, total, self.diagonal)

    def propagators(self, rules: RulesView) -> list[Propagator]:
        return [LinearSum(self.diagonal, [1] * len(self.diagonal), (self.total,), rules.size)]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        filled = [values[c] for c in self.diagonal if values[c]]
        least = sum(filled) + len(self.diagonal) - len(filled)
        if least > self.total or (len(filled) == len(self.diagonal) and sum(filled) != self.total):
            return [tuple(c for c in self.diagonal if values[c])]
        return []

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "clue": list(self.clue),
            "direction": self.direction,
            "sum": self.total,
            "cells": list(self.diagonal),
        }

    @classmethod
    def make(cls, n: int, row: int, col: int, direction: str, total: int) -> LittleKiller:
        if direction not in DIRECTIONS:
            raise ConstraintError("little killer: direction must be DR, DL, UR or UL")
        return cls((row, col), direction, total, diagonal(n, row, col, direction))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> LittleKiller:
        clue = data.get("clue")
        total = data.get("sum")
        if not (isinstance(clue, list | tuple) and len(clue) == 2 and all(is_int(x) for x in clue)):
            raise ConstraintError("little killer: clue must be [row, column] outside the grid")
        if not is_int(total):
            raise ConstraintError("little killer: sum must be a whole number")
        return cls.make(shape.size, clue[0], clue[1], data.get("direction"), total)  # type: ignore[arg-type]

    @classmethod
    def read_fpuzzles(cls, data: Mapping[str, Any], n: int) -> list[Constraint]:
        out: list[Constraint] = []
        for i, item in enumerate(entries(data, "littlekillersum", n), start=1):
            where = f"littlekillersum {i}"
            if item.get("value") in (None, ""):
                continue
            r, k = ref_position(item.get("cell"), where)
            total = fpuzzles_number(item.get("value"), where)
            out.append(cls.make(n, r, k, str(item.get("direction", "")).upper(), total))
        return out

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        r, k = self.clue
        item = {
            "cell": f"R{r + 1}C{k + 1}",
            "cells": [cell_ref(n, c) for c in self.diagonal],
            "direction": self.direction,
            "value": str(self.total),
        }
        append(out, "littlekillersum", item)
