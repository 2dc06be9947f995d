"""A new puzzle's starting rating from its grader score: the grader is the prior.

    rating = 1500 + SPREAD x (ln(score) - m[N]) / s[N]        deviation PRIOR_DEVIATION

m[N] and s[N] are the mean and standard deviation of ln(score) over the bank's puzzles
of size N, so the bank's typical puzzle starts at 1500 and one standard deviation of
log-score is worth SPREAD points. The map is monotone in the score (s > 0). Fitted on the
shared data set with ``python -m bench ratings --fit`` (solver.grade over
qqwing_{simple,easy,intermediate,expert} for 9x9, gen_4x4_unique, gen_16x16_unique);
a size not fitted takes m interpolated between fitted sizes and s = DEFAULT_SD. s has
a floor (MIN_SD): the 4x4 bank's scores barely vary, and a tiny s would spread them
over hundreds of points on no evidence.
"""

from __future__ import annotations

import math

SPREAD = 300.0
PRIOR_DEVIATION = 250.0
DEFAULT_SD = 1.0
MIN_SD = 0.5
# size -> (mean, standard deviation) of ln(grader score), fitted on the bank.
FITTED = {
    4: (3.3009, 0.0690),
    9: (6.0041, 1.3046),
    16: (11.9231, 0.8005),
}


def _fit(size: int) -> tuple[float, float]:
    if size in FITTED:
        mean, sd = FITTED[size]
        return mean, max(sd, MIN_SD)
    sizes = sorted(FITTED)
    below = max((s for s in sizes if s < size), default=sizes[0])
    above = min((s for s in sizes if s > size), default=sizes[-1])
    if below == above:
        return FITTED[below][0], DEFAULT_SD
    share = (size - below) / (above - below)
    mean = FITTED[below][0] + share * (FITTED[above][0] - FITTED[below][0])
    return mean, DEFAULT_SD


def prior_rating(*, size: int, score: int) -> float:
    """The starting rating of a puzzle of ``size`` with this grader ``score``."""
    mean, sd = _fit(size)
    return 1500.0 + SPREAD * (math.log(max(score, 1)) - mean) / sd
