"""Replay errors, in the API's one shape (see sudokusite.errors)."""

from __future__ import annotations

from sudokusite.errors import Conflict, NotFoundError


class GameNotFinished(Conflict):
    code = "game_not_finished"
    message = "The game is still being played: its replay opens once it is over."


class ReplayNotFound(NotFoundError):
    message = "No such replay."
