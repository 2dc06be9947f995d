"""Puzzles from f-puzzles / SudokuPad: analysed, or stored to be played, like typed-in grids.

A classic puzzle in an f-puzzles object takes the typed-in grid's path exactly (same
checks, same grading, same ``typed`` source). A variant puzzle is checked for one
solution under its rules within the same node budget and stored with the ``typed``
source too, so whatever rule governs typed-in puzzles governs it as well.

A variant analysis counts and solves under the rules with the exact search, then grades
and explains with the engine's variant logic (``solver.logic.general``), graded by the
variant grader (``solver.logic.variant_grade``): ``master`` when the techniques cannot
finish it, as for the classic.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from puzzles.bank import PuzzleNotUnique
from puzzles.models import Puzzle, Source
from puzzles.variant_bank import variant_puzzle_store
from puzzles.variants import variant_key
from solver import BudgetExceeded, Grid, format_line, solutions
from solver.formats.fpuzzles import FPuzzle, FPuzzlesError, from_fpuzzles
from solver.logic.general import variant_logic_solve
from solver.logic.variant_grade import variant_grade_of
from solver.rules.ruleset import Rules, RulesError, check_puzzle

from .services import (
    STEP_LIMIT,
    Analysis,
    BankCheck,
    InvalidGrid,
    PuzzleUnsolvable,
    _too_hard,
    budget_for,
    puzzle_analyse,
    puzzle_from_entered_grid,
)
from .steps import step_localized


def fpuzzles_read(data: Any) -> FPuzzle:
    """An f-puzzles object, its JSON or compressed text, or a SudokuPad or f-puzzles share
    link, read; InvalidGrid (400) saying why not."""
    try:
        return from_fpuzzles(data)
    except FPuzzlesError as exc:
        raise InvalidGrid(
            _("The f-puzzles object cannot be played: %(why)s") % {"why": str(exc)},
            extra={"field": "fpuzzles"},
        ) from None


def fpuzzles_parse(data: Any) -> tuple[Grid, Rules]:
    """The grid and rules of what :func:`fpuzzles_read` reads. A solution sent with the
    puzzle is never trusted: the server finds its own."""
    read = fpuzzles_read(data)
    return read.puzzle, read.rules


def _solutions(grid: Grid, rules: Rules) -> list[Grid]:
    budget = budget_for(grid.shape).nodes
    try:
        return solutions(grid, limit=2, budget=budget, rules=rules)
    except BudgetExceeded:
        raise _too_hard("search", budget) from None


def puzzle_from_fpuzzles(*, data: Any) -> tuple[Puzzle, bool]:
    """The bank's puzzle for an f-puzzles object (made now when new: ``created``)."""
    grid, rules = fpuzzles_parse(data)
    if rules.is_classic:
        return puzzle_from_entered_grid(
            grid_text=format_line(grid),
            box_rows=grid.shape.box_rows,
            box_cols=grid.shape.box_cols,
        )
    existing = Puzzle.objects.filter(canonical_key=variant_key(grid, rules)).first()
    if existing is not None:
        return existing, False
    try:
        check_puzzle(rules, grid)
    except RulesError as exc:
        raise PuzzleUnsolvable(
            _("The puzzle has no solution: %(why)s.") % {"why": str(exc)}
        ) from None
    found = _solutions(grid, rules)
    if not found:
        raise PuzzleUnsolvable(_("The puzzle has no solution."))
    if len(found) > 1:
        raise PuzzleUnsolvable(
            _("The puzzle has more than one solution: a game needs exactly one."),
            code="multiple_solutions",
        )
    try:
        return variant_puzzle_store(grid=grid, rules=rules, solution=found[0], source=Source.TYPED)
    except PuzzleNotUnique as exc:  # pragma: no cover - proven unique just above
        raise PuzzleUnsolvable(str(exc)) from None


def fpuzzles_analyse(*, data: Any, bank_check: BankCheck | None = None) -> dict[str, Any]:
    """The analysis of an f-puzzles object, with its ``variant`` and ``rules`` beside, and
    ``import_notes`` saying what was left out."""
    read = fpuzzles_read(data)
    grid, rules = read.puzzle, read.rules
    payload = rules.to_dict()
    payload.pop("size", None)
    payload["import_notes"] = list(read.notes)
    if rules.is_classic:
        analysis = puzzle_analyse(
            grid_text=format_line(grid),
            box_rows=grid.shape.box_rows,
            box_cols=grid.shape.box_cols,
            bank_check=bank_check,
        )
        return {**_as_dict(analysis), **payload}
    try:
        check_puzzle(rules, grid)
    except RulesError as exc:
        raise PuzzleUnsolvable(
            _("The puzzle has no solution: %(why)s.") % {"why": str(exc)}
        ) from None
    if bank_check is not None:
        bank_check(Puzzle.objects.filter(canonical_key=variant_key(grid, rules)).first())
    found = _solutions(grid, rules)
    unique = len(found) == 1
    logic = variant_logic_solve(rules, grid) if unique else None
    steps = [step_localized(step.to_dict()) for step in logic.steps] if logic else []
    graded = variant_grade_of(logic) if logic else None
    analysis = Analysis(
        grid=format_line(grid),
        size=grid.size,
        box_rows=grid.shape.box_rows,
        box_cols=grid.shape.box_cols,
        clues=grid.clues,
        conflicts=[],
        solutions=len(found),
        solution=format_line(found[0]) if unique else None,
        level=graded.level if graded else None,
        score=graded.score if graded else None,
        hardest=(graded.hardest or None) if graded else None,
        techniques=dict(graded.techniques) if graded else None,
        solved_by_logic=logic.solved if logic else None,
        grade_complete=True if logic else None,
        steps=steps[:STEP_LIMIT],
        steps_total=len(steps),
        steps_truncated=len(steps) > STEP_LIMIT,
        step_limit=STEP_LIMIT,
    )
    return {**_as_dict(analysis), **payload}


def _as_dict(analysis: Analysis) -> dict[str, Any]:
    return {name: getattr(analysis, name) for name in Analysis.__slots__}
