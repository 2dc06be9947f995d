"""Replay errors, in the API's one shape (see sudokusite.errors)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from sudokusite.errors import Conflict, NotFoundError


class GameNotFinished(Conflict):
    code = "game_not_finished"
    message = _("The game is still being played: its replay opens once it is over.")


class ReplayNotFound(NotFoundError):
    message = _("No such replay.")
