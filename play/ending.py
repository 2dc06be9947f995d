"""What happens once a game has ended (completed, lost or abandoned).

``game_ended`` is called exactly once per game, inside the transaction of the write that
ended it and only after that write succeeded (play.steps.save), so a retried or racing
ending cannot run it twice, and whatever it writes lands with the ending or not at all.
Each consequence of a game's end (ratings, integrity checks, replay analysis) is one call
here.
"""

from __future__ import annotations

from integrity.gate import game_standing_settle
from replays.services import analysis_enqueue, analysis_skip

from .limits import analysis_allow
from .models import Game


def game_ended(game: Game) -> None:
    """Run what follows the end of ``game`` (its status is completed, lost or abandoned)."""
    # The gate reviews a completed game, weighs the player's recent games
    # (integrity.players), decides whether it counts and rates it if so: a game flagged
    # implausible, or a held player's, moves no rating until staff clear it.
    game_standing_settle(game=game, evaluate=True)
    if analysis_allow(user_id=game.user_id, guest_key=game.guest_key):
        analysis_enqueue(game_id=game.pk)
    else:  # more games ended this hour than a person finishes: the worker is spared
        analysis_skip(game_id=game.pk)
