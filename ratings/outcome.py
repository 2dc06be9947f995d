"""The outcome of a game, a number in [0, 1], from facts the server holds alone.

A game is a match between a player and a puzzle: the player "wins" by solving fast and
cleanly. The server's facts are the solve time on its own clock, the mistakes it judged,
the hint stages and aids it handed out, and how the game ended. Nothing the client says
enters here.

    base(N)   = 600 s x (N*N / 81) ** 1.5       the time at which a player and a puzzle
                                                 of equal rating are an even match
    T_pred    = base(N) x exp((R_puzzle - R_player) / (ALPHA x 173.7178))
                                                 the time the puzzle's rating predicts for
                                                 the player's rating
    time      = 1 / (1 + (t / T_pred) ** ALPHA x exp(-(R_player - R_puzzle) / 173.7178))
              = 1 / (1 + (t / base(N)) ** ALPHA)
    help      = (1 - min(1, hint_stages / (3 x empty_cells))) x HINT_STAGE ** hint_stages
                x AID ** aids
    outcome   = time x MISTAKE ** mistakes x help          for a completed game
              = 0                                          lost or abandoned

At t = T_pred the time term equals Glicko-2's expected score of the player against the
puzzle, so solving faster than predicted raises the player's rating (and lowers the
puzzle's), slower lowers it. The ratings cancel out of the second form: the outcome is a
fixed function of the time, which Glicko-2 then compares with its expectation. A puzzle
solved entirely by hints (three stages for every empty cell) scores 0, as does a game
lost at the mistake limit or abandoned (abandoning must not dodge a bad result).
"""

from __future__ import annotations

import math

from .glicko2 import SCALE

# Seconds for an even match on a 9x9; other sizes scale by cells ** 1.5.
BASE_SECONDS_9 = 600.0
# How sharply time decides: a factor e in time is ALPHA x 173.7 rating points.
ALPHA = 1.5
MISTAKE = 0.85
HINT_STAGE = 0.93
AID = 0.9
STAGES_PER_CELL = 3


def base_seconds(size: int) -> float:
    """The time of an even match at this size."""
    return BASE_SECONDS_9 * (size * size / 81) ** 1.5


def predicted_seconds(*, size: int, player_rating: float, puzzle_rating: float) -> float:
    """The solve time the puzzle's rating predicts for the player's rating."""
    return base_seconds(size) * math.exp((puzzle_rating - player_rating) / (ALPHA * SCALE))


def time_outcome(*, size: int, seconds: float) -> float:
    """1 for an instant solve, 0.5 at ``base_seconds``, towards 0 for a slow one."""
    ratio = max(seconds, 0.0) / base_seconds(size)
    return 1.0 / (1.0 + ratio**ALPHA)


def game_outcome(
    *,
    completed: bool,
    size: int,
    elapsed_ms: int,
    mistakes: int,
    hint_stages: int,
    aids: int,
    empty_cells: int,
) -> float:
    """The game's outcome for the player, in [0, 1] (module docstring)."""
    if not completed:
        return 0.0
    shown = min(1.0, hint_stages / max(1, STAGES_PER_CELL * empty_cells))
    help_factor = (1.0 - shown) * HINT_STAGE**hint_stages * AID**aids
    value = time_outcome(size=size, seconds=elapsed_ms / 1000) * MISTAKE**mistakes * help_factor
    return min(1.0, max(0.0, value))
