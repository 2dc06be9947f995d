"""The bank's puzzles: each checked, graded and stored once.

A puzzle is stored only after ``count_solutions(limit=2) == 1`` and a grade; it is stored
once (unique givens per size, unique canonical key), and a race between two writers is
settled by those constraints, never by a read-then-write.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from puzzles.models import Puzzle, Source, Symmetry
from puzzles.techniques import puzzle_techniques_store
from solver import (
    BudgetExceeded,
    Grid,
    Shape,
    cell_name,
    conflicts,
    format_line,
    solutions,
)
from solver.generation.classic import SYMMETRIES, is_symmetric, supported_levels
from solver.grid import symbol
from solver.logic import sentences
from solver.logic.grade import Grade, grade
from solver.rules.canon import canonical_key
from solver.rules.ruleset import Rules
from sudokusite.errors import DomainError
from sudokusite.unique import insert_or_existing

BANK_SIZES = (4, 6, 9, 16)
"""Sizes the starter bank and the top-up keep stocked."""

CHECK_BUDGET = 2_000_000
"""Search nodes allowed to prove an imported puzzle has one solution."""


class PuzzleNotUnique(DomainError):
    """The puzzle has no solution or more than one; codes ``no_solution`` /
    ``multiple_solutions`` / ``too_hard_to_check``."""

    code = "not_unique"
    message = gettext_lazy("A puzzle must have exactly one solution.")


def bank_levels(size: int) -> tuple[str, ...]:
    return supported_levels(Shape.for_size(size))


def puzzle_key(grid: Grid) -> str:
    """The stored canonical key: sha256 of the solver's key, so the index stays small."""
    return hashlib.sha256(canonical_key(grid).encode()).hexdigest()


def symmetry_of(grid: Grid) -> str:
    """The first symmetry the pattern of givens has, or ``none``."""
    for name in SYMMETRIES:
        if name != "none" and is_symmetric(grid, name):
            return name
    return Symmetry.NONE


def givens_clash_text(grid: Grid) -> str | None:
    """'r1c1 and r1c5 both hold 3 in row 1' for the first clash of givens, or None."""
    found = conflicts(grid)
    if not found:
        return None
    first = found[0]
    a, b = (cell_name(grid.shape, c) for c in first.cells)
    return _("%(first)s and %(second)s both hold %(value)s in %(unit)s") % {
        "first": a,
        "second": b,
        "value": symbol(first.value),
        "unit": sentences.unit_label(grid.shape.size, first.unit, _),
    }


def puzzle_solution_checked(grid: Grid) -> Grid:
    """The one solution of ``grid``; raises PuzzleNotUnique saying why there is not one."""
    clash = givens_clash_text(grid)
    if clash:
        raise PuzzleNotUnique(
            _("The puzzle has no solution: %(clash)s.") % {"clash": clash}, code="no_solution"
        )
    return one_solution(grid, budget=CHECK_BUDGET)


def one_solution(grid: Grid, *, budget: int, rules: Rules | None = None) -> Grid:
    """The one solution of ``grid`` (under ``rules``, for a variant); raises PuzzleNotUnique
    for none, several, or a search over ``budget`` nodes."""
    try:
        # One search both counts (up to two) and keeps the solution.
        found = solutions(grid, limit=2, budget=budget, rules=rules)
    except BudgetExceeded:
        raise PuzzleNotUnique(
            _("The puzzle is too sparse to prove it has one solution in reasonable time."),
            code="too_hard_to_check",
        ) from None
    if not found:
        raise PuzzleNotUnique(_("The puzzle has no solution."), code="no_solution")
    if len(found) > 1:
        raise PuzzleNotUnique(
            _("The puzzle has more than one solution."), code="multiple_solutions"
        )
    return found[0]


def grade_columns(rated: Grade) -> dict[str, Any]:
    """The columns a puzzle's grade is stored in."""
    return {
        "difficulty": rated.level,
        "score": rated.score,
        "techniques": dict(rated.techniques),
        "hardest_technique": rated.hardest or "",
    }


def puzzle_row(
    *, grid: Grid, solution: Grid, rated: Grade, symmetry: str, source: str, key: str
) -> Puzzle:
    """An unsaved row for a checked and graded puzzle; the caller saves it."""
    return Puzzle(
        size=grid.size,
        box_rows=grid.shape.box_rows,
        box_cols=grid.shape.box_cols,
        givens=format_line(grid),
        solution=format_line(solution),
        clue_count=grid.clues,
        symmetry=symmetry,
        canonical_key=key,
        source=source,
        **grade_columns(rated),
    )


def puzzle_existing(grid: Grid, key: str) -> Puzzle | None:
    """The stored puzzle with this canonical key, or with these givens, or None."""
    return (
        Puzzle.objects.filter(canonical_key=key).first()
        or Puzzle.objects.filter(
            variant="classic", size=grid.size, givens=format_line(grid)
        ).first()
    )


def puzzle_get_or_create_from_grid(
    *,
    grid: Grid,
    source: str = Source.IMPORTED,
    grade_budget: int | None = None,
    solution: Grid | None = None,
) -> tuple[Puzzle, bool]:
    """The stored puzzle equal to ``grid`` up to symmetry and relabelling, or a new one.

    Raises PuzzleNotUnique (``no_solution`` / ``multiple_solutions``) for a puzzle
    without exactly one solution. ``grade_budget`` caps the grader's passes for a grid
    from an untrusted client (BudgetExceeded when used up; nothing is stored then).
    A caller that has already proven the solution unique passes it as ``solution``,
    so the grid is not searched a second time.
    """
    key = puzzle_key(grid)
    existing = puzzle_existing(grid, key)
    if existing is not None:
        return existing, False
    if solution is None:
        solution = puzzle_solution_checked(grid)
    row = puzzle_row(
        grid=grid,
        solution=solution,
        rated=grade(grid, budget=grade_budget),
        symmetry=symmetry_of(grid),
        source=source,
        key=key,
    )
    # Another writer may store it between our look above and this insert.
    stored, created = insert_or_existing(row, lambda: puzzle_existing(grid, key))
    if created:
        puzzle_techniques_store(puzzle=stored)
    return stored, created


def puzzle_regrade(*, puzzles: Any) -> int:
    """Grade ``puzzles`` (a queryset or list) again and store level, score and techniques;
    returns how many changed."""
    changed = 0
    for puzzle in puzzles:
        fields = grade_columns(grade(puzzle.grid()))
        if any(getattr(puzzle, k) != v for k, v in fields.items()):
            Puzzle.objects.filter(pk=puzzle.pk).update(**fields)
            for name, value in fields.items():
                setattr(puzzle, name, value)
            puzzle_techniques_store(puzzle=puzzle)
            changed += 1
    return changed


def puzzle_promote(*, puzzle_ids: list[int]) -> int:
    """Staff take players' typed-in puzzles into the bank: they join the pools (level,
    daily, practice, at my level) and games of them may count from now on (integrity.gate;
    games already finished keep what the gate decided). Returns how many were promoted."""
    return Puzzle.objects.filter(pk__in=puzzle_ids, source=Source.TYPED).update(
        source=Source.IMPORTED
    )
