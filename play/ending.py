"""What happens once a game has ended (completed, lost or abandoned).

``game_ended`` is called exactly once per game, inside the transaction of the write that
ended it and only after that write succeeded (play.steps.save), so a retried or racing
ending cannot run it twice, and whatever it writes lands with the ending or not at all.
Each consequence of a game's end (ratings, integrity checks, replay analysis) is one call
here.
"""

from __future__ import annotations

from integrity.players import player_evaluate
from integrity.services import game_review
from ratings.services import rating_record_game
from replays.services import analysis_enqueue

from .models import Game


def game_ended(game: Game) -> None:
    """Run what follows the end of ``game`` (its status is completed, lost or abandoned)."""
    # First: a game flagged as implausible moves no rating until staff clear it (the
    # clearing rates it then: integrity.services.review_decide).
    review = game_review(game=game)
    # Then the evidence across the player's games: a held player's games move no rating
    # until staff clear the player (integrity.players.player_review_decide rates them).
    held = (
        game.user_id is not None
        and game.ranked
        and player_evaluate(game=game, reviewed=review is not None)
    )
    if (review is None or not review.flagged) and not held:
        rating_record_game(game=game)
    analysis_enqueue(game_id=game.pk)
