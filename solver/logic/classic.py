"""The human-style logic engine: one step at a time, easiest technique first.

The engine works on a :class:`~solver.logic.techniques.base.Board`: the placed values and, for
each empty cell, the candidates left by its row, column and box and by the eliminations
made so far. At each step it tries the techniques of :data:`solver.logic.techniques.ORDER`
(singles, locked candidates, subsets, fish, wings, unique rectangle, colouring, chains) from
the easiest and applies the first step found, except among the chains, loops and ALS-XZ
(:data:`solver.logic.rating.CHOSEN`): there, as Sukaku Explainer does, the lowest-rated step any
of them has is taken (:func:`solver.logic.rating.cheapest`). Every technique works on any box
shape; the rows, columns and boxes come from :func:`solver.grid.tables`.

:func:`logic_solve` solves a whole puzzle. It takes the singles in batches (one scan finds
every full house, then every naked single, then every hidden single, and each is reported as
its own step; on a board with a solution each stays true when applied), and falls through to
a harder technique only when no single is left. It does not look at the solution: when no
technique applies it stops with ``solved=False``; a contradiction (a cell with no candidate)
stops it the same way. Unique rectangles assume the puzzle has one solution.

:func:`next_step` hints from a player's position, in this order:

1. the puzzle is solved by search first (unless the caller passes its known solution): no
   solution raises :class:`NoSolution`, two raise :class:`MultipleSolutions`;
2. entries that differ from the solution give an ``incorrect_entry`` step naming the cells
   (never the right value), so the engine never reasons from a broken board;
3. a solved board gives None;
4. the candidates are computed from the board (givens and entries). The player's notes for
   a cell, when the cell has any, are checked against the solution: notes that leave out the
   cell's value give an ``incorrect_note`` step naming the cells. Otherwise the notes narrow
   that cell's candidates (the player has already ruled those values out), so the hint
   starts where the player is; notes never add a candidate the board rules out;
5. the first step of the easiest technique that applies (among the chains, the lowest
   rated); if none does, a ``search`` step:
   the trial (assume a candidate, fill in the singles that follow) that reaches a
   contradiction soonest, which removes that candidate; if no trial does, the solution's
   value in the open cell with the fewest candidates.

``budget`` caps the technique passes (one technique tried on one position is a pass; a batch
of singles is one pass; a round of trials is one pass per candidate it may try) and raises
:class:`~solver.grid.BudgetExceeded` when used up;
:func:`next_step` passes the same number to the search as its node budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from solver.grid import BudgetExceeded, Grid, Shape
from solver.logic.rating import CHOSEN, cheapest
from solver.logic.techniques import BY_SLUG, LEVELS, ORDER, SINGLES, Technique
from solver.logic.techniques.base import Board, Step, mask_of
from solver.logic.techniques.forcing import shortest_contradiction, trial_step
from solver.search.exact import solutions

__all__ = [
    "LogicResult",
    "MultipleSolutions",
    "NoSolution",
    "Step",
    "harder_step",
    "logic_solve",
    "next_step",
    "techniques_up_to",
]


class NoSolution(ValueError):
    """The puzzle has no solution (its givens clash or lead to a contradiction)."""


class MultipleSolutions(ValueError):
    """The puzzle has more than one solution, so no logical path is guaranteed."""


@dataclass(frozen=True, slots=True)
class LogicResult:
    """What :func:`logic_solve` reached: the steps, whether it finished, the position."""

    steps: list[Step]
    solved: bool
    grid: Grid
    hardest: str | None = None
    passes: int = field(default=0, compare=False)


def techniques_up_to(max_level: str | None) -> tuple[Technique, ...]:
    """The techniques at or below ``max_level`` (all of them for None), easiest first."""
    if max_level is None:
        return ORDER
    if max_level not in LEVELS:
        raise ValueError(f"unknown level {max_level!r}: use one of {', '.join(LEVELS)}")
    top = LEVELS.index(max_level)
    return tuple(t for t in ORDER if LEVELS.index(t.level) <= top)


def hardest_of(steps: list[Step]) -> str | None:
    """The slug of the hardest technique among ``steps`` (by level, then score)."""
    best: tuple[int, int] | None = None
    slug = None
    for step in steps:
        t = BY_SLUG.get(step.technique)
        if t is None:
            continue
        key = (LEVELS.index(t.level), t.score)
        if best is None or key > best:
            best, slug = key, t.slug
    return slug


class _Passes:
    """Counts technique passes against a budget."""

    __slots__ = ("budget", "count")

    def __init__(self, budget: int | None) -> None:
        self.budget = budget
        self.count = 0

    def tick(self, cost: int = 1) -> None:
        self.count += cost
        if self.budget is not None and self.count > self.budget:
            raise BudgetExceeded(f"the logic engine used its budget of {self.budget} passes")


def run(
    board: Board,
    techniques: tuple[Technique, ...] = ORDER,
    *,
    budget: int | None = None,
    steps: list[Step] | None = None,
) -> tuple[list[Step], int]:
    """Apply steps to ``board`` (in place) until it is solved or no technique applies."""
    passes = _Passes(budget)
    out: list[Step] = [] if steps is None else steps
    singles = [t for t in techniques if t.slug in SINGLES]
    harder = [t for t in techniques if t.slug not in SINGLES]
    values = board.values
    while 0 in values:
        progressed = False
        for tech in singles:
            passes.tick()
            for step in tech.find(board):
                if not board.apply(step):
                    break  # only on a board with no solution
                out.append(step)
                progressed = True
            if progressed:
                break
        if progressed:
            continue
        found = harder_step(board, harder, passes=passes)
        if found is None:
            break
        board.apply(found)
        out.append(found)
    return out, passes.count


def harder_step(
    board: Board, techniques: Sequence[Technique] = ORDER, *, passes: _Passes | None = None
) -> Step | None:
    """The engine's step on ``board`` from ``techniques``: the first step of the first one
    that has one, or when that is a chain (:data:`~solver.logic.rating.CHOSEN`) the lowest-rated
    first step among it and the later chain techniques; None when none applies."""
    tick = (passes or _Passes(None)).tick
    for i, tech in enumerate(techniques):
        tick()
        found = next(tech.find(board), None)
        if found is None:
            continue
        if found.technique not in CHOSEN:
            return found
        others = [
            (t.slug, partial(_first, t, board)) for t in techniques[i + 1 :] if t.slug in CHOSEN
        ]
        step, asked = cheapest(found, others)
        tick(asked)
        return step
    return None


def _first(technique: Technique, board: Board) -> Step | None:
    return next(technique.find(board), None)


def logic_solve(
    grid: Grid, *, max_level: str | None = None, budget: int | None = None
) -> LogicResult:
    """Solve ``grid`` step by step with the techniques up to ``max_level``, as far as they go.

    Raises :class:`NoSolution` when the givens clash. Does not check uniqueness (see the
    module docstring).
    """
    board = Board.from_grid(grid)
    if board is None:
        raise NoSolution("the givens clash: a value appears twice in a row, column or box")
    steps, passes = run(board, techniques_up_to(max_level), budget=budget)
    return LogicResult(
        steps=steps,
        solved=board.is_solved(),
        grid=board.grid(),
        hardest=hardest_of(steps),
        passes=passes,
    )


def solution_of(givens: Grid, *, budget: int | None = None) -> Grid:
    """The one solution of ``givens``; NoSolution or MultipleSolutions otherwise."""
    found = solutions(givens, limit=2, budget=budget)
    if not found:
        raise NoSolution("the puzzle has no solution")
    if len(found) > 1:
        raise MultipleSolutions("the puzzle has more than one solution")
    return found[0]


def _incorrect_entry(shape: Shape, entries: Grid, wrong: list[int]) -> Step:
    board = Board(shape, list(entries.cells), [0] * shape.ncells)
    if len(wrong) == 1:
        c = wrong[0]
        params: dict[str, object] = {"variant": "one", "value": entries.cells[c], "cell": c}
    else:
        params = {"variant": "many", "entries": [(c, entries.cells[c]) for c in wrong]}
    return board.step("incorrect_entry", "Incorrect Entry", params=params, cells=wrong)


def _incorrect_note(board: Board, wrong: list[int]) -> Step:
    return board.step(
        "incorrect_note",
        "Incorrect Note",
        params={"variant": "one" if len(wrong) == 1 else "many", "cells": wrong},
        cells=wrong,
    )


def _search_step(board: Board, solution: Grid) -> Step:
    """A trial that contradicts soonest; failing that, the solution's value in one cell."""
    trial = shortest_contradiction(board)
    if trial is not None:
        return trial_step(board, trial)
    cand = board.cand
    cell = min(board.empty_cells(), key=lambda c: (cand[c].bit_count(), c))
    v = solution.cells[cell]
    return board.step(
        "search",
        "Search",
        params={"variant": "solution", "cell": cell, "value": v},
        cells=(cell,),
        placements=((cell, v),),
    )


def _check_entries(givens: Grid, entries: Grid) -> None:
    if entries.shape != givens.shape:
        raise ValueError(
            f"the entries are a {entries.shape.label} grid but the puzzle is {givens.shape.label}"
        )
    for c, g in enumerate(givens.cells):
        if g and entries.cells[c] != g:
            raise ValueError("the entries must keep every given as it is")


def next_step(
    givens: Grid,
    entries: Grid | None = None,
    notes: dict[int, set[int]] | None = None,
    *,
    budget: int | None = None,
    solution: Grid | None = None,
    prefer: str | None = None,
) -> Step | None:
    """The next step from a player's position (see the module docstring for the order).

    A caller that stores the puzzle's solution (checked unique when the puzzle was saved)
    passes it as ``solution`` so that a hint does not search for it again. ``prefer`` names
    a technique (a practice game's) whose step comes first when it has one on the board.
    """
    shape = givens.shape
    if Board.from_grid(givens) is None:
        raise NoSolution("the givens clash: a value appears twice in a row, column or box")
    if solution is None:
        solution = solution_of(givens, budget=budget)
    elif solution.shape != shape:
        raise ValueError(
            f"the solution is a {solution.shape.label} grid but the puzzle is {shape.label}"
        )
    if entries is None:
        entries = givens
    _check_entries(givens, entries)
    sol = solution.cells
    wrong = [c for c, v in enumerate(entries.cells) if v and v != sol[c]]
    if wrong:
        return _incorrect_entry(shape, entries, wrong)
    if entries.is_complete():
        return None
    board = Board.from_grid(entries)
    assert board is not None  # every entry agrees with the solution
    if notes:
        n = shape.size
        wrong_notes = []
        for c, vals in sorted(notes.items()):
            if not 0 <= c < shape.ncells:
                raise ValueError(f"note for cell {c}: a {shape.label} grid has cells 0..")
            if any(not 1 <= v <= n for v in vals):
                raise ValueError(f"notes for {board.cell(c)} hold a value outside 1..{n}")
            if board.values[c] or not vals:
                continue
            if sol[c] not in vals:
                wrong_notes.append(c)
            else:
                board.restrict(c, mask_of(vals))
        if wrong_notes:
            return _incorrect_note(board, wrong_notes)
    passes = _Passes(budget)
    preferred = BY_SLUG.get(prefer) if prefer else None
    if preferred is not None:
        step = harder_step(board, (preferred,), passes=passes)
        if step is not None:
            return step
    step = harder_step(board, ORDER, passes=passes)
    if step is not None:
        return step
    passes.tick(sum(m.bit_count() for m in board.cand))  # one pass per candidate tried
    return _search_step(board, solution)
