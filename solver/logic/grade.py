"""Grading: a level and a score from the steps the logic engine needed.

The logic engine (:func:`solver.logic.classic.logic_solve`) solves the puzzle, easiest technique
first, and among the chains the lowest-rated step, as Sukaku Explainer (SE) does. The
**level** is the level of the hardest technique it used. The **score** weighs the hardest
step the way SE rates a puzzle, and adds the effort of the whole solve::

    score = round(1000 * (hardest rating + 0.1 * ln(1 + effort)))

where a step's *rating* is its rating on SE's scale (:func:`solver.logic.rating.step_rating`:
column "SE" below is the technique's figure, or the lowest an instance of a chain, loop or
ALS-XZ can get; chains gain SE's length bonus, a trial its placements from 2); and the
*effort* is the sum over the steps of the technique's effort (column "effort"), plus a
bonus per cell beyond 3 for XY-chains and AICs and per placement for a trial.
``docs/grading.md`` tells how the ratings and the weight were chosen and what they reach.

A puzzle the engine cannot finish is ``master``: the grader then goes on by trial and error
(:mod:`solver.logic.techniques.forcing`: the candidate whose assumption, followed by the naked
singles it forces, contradicts soonest is removed, then the techniques resume) and every
such trial is a step, so master puzzles are ordered too. When no trial contradicts, or the
grid is larger than 9x9 (where a round of trials costs too much), the grader places the
solution's value in the cell with the fewest candidates (a guess) and charges a trial of
length ``GUESS_LENGTH``. Before any of this the grid is checked to have exactly one
solution.

=======================  ===========================  ======  ======  ====  =================
slug                     technique                    level   effort  SE    effort per cell
=======================  ===========================  ======  ======  ====  =================
full_house               Full House                   easy         3  1.0
naked_single             Naked Single                 easy         2  2.3
hidden_single            Hidden Single                easy        10  1.5
pointing                 Pointing                     medium      60  2.6
claiming                 Claiming                     medium      60  2.8
naked_pair               Naked Pair                   medium      15  3.0
hidden_pair              Hidden Pair                  medium      55  3.4
naked_triple             Naked Triple                 medium      25  3.6
x_wing                   X-Wing                       medium      60  3.2
hidden_triple            Hidden Triple                hard        80  4.0
naked_quad               Naked Quad                   hard       150  5.0
hidden_quad              Hidden Quad                  hard       150  5.4
skyscraper               Skyscraper                   hard        60  4.0
two_string_kite          2-String Kite                hard        60  4.1
finned_x_wing            Finned X-Wing                hard       130  3.4
swordfish                Swordfish                    hard       400  3.8
xy_wing                  XY-Wing                      hard        60  4.2
xyz_wing                 XYZ-Wing                     hard        60  4.4
unique_rectangle_1       Unique Rectangle Type 1      hard        80  4.5
unique_rectangle_2       Unique Rectangle Type 2      hard        80  4.6
unique_rectangle_4       Unique Rectangle Type 4      hard        60  4.6
unique_rectangle_5       Unique Rectangle Type 5      hard       100  4.6
unique_rectangle_6       Unique Rectangle Type 6      hard       100  4.6
hidden_unique_rectangle  Hidden Unique Rectangle      hard       100  5.2
unique_rectangle_3       Unique Rectangle Type 3      hard       100  4.6
finned_swordfish         Finned Swordfish             hard       470  4.0
empty_rectangle          Empty Rectangle              hard       120  4.3
jellyfish                Jellyfish                    hard       750  5.2
sue_de_coq               Sue de Coq                   hard       250  4.8
bug_plus_one             BUG+1                        expert     250  5.6
simple_colouring         Simple Colouring             expert      60  5.35
x_cycle                  X-Cycle                      expert     400  5.4
x_chain                  X-Chain                      expert     400  4.0   0 (beyond 3)
w_wing                   W-Wing                       expert     400  7.1
xy_chain                 XY-Chain                     expert     400  6.6   900 (beyond 3)
als_xz                   ALS-XZ                       expert     300  4.6
nice_loop                Continuous Nice Loop         expert     400  6.5   1500 (beyond 3)
alternating_chain        Alternating Inference Chain  expert     400  6.6   1500 (beyond 3)
search                   Trial and Error              master    4500  7.5   900 per placement
=======================  ===========================  ======  ======  ====  =================
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from solver.grid import BudgetExceeded, Grid
from solver.logic.classic import MultipleSolutions, NoSolution, run
from solver.logic.rating import RATINGS, length_bonus, step_rating, trial_rating
from solver.logic.techniques import BY_SLUG, LEVELS, ORDER
from solver.logic.techniques.base import Board, Step
from solver.logic.techniques.forcing import shortest_contradiction, trial_step
from solver.search.exact import solutions

__all__ = [
    "GRADER_VERSION",
    "LEVELS",
    "RATINGS",
    "TECHNIQUES",
    "Grade",
    "grade",
    "grade_of_path",
    "length_bonus",
    "path_score",
    "path_step",
    "step_rating",
    "step_score",
]

GRADER_VERSION = 3
"""Raised whenever the techniques, the levels or the score change, so that a stored grade
made by an older grader can be found and graded again."""

SEARCH = ("Trial and Error", "master", 4500)
SEARCH_BONUS = 900
GUESS_LENGTH = 20
TRIAL_MAX_SIZE = 9  # above 9x9 a trial round costs too much: the grader guesses instead
CHAIN_BONUS = {"x_chain": 0, "xy_chain": 900, "alternating_chain": 1500, "nice_loop": 1500}
CHAIN_FREE_CELLS = 3

TECHNIQUES: dict[str, tuple[str, str, int]] = {t.slug: (t.name, t.level, t.score) for t in ORDER}
TECHNIQUES["search"] = SEARCH

EFFORT_WEIGHT = 0.1
SCORE_SCALE = 1000

PathStep = tuple[str, int, float]
"""One step of a way through a puzzle: (slug, size, rating). The size is the number of
cells of the step's pattern, or a trial's length."""


@dataclass(frozen=True, slots=True)
class Grade:
    """A puzzle's level and score, the hardest technique and how often each was used."""

    level: str
    score: int
    hardest: str
    techniques: dict[str, int] = field(default_factory=dict)
    solved_by_logic: bool = True


def step_score(step: Step, length: int = 0) -> int:
    """The effort of one step: its technique's score plus any chain or trial bonus."""
    return _effort(step.technique, length if step.technique == "search" else len(step.cells))


def _effort(slug: str, size: int) -> int:
    if slug == "search":
        return SEARCH[2] + SEARCH_BONUS * size
    score = TECHNIQUES[slug][2]
    bonus = CHAIN_BONUS.get(slug)
    if bonus:
        score += bonus * max(0, size - CHAIN_FREE_CELLS)
    return score


def path_step(step: Step) -> PathStep:
    """A logic step as a step of the way: (slug, cells of its pattern, rating)."""
    return step.technique, len(step.cells), step_rating(step)


def path_score(path: list[PathStep]) -> int:
    """The score of a way through a puzzle (see the module docstring).

    The hardest step's SE-scale rating, as SE rates a puzzle, plus the effort of the whole
    solve (the sum of the step efforts) on a log scale, times ``SCORE_SCALE``.
    """
    if not path:
        return 0
    hardest = max(rating for _, _, rating in path)
    effort = sum(_effort(slug, size) for slug, size, _ in path)
    return round(SCORE_SCALE * (hardest + EFFORT_WEIGHT * math.log1p(effort)))


def grade(grid: Grid, *, budget: int | None = None, solution: Grid | None = None) -> Grade:
    """Grade a puzzle with one solution (see the module docstring).

    The grid is checked first: clashing givens or no solution raise :class:`NoSolution`,
    more than one solution raises :class:`MultipleSolutions` (the error a hint gives), so a
    nearly empty grid is refused at once instead of being ground through by trial and
    error. A caller that knows the one solution passes it as ``solution`` to skip that
    search.

    ``budget`` caps the uniqueness search (as nodes) and the technique passes, and raises
    :class:`~solver.grid.BudgetExceeded` naming that budget when used up. A trial may
    assume every candidate left on the board, so it counts one pass per candidate: the
    budget then bounds the work, not just the number of trials.
    """
    board = Board.from_grid(grid)
    if board is None:
        raise NoSolution("the givens clash: a value appears twice in a row, column or box")
    if solution is None:
        found = solutions(grid, limit=2, budget=budget)
        if not found:
            raise NoSolution("the puzzle has no solution")
        if len(found) > 1:
            raise MultipleSolutions("the puzzle has more than one solution")
        solution = found[0]
    try:
        return _grade_board(board, solution, budget)
    except BudgetExceeded:
        raise BudgetExceeded(f"the grader used its budget of {budget} passes") from None


def _grade_board(board: Board, solution: Grid, budget: int | None) -> Grade:
    """Grade the unique-solution ``board`` in place (budget errors are reworded above)."""
    path, solved_by_logic = solve_path(board, solution, budget)
    return grade_of_path(path, solved_by_logic=solved_by_logic)


def grade_of_path(path: list[PathStep], *, solved_by_logic: bool = True) -> Grade:
    """The grade of a way through a puzzle: (slug, size, rating) for every step, in order."""
    uses = Counter(slug for slug, _, _ in path)
    if "search" in uses:
        level, hardest = "master", "search"
    else:
        hardest = max(uses, key=_level_key, default="")
        level = BY_SLUG[hardest].level if hardest else LEVELS[0]
    return Grade(
        level=level,
        score=path_score(path),
        hardest=hardest,
        techniques=dict(uses),
        solved_by_logic=solved_by_logic,
    )


def solve_path(
    board: Board, solution: Grid, budget: int | None = None
) -> tuple[list[PathStep], bool]:
    """The grader's way through ``board`` (solved in place) and whether logic alone did it."""
    steps, passes = run(board, budget=budget)
    path = [path_step(s) for s in steps]
    solved_by_logic = board.is_solved()
    while not board.is_solved():
        trying = board.t.n <= TRIAL_MAX_SIZE
        # a round of trials tries every candidate: it costs one pass per candidate
        passes += sum(m.bit_count() for m in board.cand) if trying else 1
        if budget is not None and passes > budget:
            raise BudgetExceeded(f"the grader used its budget of {budget} passes")
        trial = shortest_contradiction(board, hidden=False) if trying else None
        if trial is not None:
            board.apply(trial_step(board, trial))
            length = trial.length
        else:
            _guess(board, solution)
            length = GUESS_LENGTH
        path.append(("search", length, trial_rating(length)))
        more, used = run(board, budget=None if budget is None else budget - passes)
        passes += used
        path.extend(path_step(s) for s in more)
    return path, solved_by_logic


def grade_of_steps(steps: list[Step]) -> Grade:
    """The grade of a puzzle the logic engine solved with ``steps``, no search needed.

    Lets a caller that already ran :func:`~solver.logic.classic.logic_solve` to the end grade the
    puzzle without running the logic engine a second time.
    """
    return grade_of_path([path_step(s) for s in steps])


def _level_key(slug: str) -> tuple[int, int]:
    technique = BY_SLUG[slug]
    return LEVELS.index(technique.level), technique.score


def _guess(board: Board, solution: Grid) -> None:
    """Place the solution's value in the open cell with the fewest candidates."""
    cand = board.cand
    cell = min(board.empty_cells(), key=lambda c: (cand[c].bit_count(), c))
    if not board.place(cell, solution.cells[cell]):
        raise NoSolution("the puzzle has no solution")
