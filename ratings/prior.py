"""A new puzzle's starting rating from its grader score: the grader is the prior.

The grader's levels anchor the map. Each level has a target rating::

    easy 1200    medium 1500    hard 1750    expert 2000    master 2250

and for each size FITTED holds, per level, the median m[L] and standard deviation s[L]
of ln(grader score) over reference puzzles of that size (graded by the grader version
FITTED_FOR). A puzzle's rating is the straight line in ln(score) through the knots
(m[L], T[L]) of its size: the median puzzle of a level starts at its level's target, a
puzzle between two medians in between. Below the first knot and above the last the
rating moves WITHIN points per s[L] (s floored at MIN_SD: a level whose scores barely
vary must not spread them over hundreds of points), and every rating is clamped to
[FLOOR, CEILING]. The map is monotone in the score, as the knots rise with the levels.

A size with no fit of its own (the packs' 8x8 and 12x12, 25x25) takes the 9x9 knots:
a level names the same techniques at every size, and 9x9 is fitted on all five levels.

The fit belongs to the grader: FITTED_FOR is the grader version it was made with, and
tests/ratings/test_prior.py fails when solver.logic.grade.GRADER_VERSION moves on or when the
grader's medians on the reference sets drift from the table. Refit with
``python -m bench ratings --fit`` (docs/ratings.md).

A Diagonal, Jigsaw or Killer puzzle has no classic grader score: the variant logic
(solver.logic.general) gives it a level and a hardest technique, and
``variant_prior_rating`` starts it at its level's target, moved by at most
VARIANT_NUDGE by where its hardest technique sits among that level's techniques. A
starting point with no fit behind it: the puzzle's rated games then correct it.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Iterable

from solver.logic.general import ORDER as VARIANT_ORDER

LEVELS = ("easy", "medium", "hard", "expert", "master")
TARGETS = {"easy": 1200.0, "medium": 1500.0, "hard": 1750.0, "expert": 2000.0, "master": 2250.0}
PRIOR_DEVIATION = 250.0
WITHIN = 100.0
MIN_SD = 0.05
FLOOR, CEILING = 600.0, 3000.0
VARIANT_NUDGE = 50.0
"""Points a variant puzzle's prior moves either way from its level's target, by its
hardest technique: the level's first technique -VARIANT_NUDGE, its last +VARIANT_NUDGE
(half the gap between easy and medium, so the levels never overlap)."""
DEFAULT_SIZE = 9

LevelFit = tuple[float, float, int]
"""(median, standard deviation, count) of ln(score) over one level's reference puzzles."""

FITTED_FOR = 3
"""The grader version (solver.logic.grade.GRADER_VERSION) FITTED was made with."""

Fitted = dict[int, dict[str, LevelFit]]

# size -> level -> LevelFit; written by ``python -m bench ratings --fit``.
FITTED: Fitted = {
    4: {
        "easy": (7.8759, 0.0025, 100),
    },
    6: {
        "easy": (7.9043, 0.033, 100),
        "medium": (8.044, 0.0429, 100),
        "hard": (8.4235, 0.0229, 100),
    },
    9: {
        "easy": (7.9343, 0.0152, 2000),
        "medium": (8.0812, 0.0768, 1006),
        "hard": (8.4664, 0.0606, 528),
        "expert": (8.9508, 0.1059, 427),
        "master": (9.1303, 0.0169, 39),
    },
    16: {
        "easy": (8.003, 0.004, 30),
        "medium": (8.3364, 0.0639, 30),
        "hard": (8.5758, 0.0817, 30),
    },
}


def levels_fit(graded: Iterable[tuple[str, int]]) -> dict[str, LevelFit]:
    """The table row of one size from its reference puzzles' (level, score) pairs."""
    logs: dict[str, list[float]] = {}
    for level, score in graded:
        logs.setdefault(level, []).append(math.log(max(score, 1)))
    return {
        level: (
            round(statistics.median(logs[level]), 4),
            round(statistics.pstdev(logs[level]), 4),
            len(logs[level]),
        )
        for level in LEVELS
        if level in logs
    }


def knots(size: int, fitted: Fitted | None = None) -> list[tuple[float, float, float]]:
    """(median ln score, target rating, floored sd) per fitted level of ``size``, easiest
    first, from ``fitted`` (FITTED by default)."""
    fitted = FITTED if fitted is None else fitted
    table = fitted.get(size) or fitted[DEFAULT_SIZE]
    return [
        (table[level][0], TARGETS[level], max(table[level][1], MIN_SD))
        for level in LEVELS
        if level in table
    ]


def prior_rating(*, size: int, score: int, fitted: Fitted | None = None) -> float:
    """The starting rating of a puzzle of ``size`` with this grader ``score`` (by the
    table ``fitted``, FITTED by default: the bench's fit tries a new one)."""
    x = math.log(max(score, 1))
    points = knots(size, fitted)
    first, last = points[0], points[-1]
    if x <= first[0]:
        rating = first[1] + WITHIN * (x - first[0]) / first[2]
    elif x >= last[0]:
        rating = last[1] + WITHIN * (x - last[0]) / last[2]
    else:  # between two knots: x0 < x <= x1
        (x0, y0, _), (x1, y1, _) = next(p for p in itertools.pairwise(points) if x <= p[1][0])
        rating = y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return min(CEILING, max(FLOOR, rating))


def variant_prior_rating(*, level: str, hardest: str = "") -> float:
    """The starting rating of a variant puzzle stored at ``level`` whose hardest technique
    is ``hardest`` (a slug of solver.logic.general.ORDER; "" when unknown).

    The level's target (TARGETS), moved linearly from -VARIANT_NUDGE at the level's
    first technique in the variant logic's order to +VARIANT_NUDGE at its last. A hardest
    technique of another level (a master puzzle, which the techniques cannot finish)
    leaves the target."""
    rating = TARGETS.get(level, TARGETS["hard"])
    slugs = [t.slug for t in VARIANT_ORDER if t.level == level]
    if hardest in slugs and len(slugs) > 1:
        rating += VARIANT_NUDGE * (2 * slugs.index(hardest) / (len(slugs) - 1) - 1)
    return rating
