"""Sandwich sum: a clue outside a row or column gives the sum of the values between its
1 and its N (0: they are neighbours).

f-puzzles: ``"sandwichsum": [{"cell": "R0C3", "value": "12"}]``: a clue above column 3
(``R0Ck``) or left of row r (``RrC0``); below and right (row or column N+1) read the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.rules.constraints.base import (
    Constraint,
    ConstraintError,
    Masks,
    Propagator,
    append,
    entries,
    fpuzzles_number,
    is_int,
    linear_prune,
    ref_position,
)

if TYPE_CHECKING:
    from solver.grid import Shape
    from solver.rules.constraints.base import RulesView
    from solver.rules.symmetry import Move


def line_cells(n: int, line: str, index: int) -> tuple[int, ...]:
    if line == "row":
        return tuple(index * n + k for k in range(n))
    return tuple(r * n + index for r in range(n))


class Between1AndN(Propagator):
    """Tries every place of the 1 and the N; keeps what some place allows."""

    __slots__ = ("n", "total")

    def __init__(self, cells: Sequence[int], n: int, total: int) -> None:
        super().__init__(cells)
        self.n, self.total = n, total

    def prune(self, masks: Masks) -> Masks | None:
        n = self.n
        ends = 1 | 1 << (n - 1)
        keep = [0] * n
        for i in range(n):
            if not masks[i] & ends:
                continue
            for j in range(i + 1, n):
                if not masks[j] & ends:
                    continue
                one, big = 1, 1 << (n - 1)
                mi = mj = 0
                if masks[i] & one and masks[j] & big:
                    mi, mj = one, big
                if masks[i] & big and masks[j] & one:
                    mi, mj = mi | big, mj | one
                if not mi:
                    continue  # the two cells cannot be the 1 and the N
                if any(not masks[o] & ~ends for o in range(n) if o != i and o != j):
                    continue
                inner = tuple(m & ~ends for m in masks[i + 1 : j])
                if inner:
                    found = linear_prune(inner, [1] * len(inner), 1 << self.total, 0)
                    if found is None:
                        continue
                elif self.total:
                    continue
                else:
                    found = ()
                keep[i] |= mi
                keep[j] |= mj
                for o in range(n):
                    if i < o < j:
                        keep[o] |= found[o - i - 1]
                    elif o != i and o != j:
                        keep[o] |= masks[o] & ~ends
        if not any(keep):
            return None
        out = tuple(m & k for m, k in zip(masks, keep, strict=True))
        return None if not all(out) else out


@dataclass(frozen=True, slots=True)
class Sandwich(Constraint):
    line: str  # "row" or "column"
    index: int
    total: int
    kind = "sandwich"

    def cells(self) -> tuple[int, ...]:
        return ()

    def moved(self, move: Move) -> Sandwich:
        """The row or column its line becomes (a transposition makes a row a column); the
        sum between the 1 and the N reads the same from either side."""
        first, second = (move.point(*divmod(c, move.n)) for c in self.line_cells(move.n)[:2])
        if first[0] == second[0]:
            return Sandwich("row", first[0], self.total)
        return Sandwich("column", first[1], self.total)

    def line_cells(self, n: int) -> tuple[int, ...]:
        return line_cells(n, self.line, self.index)

    def check(self, rules: RulesView) -> None:
        n = rules.size
        if self.line not in ("row", "column") or not 0 <= self.index < n:
            raise ConstraintError(f"sandwich: a row or column 0 to {n - 1}")
        if not 0 <= self.total <= sum(range(2, n)):
            raise ConstraintError(f"sandwich: {self.total} cannot lie between 1 and {n}")

    def propagators(self, rules: RulesView) -> list[Propagator]:
        return [Between1AndN(self.line_cells(rules.size), rules.size, self.total)]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        n = rules.size
        cells = self.line_cells(n)
        row = [values[c] for c in cells]
        if 1 not in row or n not in row:
            return []
        i, j = sorted((row.index(1), row.index(n)))
        inner = row[i + 1 : j]
        if sum(inner) > self.total or (all(inner) and sum(inner) != self.total):
            return [tuple(c for c in cells[i : j + 1] if values[c])]
        return []

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "line": self.line, "index": self.index, "sum": self.total}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> Sandwich:
        line, index, total = data.get("line"), data.get("index"), data.get("sum")
        if line not in ("row", "column") or not is_int(index) or not is_int(total):
            raise ConstraintError('sandwich: line ("row" or "column"), index and sum')
        return cls(line, index, total)

    @classmethod
    def read_fpuzzles(cls, data: Mapping[str, Any], n: int) -> list[Constraint]:
        out: list[Constraint] = []
        for i, item in enumerate(entries(data, "sandwichsum", n), start=1):
            where = f"sandwichsum {i}"
            if item.get("value") in (None, ""):
                continue
            r, k = ref_position(item.get("cell"), where)
            total = fpuzzles_number(item.get("value"), where)
            if r in (-1, n) and 0 <= k < n:
                out.append(cls("column", k, total))
            elif k in (-1, n) and 0 <= r < n:
                out.append(cls("row", r, total))
            else:
                raise ConstraintError(f"{where}: the clue must sit just outside a row or column")
        return out

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        ref = f"R0C{self.index + 1}" if self.line == "column" else f"R{self.index + 1}C0"
        append(out, "sandwichsum", {"cell": ref, "value": str(self.total)})

    def describe(self, n: int) -> str:
        return f"sandwich sum of {self.line} {self.index + 1}"
