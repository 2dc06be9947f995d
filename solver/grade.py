"""Grading: a level and a score from the steps the logic engine needed, the way HoDoKu does.

The logic engine (:func:`solver.logic.logic_solve`) solves the puzzle, easiest technique
first. The **level** is the level of the hardest technique it used; the **score** is the sum
of the technique scores over every step, plus a length bonus for chains. A puzzle the
engine cannot finish is ``master``: the grader then goes on by trial and error
(:mod:`solver.techniques.forcing`: the candidate whose assumption, followed by the naked
singles it forces, contradicts soonest is removed, then the techniques resume) and every
such trial adds to the score, so master puzzles are ordered too. When no trial contradicts,
or the grid is larger than 9x9 (where a round of trials costs too much), the grader places
the solution's value in the cell with the fewest candidates (a guess) and charges a trial of
length ``GUESS_LENGTH``.

=====================  ===========================  ======  =====  ======================
slug                   technique                    level   score  bonus per extra cell
=====================  ===========================  ======  =====  ======================
full_house             Full House                   easy        3
naked_single           Naked Single                 easy        2
hidden_single          Hidden Single                easy       10
pointing               Pointing                     medium     60
claiming               Claiming                     medium     60
naked_pair             Naked Pair                   medium     15
hidden_pair            Hidden Pair                  medium     55
naked_triple           Naked Triple                 medium     25
hidden_triple          Hidden Triple                hard       80
x_wing                 X-Wing                       hard       60
xy_wing                XY-Wing                      hard       60
xyz_wing               XYZ-Wing                     hard       60
unique_rectangle_1     Unique Rectangle Type 1      hard       80
unique_rectangle_2     Unique Rectangle Type 2      hard       80
unique_rectangle_4     Unique Rectangle Type 4      hard       60
naked_quad             Naked Quad                   hard      150
hidden_quad            Hidden Quad                  hard      150
bug_plus_one           BUG+1                        hard      250
skyscraper             Skyscraper                   hard       60
two_string_kite        2-String Kite                hard       60
w_wing                 W-Wing                       hard      400
simple_colouring       Simple Colouring             hard       60
swordfish              Swordfish                    expert    400
jellyfish              Jellyfish                    expert    750
x_chain                X-Chain                      expert    400     0 (beyond 3)
xy_chain               XY-Chain                     expert    400   900 (beyond 3)
alternating_chain      Alternating Inference Chain  expert    400  1500 (beyond 3)
search                 Trial and Error              master   4500   900 per placement
=====================  ===========================  ======  =====  ======================

How the scores were set: the levels follow the usual human order (singles; locked
candidates and small subsets; wings, fish, uniqueness and colouring; long fish and chains;
search). The scores inside each level band were fitted to order puzzles like Sukaku
Explainer's ratings: on the even lines of ``se_rated_diabolical.txt``, checked on the odd
lines (``python -m bench`` reports the Spearman rank correlation). That fit is why some
techniques score low for their level: SE rates X-Wing, XY-Wing and unique rectangles low,
and rates a puzzle by its hardest step, so the long chains and trials dominate the sum.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from solver.grid import BudgetExceeded, Grid
from solver.logic import MultipleSolutions, NoSolution, hardest_of, run
from solver.search import solutions
from solver.techniques import BY_SLUG, LEVELS, ORDER
from solver.techniques.base import Board, Step
from solver.techniques.forcing import shortest_contradiction, trial_step

__all__ = ["LEVELS", "TECHNIQUES", "Grade", "grade", "step_score"]

SEARCH = ("Trial and Error", "master", 4500)
SEARCH_BONUS = 900
GUESS_LENGTH = 20
TRIAL_MAX_SIZE = 9  # above 9x9 a trial round costs too much: the grader guesses instead
CHAIN_BONUS = {"x_chain": 0, "xy_chain": 900, "alternating_chain": 1500}
CHAIN_FREE_CELLS = 3

TECHNIQUES: dict[str, tuple[str, str, int]] = {t.slug: (t.name, t.level, t.score) for t in ORDER}
TECHNIQUES["search"] = SEARCH


@dataclass(frozen=True, slots=True)
class Grade:
    """A puzzle's level and score, the hardest technique and how often each was used."""

    level: str
    score: int
    hardest: str
    techniques: dict[str, int] = field(default_factory=dict)
    solved_by_logic: bool = True


def step_score(step: Step, length: int = 0) -> int:
    """The score of one step: its technique's score plus any chain or trial bonus."""
    if step.technique == "search":
        return SEARCH[2] + SEARCH_BONUS * length
    score = TECHNIQUES[step.technique][2]
    bonus = CHAIN_BONUS.get(step.technique)
    if bonus:
        score += bonus * max(0, len(step.cells) - CHAIN_FREE_CELLS)
    return score


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
    steps, passes = run(board, budget=budget)
    score = sum(step_score(s) for s in steps)
    solved_by_logic = board.is_solved()
    searches = 0
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
        searches += 1
        score += SEARCH[2] + SEARCH_BONUS * length
        more, used = run(board, budget=None if budget is None else budget - passes)
        passes += used
        steps.extend(more)
        score += sum(step_score(s) for s in more)
    if not searches:
        return grade_of_steps(steps)
    uses = Counter(s.technique for s in steps)
    uses["search"] = searches
    return Grade(
        level="master",
        score=score,
        hardest="search",
        techniques=dict(uses),
        solved_by_logic=solved_by_logic,
    )


def grade_of_steps(steps: list[Step]) -> Grade:
    """The grade of a puzzle the logic engine solved with ``steps``, no search needed.

    Lets a caller that already ran :func:`~solver.logic.logic_solve` to the end grade the
    puzzle without running the logic engine a second time.
    """
    hardest = hardest_of(steps) or ""
    return Grade(
        level=BY_SLUG[hardest].level if hardest else LEVELS[0],
        score=sum(step_score(s) for s in steps),
        hardest=hardest,
        techniques=dict(Counter(s.technique for s in steps)),
        solved_by_logic=True,
    )


def _guess(board: Board, solution: Grid) -> None:
    """Place the solution's value in the open cell with the fewest candidates."""
    cand = board.cand
    cell = min(board.empty_cells(), key=lambda c: (cand[c].bit_count(), c))
    if not board.place(cell, solution.cells[cell]):
        raise NoSolution("the puzzle has no solution")
