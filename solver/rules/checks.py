"""The rules of the game, written plainly: clashes between cells and the validity of a solution.

This module is the independent check the engines are tested against, so it shares no code
with them beyond the unit tables of :mod:`solver.grid` and, for any rules, the houses of
:func:`solver.rules.ruleset.layout`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from solver.grid import UNIT_KINDS, Grid, tables
from solver.rules.ruleset import Rules, layout

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


def is_variant_solution(rules: Rules, puzzle: Grid, solution: Grid) -> bool:
    """True when ``solution`` is complete, keeps the givens, and obeys every house, cage and
    constraint (each constraint's plain check).

    Written plainly from the rules, as :func:`is_solution` is for the classic.
    """
    if solution.shape != rules.shape or puzzle.shape != rules.shape:
        return False
    s = solution.cells
    if any(g and g != v for g, v in zip(puzzle.cells, s, strict=True)):
        return False
    full = set(range(1, rules.size + 1))
    if any({s[c] for c in house} != full for house in layout(rules).houses):
        return False
    for cage in rules.cages:
        values = [s[c] for c in cage.cells]
        if len(set(values)) != len(values) or 0 in values:
            return False
        if cage.total is not None and sum(values) != cage.total:
            return False
    return not any(con.clashes(rules, s) for con in rules.constraints)
