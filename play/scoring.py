"""The score of a completed game, computed once by the server when the game completes.

    base     = BASE[level] x (N x N / 81)                       (a 4x4 is worth a fifth of a 9x9)
    par      = PAR_SECONDS[level] x (N x N / 81)
    time     = clamp(2 x par / (par + seconds), 0.5, 1.5)       (1.0 at par, 1.5 at a third of it)
    penalty  = 10% per mistake + 5% per hint stage + 10% per aid
    score    = max(round(base x time x (1 - penalty)), round(base / 10), 1)

So a hard 9x9 solved in 20 minutes with no help scores 3000; the same game with one
mistake and a full three-stage hint scores 3000 x 0.75 = 2250; nothing scores below a tenth
of its base.
"""

from __future__ import annotations

BASE = {"easy": 1000, "medium": 2000, "hard": 3000, "expert": 4500, "master": 6000}
PAR_SECONDS = {"easy": 300, "medium": 600, "hard": 1200, "expert": 2100, "master": 3600}
MISTAKE_PENALTY = 0.10
HINT_STAGE_PENALTY = 0.05
AID_PENALTY = 0.10
TIME_FACTOR_MIN = 0.5
TIME_FACTOR_MAX = 1.5
FLOOR_FRACTION = 0.10


def time_factor(*, par_seconds: float, seconds: float) -> float:
    """1.0 at par, rising to 1.5 for fast solves and falling to 0.5 for slow ones."""
    factor = 2 * par_seconds / (par_seconds + max(0.0, seconds))
    return min(TIME_FACTOR_MAX, max(TIME_FACTOR_MIN, factor))


def game_score(
    *, difficulty: str, size: int, elapsed_ms: int, mistakes: int, hint_stages: int, aids: int = 0
) -> int:
    """The score for a completed game (see the module docstring for the formula)."""
    cells = size * size / 81
    base = BASE.get(difficulty, BASE["master"]) * cells
    par = PAR_SECONDS.get(difficulty, PAR_SECONDS["master"]) * cells
    penalty = MISTAKE_PENALTY * mistakes + HINT_STAGE_PENALTY * hint_stages + AID_PENALTY * aids
    raw = base * time_factor(par_seconds=par, seconds=elapsed_ms / 1000) * max(0.0, 1 - penalty)
    return max(round(raw), round(base * FLOOR_FRACTION), 1)
