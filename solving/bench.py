"""The setter's bench: what a setter needs to know about a puzzle being made.

How many solutions it has (0, 1, or 2 meaning two or more, with the cells where two of them
differ), its grade (level and hardest technique; ``master`` when the logic stalls), and the
board where the logic stops. Unlike the analysis, the solution of a unique puzzle is never
in the answer unless the setter asks for it (``solve``), and a copy of a bank puzzle in
play is refused by the same check (``bank_check``). Work is bounded by the solver API's
budgets; a puzzle that uses them up is a 422 ``too_hard``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.urls import reverse
from django.utils.translation import gettext as _

from puzzles.models import Puzzle
from puzzles.variants import rules_json, variant_key
from solver import BudgetExceeded, Grid, cell_name, format_line, solutions
from solver.formats.fpuzzles import (
    FPUZZLES_PREFIX,
    MAX_SIZE,
    SHARE_PREFIX,
    compress,
    to_fpuzzles,
)
from solver.logic.classic import logic_solve
from solver.logic.general import variant_logic_solve
from solver.logic.variant_grade import variant_grade_of
from solver.rules.ruleset import Rules, RulesError, check_puzzle

from .services import (
    BankCheck,
    InvalidGrid,
    _conflict_dicts,
    _grade,
    _too_hard,
    bank_puzzle_of,
    budget_for,
    grid_parse,
)
from .steps import technique_name
from .variants import fpuzzles_read


def _puzzle_read(
    grid_text: str | None, fpuzzles: Any, box_rows: int | None, box_cols: int | None
) -> tuple[Grid, Rules, list[str]]:
    """The givens and rules: from the grid text, from an f-puzzles source, or the rules of
    an f-puzzles source with the givens of the grid text (the setter edited them)."""
    if fpuzzles is None:
        assert grid_text is not None
        grid = grid_parse(grid_text, box_rows=box_rows, box_cols=box_cols)
        return grid, Rules.classic(grid.shape), []
    read = fpuzzles_read(fpuzzles)
    grid, rules = read.puzzle, read.rules
    if grid_text is not None:
        shape = grid.shape
        givens = grid_parse(grid_text, box_rows=shape.box_rows, box_cols=shape.box_cols)
        if givens.size != grid.size:
            raise InvalidGrid(
                _("grid: the givens must fill a %(n)sx%(n)s grid, as the f-puzzles puzzle does")
                % {"n": grid.size},
                extra={"field": "grid"},
            )
        grid = givens
    return grid, rules, list(read.notes)


def _difference(first: Grid, second: Grid) -> dict[str, Any]:
    """Where two solutions differ: the cells, and each solution's values there only."""
    cells = [c for c, (a, b) in enumerate(zip(first.cells, second.cells, strict=True)) if a != b]
    return {
        "cells": cells,
        "cell_names": [cell_name(first.shape, c) for c in cells],
        "first": [first.cells[c] for c in cells],
        "second": [second.cells[c] for c in cells],
    }


def puzzle_share(grid: Grid, rules: Rules) -> dict[str, Any] | None:
    """The puzzle as it travels, never with its solution (module docstring); None above
    16x16, which neither SudokuPad nor f-puzzles opens."""
    if grid.size > MAX_SIZE:
        return None
    data = to_fpuzzles(rules, grid)
    packed = quote(compress(data), safe="")  # once for the three links: it costs ms
    return {
        "fpuzzles": data,
        "sudokupad_url": SHARE_PREFIX + packed,
        "fpuzzles_url": FPUZZLES_PREFIX + packed,
        "solve_url": f"{reverse('play:solve')}?puzzle={packed}",
    }


def setter_check(
    *,
    grid_text: str | None = None,
    fpuzzles: Any = None,
    box_rows: int | None = None,
    box_cols: int | None = None,
    solve: bool = False,
    bank_check: BankCheck | None = None,
) -> dict[str, Any]:
    """Count, grade and find the logic's stall for a puzzle being set (module docstring).

    Raises InvalidGrid (400) for a puzzle that cannot be read, TooHard (422) when the
    search budget runs out; ``bank_check`` may refuse a copy of a bank puzzle in play.
    """
    grid, rules, notes = _puzzle_read(grid_text, fpuzzles, box_rows, box_cols)
    shape = grid.shape
    budget = budget_for(shape)
    classic = rules.is_classic
    out: dict[str, Any] = {
        "grid": format_line(grid),
        "size": shape.size,
        "box_rows": shape.box_rows,
        "box_cols": shape.box_cols,
        "clues": grid.clues,
        **rules_json(rules),
        "import_notes": notes,
        "conflicts": [],
        "contradiction": None,
        "solutions": 0,
        "difference": None,
        "level": None,
        "hardest": None,
        "hardest_name": None,
        "solved_by_logic": None,
        "stall": None,
        "solution": None,
        "export": None,
    }
    if classic:
        out["conflicts"] = _conflict_dicts(grid)
        if out["conflicts"]:
            return out
    else:
        try:
            check_puzzle(rules, grid)
        except RulesError as exc:
            out["contradiction"] = str(exc)
            return out
    if bank_check is not None:
        copy = (
            bank_puzzle_of(grid)
            if classic
            else Puzzle.objects.filter(canonical_key=variant_key(grid, rules)).first()
        )
        bank_check(copy)
    out["export"] = puzzle_share(grid, rules)
    try:
        found = solutions(grid, limit=2, budget=budget.nodes, rules=None if classic else rules)
    except BudgetExceeded:
        raise _too_hard("search", budget.nodes) from None
    out["solutions"] = len(found)
    if len(found) > 1:
        out["difference"] = _difference(found[0], found[1])
    if len(found) != 1:
        return out
    if classic:
        try:
            result = logic_solve(grid, budget=budget.passes)
        except BudgetExceeded:
            raise _too_hard("logic", budget.passes) from None
        graded, _complete = _grade(grid, result.steps, solved=result.solved, passes=budget.passes)
        solved, reached = result.solved, result.grid
    else:
        logic = variant_logic_solve(rules, grid, explain=False)
        graded = variant_grade_of(logic)
        solved, reached = logic.solved, logic.grid
    out["level"] = graded.level
    out["hardest"] = graded.hardest or None
    if out["hardest"]:
        out["hardest_name"] = technique_name({"technique": out["hardest"]})
    out["solved_by_logic"] = solved
    if not solved:
        out["stall"] = {
            "grid": format_line(reached),
            "placed": reached.clues - grid.clues,
            "empty": shape.ncells - reached.clues,
        }
    if solve:
        out["solution"] = format_line(found[0])
    return out
