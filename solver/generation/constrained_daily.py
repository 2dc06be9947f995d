"""A 9x9 puzzle with constraints at the level its kind reaches reliably: the daily puzzle
with constraints (the site's ``puzzles.constraint_daily`` picks the kind of the day).

Two builders draw a puzzle of a kind of :data:`~solver.generation.constrained.GENERATED`:

- ``minimal``, :func:`~solver.generation.constrained.make_constrained`: givens added where a
  second solution differs until there is none, so few givens and, often, a puzzle past the
  logic (``master``); what :func:`~solver.generation.constrained.generate_constrained` uses.
- ``logic``, :func:`~solver.generation.constrained_practice.logic_built`: givens added where
  the logic stalls until it finishes, then counted unique by the exact search.

Each kind reaches some levels often with one builder and never with the other: measured on
9x9 (12 seeds a kind), the minimal builder never made a non-consecutive or little killer
puzzle the logic finishes, while the logic builder made them easy (nine in ten) and easy,
medium or expert (three in ten each). :data:`DAILY_LEVELS` names, for each kind, a level and
the builder that reaches it in a quarter of the attempts or more (40 seeds a kind), with
the share and the slowest attempt measured; :func:`generate_daily_constrained` tries seeds
until one lands at that level.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from solver.generation.constrained import GENERATED, GradedConstrained, make_constrained
from solver.generation.constrained_practice import CHECK_BUDGET, logic_built
from solver.grid import BudgetExceeded, Shape
from solver.logic.grade import LEVELS
from solver.search.exact import count_solutions


@dataclass(frozen=True, slots=True)
class DailyLevel:
    level: str
    builder: str  # "minimal" or "logic"
    share: float  # the share of attempts that landed at the level (40 seeds, 9x9)
    slowest: float  # the slowest of those attempts, in seconds of CPU


DAILY_LEVELS: dict[str, DailyLevel] = {
    "thermometer": DailyLevel("easy", "minimal", 0.9, 0.07),
    "kropki": DailyLevel("medium", "logic", 0.35, 0.22),
    "antiking": DailyLevel("hard", "minimal", 0.25, 0.12),
    "arrow": DailyLevel("easy", "minimal", 0.7, 0.12),
    "little_killer": DailyLevel("medium", "logic", 0.25, 0.26),
    "xv": DailyLevel("easy", "minimal", 0.38, 0.21),
    "nonconsecutive": DailyLevel("easy", "logic", 0.68, 8.2),
    "antiknight": DailyLevel("expert", "minimal", 0.3, 1.9),
}
"""Each generated kind's daily level and the builder that reaches it (module docstring)."""
assert set(DAILY_LEVELS) == set(GENERATED)

DAILY_ATTEMPTS = 60
"""Seeds tried before giving up: at a quarter of attempts landing, all 60 miss once in 10^7."""


def _attempt(kind: str, shape: Shape, builder: str, seed: int) -> GradedConstrained:
    """One puzzle of ``kind`` by ``builder`` at its logic level (``master`` when the logic
    does not finish it, or a logic-built one has a second solution)."""
    from solver.logic.general import variant_logic_solve

    build = make_constrained if builder == "minimal" else logic_built
    made = build(kind, shape, seed)
    if made is None:
        raise ValueError(f"no {shape.size}x{shape.size} grid obeys {kind!r}")
    logic = variant_logic_solve(made.rules, made.puzzle, explain=False)
    finished = logic.solved and logic.grid == made.solution
    if finished and builder == "logic":  # the minimal builder made it unique already
        try:
            finished = (
                count_solutions(made.puzzle, limit=2, rules=made.rules, budget=CHECK_BUDGET) == 1
            )
        except BudgetExceeded:
            finished = False
    return GradedConstrained(made, logic.level if finished else "master", logic.hardest, 1)


def _distance(level: str, wanted: str) -> tuple[int, int]:
    return abs(LEVELS.index(level) - LEVELS.index(wanted)), LEVELS.index(level)


def generate_daily_constrained(
    kind: str,
    shape: Shape,
    seed: int,
    *,
    attempts: int = DAILY_ATTEMPTS,
    stop: Callable[[], bool] | None = None,
) -> GradedConstrained | None:
    """A unique puzzle of ``kind`` at its :data:`DAILY_LEVELS` level, from the seeds
    ``seed * 1000 + i``; when none of ``attempts`` lands there (or ``stop``, asked between
    attempts, says so), the one found nearest to it (the easier on a tie) that the logic
    finishes; None when there is none. Its ``level`` is the logic's, whichever it is."""
    wanted = DAILY_LEVELS[kind]
    nearest: GradedConstrained | None = None
    for i in range(attempts):
        if stop is not None and i and stop():
            break
        made = _attempt(kind, shape, wanted.builder, seed * 1000 + i)
        found = GradedConstrained(made.made, made.level, made.hardest, i + 1)
        if made.level == wanted.level:
            return found
        if made.level != "master" and (
            nearest is None
            or _distance(made.level, wanted.level) < _distance(nearest.level, wanted.level)
        ):
            nearest = found
    return nearest
