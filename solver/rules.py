"""The rules of the game, written plainly: clashes between cells and the validity of a solution.

This module is the independent check the engines are tested against, so it shares no code
with them beyond the unit tables of :mod:`solver.grid`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from solver.grid import UNIT_KINDS, Grid, tables

UnitKind = Literal["row", "column", "box"]


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two cells of one unit that hold the same value."""

    cells: tuple[int, int]
    unit: int
    kind: UnitKind
    value: int


def conflicts(grid: Grid) -> list[Conflict]:
    """Every pair of clashing cells, with the unit (row, column, box) that holds them.

    A pair that clashes in two units (a row and a box, say) is listed once per unit, so a
    page can mark each unit. Ordered by unit index, then by cell.
    """
    t = tables(grid.shape)
    cells = grid.cells
    out: list[Conflict] = []
    for u, unit in enumerate(t.units):
        kind: UnitKind = UNIT_KINDS[u // t.n]  # type: ignore[assignment]
        seen: dict[int, list[int]] = {}
        for c in unit:
            v = cells[c]
            if v:
                seen.setdefault(v, []).append(c)
        for v, holders in seen.items():
            for i, a in enumerate(holders):
                for b in holders[i + 1 :]:
                    out.append(Conflict((a, b), u, kind, v))
    out.sort(key=lambda x: (x.unit, x.cells))
    return out


def is_solution(puzzle: Grid, solution: Grid) -> bool:
    """True if ``solution`` is complete, every unit holds 1..N once, and it keeps every given."""
    if solution.shape != puzzle.shape:
        return False
    n = puzzle.shape.size
    full = set(range(1, n + 1))
    if any(g and g != s for g, s in zip(puzzle.cells, solution.cells, strict=True)):
        return False
    return all({solution.cells[c] for c in unit} == full for unit in tables(puzzle.shape).units)
