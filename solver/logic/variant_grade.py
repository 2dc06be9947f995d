"""Grading a puzzle of any rules: a level and a score from the steps the variant logic needed.

One rule for every rule set, the classic's (:mod:`solver.logic.grade`): the **level** is the
level of the hardest technique :func:`solver.logic.general.variant_logic_solve` used, and a
puzzle its techniques cannot finish is ``master``. The number of givens plays no part: a
Killer without givens that the easy techniques finish is easy. So ``expert`` always means
the techniques finish the puzzle, and a hint explains every step of it.

The **score** weighs the hardest step and the work as the classic's does::

    score = round(1000 * (hardest rating + 0.1 * ln(1 + effort)))

with the classic's SE-scale ratings and efforts for the techniques it shares, and those of
:data:`KILLER_TECHNIQUES` for Killer's own. A master puzzle's hardest rating is the
classic's trial and error (7.5), so master scores above every finished puzzle of the same
work. ``docs/grading.md`` has the table.
"""

from __future__ import annotations

import math

from solver.grid import Grid
from solver.logic.general import VariantLogicResult, variant_logic_solve
from solver.logic.grade import Grade
from solver.logic.rating import RATINGS
from solver.logic.techniques import BY_SLUG as CLASSIC_BY_SLUG
from solver.rules.ruleset import Rules

__all__ = [
    "KILLER_TECHNIQUES",
    "VARIANT_GRADER_VERSION",
    "variant_grade",
    "variant_grade_of",
]

VARIANT_GRADER_VERSION = 5
"""Raised whenever the variant techniques, levels or score change, so that a stored variant
grade made by an older grader is graded again (:mod:`puzzles.regrade`). Variant rows stored
before it existed carry the classic's version (3), which this is past."""

KILLER_TECHNIQUES: dict[str, tuple[float, int]] = {
    "cage_combination": (2.0, 10),
    "innies_outies": (2.6, 60),
    "cage_house": (2.8, 60),
    "killer_pair": (3.0, 70),
    "innies_outies_large": (3.6, 120),
    "cage_split": (3.8, 150),
    "hidden_cage": (3.8, 150),
    "killer_triple": (4.0, 200),
    "house_combination": (4.4, 300),
}
"""Killer's own techniques: (rating on SE's scale, effort). A cage's combinations are read
at a glance, between a hidden and a naked single; the 45 rule and a cage's values locked
in a house take a look like pointing and claiming; a killer pair is a naked pair of
cages; a sum of four cells or more, a split cage, a hidden cage and a killer triple take
the work of a hard subset; house combinations (every cage crossing a house, filled
together) take the work of a short chain."""

TRIAL_RATING = RATINGS["search"]
TRIAL_EFFORT = 4500
EFFORT_WEIGHT = 0.1
SCORE_SCALE = 1000


def technique_rating(slug: str) -> float:
    """A technique's rating on SE's scale (the classic's, or Killer's own)."""
    if slug in KILLER_TECHNIQUES:
        return KILLER_TECHNIQUES[slug][0]
    return RATINGS.get(slug, TRIAL_RATING)


def technique_effort(slug: str) -> int:
    """A technique's effort on the classic's scale (the classic's, or Killer's own)."""
    if slug in KILLER_TECHNIQUES:
        return KILLER_TECHNIQUES[slug][1]
    t = CLASSIC_BY_SLUG.get(slug)
    return t.score if t is not None else TRIAL_EFFORT


def variant_grade_of(result: VariantLogicResult) -> Grade:
    """The grade of a solve :func:`variant_logic_solve` made (see the module docstring)."""
    uses = dict(result.techniques)
    effort = sum(technique_effort(slug) * count for slug, count in uses.items())
    ratings = [technique_rating(slug) for slug in uses]
    if not result.solved:
        ratings.append(TRIAL_RATING)
        effort += TRIAL_EFFORT
    hardest_rating = max(ratings, default=0.0)
    score = round(SCORE_SCALE * (hardest_rating + EFFORT_WEIGHT * math.log1p(effort)))
    level = result.level if result.solved else "master"
    return Grade(
        level=level,
        score=score,
        hardest=result.hardest or "",
        techniques=uses,
        solved_by_logic=result.solved,
    )


def variant_grade(rules: Rules, grid: Grid) -> Grade:
    """Grade ``grid`` under ``rules`` (a puzzle with one solution) by the variant logic."""
    return variant_grade_of(variant_logic_solve(rules, grid, explain=False))
