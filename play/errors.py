"""The rules of play that say no, as API errors (see sudokusite.errors)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import status

from sudokusite.errors import Conflict, DomainError, NotFoundError

if TYPE_CHECKING:
    from .models import Game


class GameNotFound(NotFoundError):
    message = _("No such game.")


class NoPuzzleAvailable(NotFoundError):
    code = "no_puzzle_available"
    message = _("There is no puzzle of that size and difficulty yet.")


class MoveRejected(Conflict):
    """The move breaks a rule of the game (a given cell, nothing to undo...)."""

    code = "move_rejected"
    message = _("That move is not allowed.")


class GameFinished(Conflict):
    code = "game_finished"
    message = _("The game is over: it accepts no more moves.")


class GamePaused(Conflict):
    code = "game_paused"
    message = _("The game is paused: resume it first.")


class HintUnavailable(Conflict):
    code = "hint_unavailable"
    message = _("No hint can be given for this position.")


class StaleVersion(Conflict):
    """The client saw an older version; the API adds the current game under ``error.game``."""

    code = "stale_version"
    message = _("The game has changed since that version.")

    def __init__(self, game: Game, expected: int, **kwargs: Any) -> None:
        super().__init__(
            gettext(
                "The game is at version %(version)s, not %(expected)s: "
                "refresh it and send the move again."
            )
            % {"version": game.version, "expected": expected},
            extra={"version": game.version},
            **kwargs,
        )
        self.game = game


class TooManyMoves(Conflict):
    """The game has had as many writes as its grid allows (settings.GAME_MOVES_PER_CELL)."""

    code = "too_many_moves"
    message = _("This game has had as many moves as it may: give it up and start another.")

    def __init__(self, allowed: int) -> None:
        super().__init__(
            gettext(
                "This game has had %(allowed)s moves, as many as a game of its size may: "
                "give it up and start another."
            )
            % {"allowed": allowed},
            extra={"moves_allowed": allowed},
        )


class IdempotencyConflict(DomainError):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    code = "idempotency_conflict"
    message = _("That client_move_id was already used for a different move.")
