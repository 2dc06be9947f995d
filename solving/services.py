"""The solver as a service: analyse any grid, or hint from a position, within a work budget.

Every grid arrives as text and goes through :func:`solver.parse` before anything else, so
nothing reaches an engine unparsed; a :class:`~solver.ParseError` becomes a 400
``invalid_grid`` whose message is the solver's own (it names the line or the cell).

Work budgets. A web worker must not be held by a hostile grid, and an answer should not
depend on how busy the server is, so the engines are bounded by work, not by wall time:

- the exact engine (:mod:`solver.search.exact`) by search *nodes*: ``SOLVER_NODE_BUDGET`` for a 9x9
  grid (or smaller);
- the logic engine (:mod:`solver.logic.classic`, which the grader also runs) by technique *passes*:
  ``SOLVER_LOGIC_BUDGET`` for a 9x9 grid.

A node or a pass costs more on a bigger grid, so both budgets shrink with the cell count.
A search node works on bitboards of about N**3 bits and propagates longer, so its cost grows
faster than the cell count; the node budget is scaled by ``(81 / cells) ** 1.5``. A
technique pass (chains above all) grows a little faster than the cell count; the pass
budget is scaled by ``(81 / cells) ** 1.25`` (:func:`budget_for`). With the defaults the
hardest 9x9 sets and the shared 16x16 and 25x25 sets fit (bar one 16x16 of fifty), and a
refused grid costs about as much work at any size. A grid that uses up a budget is answered
422 ``too_hard``.

The analysis reports the logic engine's steps only for a puzzle with exactly one solution
(the engine's uniqueness techniques assume one), at most ``STEP_LIMIT`` of them.

Grading. A puzzle the logic engine finishes is graded from those steps. One it cannot
finish is ``master`` by the grader's rule, and the grader scores it by trial and error,
which costs far more; when that does not fit in the pass budget the analysis still answers,
with ``level`` ``master``, ``score`` null and ``grade_complete`` false, rather than hide
the solution and the steps it already has.

A game started on a typed-in grid (:func:`puzzle_from_entered_grid`, called by the game
API) is checked within the same node budget before the bank stores it; its grading may use
``STORE_GRADE_FACTOR`` times the pass budget, since it happens once per puzzle.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import status

from puzzles.bank import givens_clash_text, puzzle_get_or_create_from_grid, puzzle_key
from puzzles.models import Puzzle, Source
from solver import (
    SYMBOLS,
    BudgetExceeded,
    Grid,
    ParseError,
    Shape,
    cell_name,
    conflicts,
    format_line,
    parse,
    solutions,
)
from solver.logic import sentences
from solver.logic.classic import MultipleSolutions, NoSolution, Step, logic_solve, next_step
from solver.logic.grade import Grade, grade, grade_of_steps
from sudokusite.errors import DomainError

from .steps import step_localized

STEP_LIMIT = 200
"""The most steps an analysis lists; ``steps_truncated`` says when there were more."""

MIN_NODE_BUDGET = 500
MIN_LOGIC_BUDGET = 150
_REFERENCE_CELLS = 81


class InvalidGrid(DomainError):
    """A grid, entries or notes the solver cannot read; the message says where."""

    status_code = status.HTTP_400_BAD_REQUEST
    code = "invalid_grid"
    message = gettext_lazy("The grid could not be read.")


class PuzzleUnsolvable(DomainError):
    """A hint was asked for a puzzle with no solution, or with several."""

    status_code = status.HTTP_400_BAD_REQUEST
    code = "no_solution"
    message = gettext_lazy("The puzzle has no solution.")


class TooHard(DomainError):
    """The grid used up the work budget of one request."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    code = "too_hard"
    message = gettext_lazy("This puzzle needs more work than the server spends on one request.")


@dataclass(frozen=True, slots=True)
class Budget:
    """The work one request may spend on a grid: search nodes and logic passes."""

    nodes: int
    passes: int


def budget_for(shape: Shape) -> Budget:
    """The budgets for a grid of ``shape`` (see the module docstring)."""
    ratio = _REFERENCE_CELLS / max(shape.ncells, _REFERENCE_CELLS)
    nodes, passes = settings.SOLVER_NODE_BUDGET, settings.SOLVER_LOGIC_BUDGET
    # The floors keep big grids workable; they never raise a budget above the setting.
    return Budget(
        nodes=max(min(MIN_NODE_BUDGET, nodes), int(nodes * ratio**1.5)),
        passes=max(min(MIN_LOGIC_BUDGET, passes), int(passes * ratio**1.25)),
    )


def _too_hard(engine: str, budget: int) -> TooHard:
    if engine == "search":
        detail = _("the search stopped after %(budget)s nodes without settling how many solutions")
    elif engine == "grader":
        detail = _("grading it stopped after %(budget)s passes")
    else:
        detail = _("the logic engine stopped after %(budget)s technique passes")
    return TooHard(
        _(
            "This puzzle needs more work than the server spends on one request: %(detail)s. "
            "Check that it was typed correctly, or add givens."
        )
        % {"detail": detail % {"budget": budget}},
        extra={"engine": engine, "budget": budget},
    )


def grid_parse(
    text: str, *, box_rows: int | None = None, box_cols: int | None = None, field: str = "grid"
) -> Grid:
    """The grid in ``text``, or InvalidGrid with the solver's message (naming the line/cell)."""
    try:
        return parse(text, box_rows=box_rows, box_cols=box_cols)
    except ParseError as exc:
        raise InvalidGrid(exc.render(_), extra={"field": field}) from None


def _entries_parse(text: str, givens: Grid) -> Grid:
    """The player's board: the grid's shape, every given kept."""
    shape = givens.shape
    entries = grid_parse(text, box_rows=shape.box_rows, box_cols=shape.box_cols, field="entries")
    for cell, given in enumerate(givens.cells):
        if given and entries.cells[cell] != given:
            raise InvalidGrid(
                _("cell %(cell)s: the entries must keep the given %(value)s")
                % {"cell": cell_name(shape, cell), "value": SYMBOLS[given - 1]},
                extra={"field": "entries"},
            )
    return entries


_CELL_NAME = re.compile(r"r([0-9]{1,2})c([0-9]{1,2})", re.IGNORECASE)


def _note_cell(key: str, shape: Shape) -> int:
    """The cell of a notes key: a cell name (``r3c5``) or a cell index (``"22"``)."""
    n = shape.size
    match = _CELL_NAME.fullmatch(key)
    if match:
        row, col = int(match[1]), int(match[2])
        if 1 <= row <= n and 1 <= col <= n:
            return (row - 1) * n + col - 1
    elif len(key) <= 3 and key.isascii() and key.isdigit() and int(key) < shape.ncells:
        return int(key)
    raise InvalidGrid(
        _(
            "notes: %(key)s is not a cell of a %(label)s grid: use a cell name "
            "from r1c1 to r%(n)sc%(n)s, or an index from 0 to %(last)s"
        )
        % {"key": repr(key[:20]), "label": shape.label, "n": n, "last": shape.ncells - 1},
        extra={"field": "notes"},
    )


def _note_values(key: str, value: Any, shape: Shape) -> set[int]:
    """The values of one cell's notes: a string of symbols (``"139"``) or a list of values."""
    n = shape.size
    if isinstance(value, str):
        symbols = [ch for ch in value if not ch.isspace() and ch != ","]
        values = [SYMBOLS.find(ch.upper()) + 1 for ch in symbols]
        if all(1 <= v <= n for v in values) and len(symbols) <= 2 * n:
            return set(values)
    elif isinstance(value, list) and len(value) <= n:
        ok = all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= n for v in value)
        if ok:
            return set(value)
    raise InvalidGrid(
        _(
            "notes for %(key)s: give the values of a %(label)s grid as a string of "
            "symbols (%(first)s-%(last)s) or a list of numbers from 1 to %(n)s"
        )
        % {
            "key": key[:20],
            "label": shape.label,
            "first": SYMBOLS[0],
            "last": SYMBOLS[n - 1],
            "n": n,
        },
        extra={"field": "notes"},
    )


def notes_parse(notes: Mapping[str, Any], shape: Shape) -> dict[int, set[int]]:
    """A player's notes from JSON (``{"r1c2": "39"}`` or ``{"1": [3, 9]}``), by cell."""
    out: dict[int, set[int]] = {}
    for key, value in notes.items():
        cell = _note_cell(str(key), shape)
        out.setdefault(cell, set()).update(_note_values(str(key), value, shape))
    return out


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the analyse endpoint answers (see :func:`puzzle_analyse`)."""

    grid: str
    size: int
    box_rows: int
    box_cols: int
    clues: int
    conflicts: list[dict[str, Any]]
    solutions: int
    solution: str | None
    level: str | None
    score: int | None
    hardest: str | None
    techniques: dict[str, int] | None
    solved_by_logic: bool | None
    grade_complete: bool | None
    steps: list[dict[str, Any]]
    steps_total: int
    steps_truncated: bool
    step_limit: int


def _conflict_dicts(grid: Grid) -> list[dict[str, Any]]:
    shape = grid.shape
    return [
        {
            "cells": list(c.cells),
            "cell_names": [cell_name(shape, cell) for cell in c.cells],
            "unit": c.unit,
            "unit_name": sentences.unit_label(shape.size, c.unit, _),
            "kind": c.kind,
            "value": c.value,
        }
        for c in conflicts(grid)
    ]


BankCheck = Callable[[Puzzle | None], None]
"""Called with the bank's copy of a grid (or None) before the solver works on it; raises
to refuse (the web layer passes ``play.disclosure.solver_solution_check`` for the caller)."""


def bank_puzzle_of(grid: Grid) -> Puzzle | None:
    """The bank's puzzle equal to ``grid`` up to relabelling, rotation, reflection and the
    other symmetries of the canonical form, or None."""
    return Puzzle.objects.filter(canonical_key=puzzle_key(grid)).first()


def puzzle_analyse(
    *,
    grid_text: str,
    box_rows: int | None = None,
    box_cols: int | None = None,
    bank_check: BankCheck | None = None,
) -> Analysis:
    """Parse, check, count (0, 1 or 2 = "two or more"), solve, grade and explain a grid.

    Raises InvalidGrid (400) for text the solver cannot read and TooHard (422) when the
    grid uses up the work budget; ``bank_check`` may refuse a copy of a bank puzzle.
    """
    grid = grid_parse(grid_text, box_rows=box_rows, box_cols=box_cols)
    shape = grid.shape
    budget = budget_for(shape)
    clashes = _conflict_dicts(grid)
    found: list[Grid] = []
    if not clashes and bank_check is not None:
        bank_check(bank_puzzle_of(grid))
    if not clashes:
        try:
            found = solutions(grid, limit=2, budget=budget.nodes)
        except BudgetExceeded:
            raise _too_hard("search", budget.nodes) from None
    unique = len(found) == 1
    steps: list[Step] = []
    graded: Grade | None = None
    complete: bool | None = None
    if unique:
        try:
            result = logic_solve(grid, budget=budget.passes)
        except BudgetExceeded:
            raise _too_hard("logic", budget.passes) from None
        steps = result.steps
        graded, complete = _grade(grid, steps, solved=result.solved, passes=budget.passes)
    return Analysis(
        grid=format_line(grid),
        size=shape.size,
        box_rows=shape.box_rows,
        box_cols=shape.box_cols,
        clues=grid.clues,
        conflicts=clashes,
        solutions=len(found),
        solution=format_line(found[0]) if unique else None,
        level=graded.level if graded else None,
        score=graded.score if graded and complete else None,
        hardest=graded.hardest if graded else None,
        techniques=dict(graded.techniques) if graded else None,
        solved_by_logic=graded.solved_by_logic if graded else None,
        grade_complete=complete,
        steps=[step_localized(step.to_dict()) for step in steps[:STEP_LIMIT]],
        steps_total=len(steps),
        steps_truncated=len(steps) > STEP_LIMIT,
        step_limit=STEP_LIMIT,
    )


def _grade(grid: Grid, steps: list[Step], *, solved: bool, passes: int) -> tuple[Grade, bool]:
    """The grader's verdict and whether it is complete.

    When the grader's trial and error does not fit in ``passes``, the verdict is what is
    certain without it: ``master`` with "search" the hardest technique (the logic engine
    could not finish), the techniques the logic engine used, and no score (the 0 here is
    never shown).
    """
    if solved:  # the grader's first run is the logic engine's: no need to run it again
        return grade_of_steps(steps), True
    try:
        return grade(grid, budget=passes), True
    except BudgetExceeded:
        pass
    uses = Counter(step.technique for step in steps)
    partial = Grade(
        level="master", score=0, hardest="search", techniques=dict(uses), solved_by_logic=False
    )
    return partial, False


@dataclass(frozen=True, slots=True)
class Hint:
    """The next step from a position, or None with ``solved`` when the board is complete."""

    solved: bool
    step: dict[str, Any] | None


def position_hint(
    *,
    grid_text: str,
    entries_text: str | None = None,
    notes: Mapping[str, Any] | None = None,
    box_rows: int | None = None,
    box_cols: int | None = None,
    bank_check: BankCheck | None = None,
) -> Hint:
    """The next logical step from a player's position, by the engine the game's hints use.

    ``grid_text`` holds the givens, ``entries_text`` the whole board (givens included),
    ``notes`` the player's candidates by cell. A wrong entry or note gives an
    ``incorrect_entry`` / ``incorrect_note`` step that names the cells, never the value.
    Raises InvalidGrid, PuzzleUnsolvable (codes ``no_solution``, ``multiple_solutions``)
    and TooHard; ``bank_check`` may refuse a copy of a bank puzzle.
    """
    givens = grid_parse(grid_text, box_rows=box_rows, box_cols=box_cols)
    entries = _entries_parse(entries_text, givens) if entries_text is not None else None
    cell_notes = notes_parse(notes, givens.shape) if notes else None
    _refuse_clashes(givens)
    if bank_check is not None:
        bank_check(bank_puzzle_of(givens))
    budget = budget_for(givens.shape)
    try:
        # next_step spends ``budget`` as search nodes and as technique passes; a single
        # step needs at most one pass per technique.
        step = next_step(givens, entries, cell_notes, budget=budget.nodes)
    except BudgetExceeded:
        raise _too_hard("search", budget.nodes) from None
    except NoSolution:
        raise PuzzleUnsolvable(_("The puzzle has no solution.")) from None
    except MultipleSolutions:
        raise PuzzleUnsolvable(
            _("The puzzle has more than one solution, so no step can be certain."),
            code="multiple_solutions",
        ) from None
    if step is None:
        return Hint(solved=True, step=None)
    return Hint(solved=False, step=step_localized(step.to_dict()))


def _refuse_clashes(grid: Grid) -> None:
    """PuzzleUnsolvable naming the first two clashing givens, if any."""
    clash = givens_clash_text(grid)
    if clash:
        raise PuzzleUnsolvable(_("The puzzle has no solution: %(clash)s.") % {"clash": clash})


STORE_GRADE_FACTOR = 4
"""A puzzle entered to start a game is graded to be stored, once (entering it again reuses
the stored one), so its grading may spend this many times the pass budget of an analysis:
the bank's hardest 16x16 puzzles need more than one analysis allows."""


def puzzle_from_entered_grid(
    *, grid_text: str, box_rows: int | None = None, box_cols: int | None = None
) -> tuple[Puzzle, bool]:
    """The stored puzzle for a grid a player typed in: the stored one when an equivalent
    puzzle is there, else a new typed-in puzzle (``Source.TYPED``, ``created`` True),
    kept out of the bank's pools and never counted (integrity.gate).

    The grid must have exactly one solution, checked within the node budget before the
    bank sees it. Raises InvalidGrid, PuzzleUnsolvable (``no_solution``,
    ``multiple_solutions``) and TooHard.
    """
    grid = grid_parse(grid_text, box_rows=box_rows, box_cols=box_cols)
    _refuse_clashes(grid)
    budget = budget_for(grid.shape)
    try:
        found = solutions(grid, limit=2, budget=budget.nodes)
    except BudgetExceeded:
        raise _too_hard("search", budget.nodes) from None
    if not found:
        raise PuzzleUnsolvable(_("The puzzle has no solution."))
    if len(found) > 1:
        raise PuzzleUnsolvable(
            _("The puzzle has more than one solution: a game needs exactly one."),
            code="multiple_solutions",
        )
    passes = budget.passes * STORE_GRADE_FACTOR
    try:
        return puzzle_get_or_create_from_grid(
            grid=grid, source=Source.TYPED, grade_budget=passes, solution=found[0]
        )
    except BudgetExceeded:
        raise _too_hard("grader", passes) from None
