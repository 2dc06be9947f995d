"""Practice puzzles for the constraint lessons: a puzzle with constraints of one kind whose
logic solution uses a given step sentence (``constraint:thermometer``...).

:func:`make_constrained` adds givens until the exact search finds one solution, which often
leaves a puzzle past the logic (``master``). A practice puzzle is built the other way: givens
are added (from a random solution that obeys the constraints) where the variant logic
stalls, until the logic finishes, so the steps the constraints give come early and the
puzzle is easy or medium. It is then unique by two engines: the logic solved it to the
solution (its steps are sound), and the exact search counts one solution.

A whole-grid rule that makes peers (anti-knight, anti-king) gives no step of its own: its
sentence counts a single whose placement clears the value from a cell that only the rule
makes a peer, as the lesson shows it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from solver.generation.constrained import GENERATED, WHOLE_GRID, Constrained, draw_constraints
from solver.grid import BudgetExceeded, Grid, Shape
from solver.logic.general import SINGLES, variant_logic_solve
from solver.logic.houses import VBoard
from solver.logic.techniques.base import Step
from solver.rules.ruleset import Rules, layout
from solver.search.exact import count_solutions, random_solution

PRACTICE_ATTEMPTS = 12
"""Puzzles made before :func:`make_constrained_practice` gives up."""
PREFERRED_LEVELS = ("easy", "medium")
"""The levels a practice puzzle is kept at when an attempt reaches one; else the first
puzzle the logic finished at any level."""
CHECK_BUDGET = 200_000
"""Search nodes for the exact count on a puzzle the logic finished (a handful suffice)."""
PEER_KINDS = ("antiknight", "antiking")


@dataclass(frozen=True, slots=True)
class ConstrainedPractice:
    made: Constrained
    level: str
    hardest: str | None
    sentences: dict[str, int]  # "constraint:<variant>" -> uses on the logic's way
    attempts: int


def sentence_counts(rules: Rules, grid: Grid, steps: list[Step]) -> dict[str, int]:
    """How often each constraint sentence (``constraint:<variant>``) comes on the logic's
    way ``steps`` from ``grid``; a peers rule's counts the singles that clear its peers."""
    out: dict[str, int] = {}
    for step in steps:
        if step.technique == "constraint":
            key = f"constraint:{dict(step.params).get('variant')}"
            out[key] = out.get(key, 0) + 1
    peers = [con.kind for con in rules.constraints if con.kind in PEER_KINDS]
    if peers:
        used = _peer_clearing(rules, grid, steps)
        if used:
            out[f"constraint:{peers[0]}"] = used
    return out


def _peer_clearing(rules: Rules, grid: Grid, steps: list[Step]) -> int:
    board = VBoard.from_grid(rules, grid)
    assert board is not None
    plain = layout(Rules.classic(rules.shape)).peers
    full = layout(rules).peers
    count = 0
    for step in steps:
        if step.technique in SINGLES and step.placements:
            cell, value = step.placements[0]
            bit = 1 << (value - 1)
            mine = set(plain[cell])
            if any(
                c not in mine and not board.values[c] and board.cand[c] & bit for c in full[cell]
            ):
                count += 1
        board.apply(step)
    return count


def logic_built(kind: str, shape: Shape, seed: int | str) -> Constrained | None:
    """A puzzle with constraints of ``kind`` whose givens were added where the variant logic
    stalled until it finished; None when no grid of the size obeys the rule."""
    rng = random.Random(seed)
    whole = WHOLE_GRID.get(kind)
    base = Rules.make(shape, constraints=[whole()] if whole else ())
    try:
        solution = random_solution(shape, rng, rules=base)
    except ValueError:
        return None
    drawn = [] if whole else draw_constraints(kind, solution, rng)
    rules = Rules.make(shape, constraints=[*base.constraints, *drawn])
    cells = [0] * shape.ncells
    while True:
        logic = variant_logic_solve(rules, Grid(shape, tuple(cells)), explain=False)
        if logic.solved:
            return Constrained(rules, Grid(shape, tuple(cells)), solution)
        stalled = [c for c in range(shape.ncells) if not logic.grid.cells[c]]
        cell = rng.choice(stalled)
        cells[cell] = solution.cells[cell]


def make_constrained_practice(
    kind: str,
    shape: Shape,
    sentences: tuple[str, ...],
    *,
    seed: int | str = 0,
    attempts: int = PRACTICE_ATTEMPTS,
    stop: Callable[[], bool] | None = None,
) -> ConstrainedPractice | None:
    """A unique puzzle of ``kind`` (of :data:`GENERATED`) whose logic solution uses one of
    ``sentences`` (``constraint:<variant>``): at an easy or medium level when one of
    ``attempts`` (seeds ``<seed>:<i>``) reaches it, else the first the logic finished;
    None when none did. ``stop`` is asked between attempts; True gives up early."""
    if kind not in GENERATED:
        raise ValueError(f"{kind!r} puzzles are not made for practice")
    fallback: ConstrainedPractice | None = None
    for attempt in range(1, attempts + 1):
        if stop is not None and attempt > 1 and stop():
            break
        made = logic_built(kind, shape, f"{seed}:{attempt}")
        if made is None:
            return None
        logic = variant_logic_solve(made.rules, made.puzzle, explain=True)
        if not logic.solved or logic.grid != made.solution:
            continue
        counts = sentence_counts(made.rules, made.puzzle, logic.steps)
        if not any(s in counts for s in sentences) or not _unique(made):
            continue
        found = ConstrainedPractice(made, logic.level, logic.hardest, counts, attempt)
        if logic.level in PREFERRED_LEVELS:
            return found
        fallback = fallback or found
    return fallback


def _unique(made: Constrained) -> bool:
    """The exact search's word: one solution (the logic already found it)."""
    try:
        return count_solutions(made.puzzle, limit=2, rules=made.rules, budget=CHECK_BUDGET) == 1
    except BudgetExceeded:
        return False
