"""Reads for replays: a finished game of the caller's, a shared one, and its event log."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet

from play.errors import GameNotFound
from play.models import Game, Move
from solving.steps import techniques_localized

from .errors import GameNotFinished, ReplayNotFound
from .models import GameAnalysis, ReplayShare

if TYPE_CHECKING:  # play.ending calls this app: no import of play's services back
    from play.steps import Player

# A game has a few hundred events; the cap only bounds the query for a pathological log.
MAX_EVENTS = 20_000
# secrets.token_urlsafe's alphabet; anything else (or too long) is a 404 without a query.
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{16,64}")

EVENT_FIELDS = ("seq", "kind", "cell", "value", "correct", "changes", "elapsed_ms", "created")


def _games() -> QuerySet[Game]:
    return Game.objects.select_related("puzzle", "analysis", "replay_share")


def finished_game_get(*, game_id: int, player: Player) -> Game:
    """The player's finished game; 404 for another player's, 409 while it is being played."""
    game = _games().filter(player.owns(), pk=game_id).first()
    if game is None:
        raise GameNotFound()
    if not game.is_finished:
        raise GameNotFinished()
    return game


def shared_game_get(*, token: str) -> Game:
    """The game shared under ``token``; 404 for a malformed, unknown or unshared token."""
    if not TOKEN_RE.fullmatch(token or ""):
        raise ReplayNotFound()
    share = (
        ReplayShare.objects.select_related(
            "game__puzzle", "game__user", "game__analysis", "game__replay_share"
        )
        .filter(token=token)
        .first()
    )
    if share is None or not share.game.is_finished:
        raise ReplayNotFound()
    return share.game


def event_list(*, game: Game) -> list[dict[str, Any]]:
    """The game's events in order, with their game time (``elapsed_ms``) and wall time.

    Logs written before every write had its clock (``elapsed_ms`` 0 throughout) get their
    game time from the wall time, capped at the game's clock.
    """
    rows = list(Move.objects.filter(game=game).order_by("seq").values(*EVENT_FIELDS)[:MAX_EVENTS])
    start = game.created
    legacy = bool(rows) and game.elapsed_ms > 0 and not any(r["elapsed_ms"] for r in rows)
    for row in rows:
        wall_ms = max(0, int((row["created"] - start).total_seconds() * 1000))
        row["wall_ms"] = wall_ms
        if legacy:
            row["elapsed_ms"] = min(wall_ms, game.elapsed_ms)
        row["changes"] = row["changes"] or {}
    return rows


def analysis_of(game: Game) -> dict[str, Any] | None:
    """The stored analysis, or None while it is pending (never computed here); technique
    names in the reader's language."""
    try:
        data = game.analysis.data
    except GameAnalysis.DoesNotExist:
        return None
    return data if analysis_skipped(data) else techniques_localized(data)


def analysis_skipped(data: dict[str, Any] | None) -> bool:
    """Whether a stored analysis is the mark of one not made (replays.models.SKIPPED)."""
    return bool(data) and data.get("skipped") is True


def share_of(game: Game) -> ReplayShare | None:
    try:
        return game.replay_share
    except ReplayShare.DoesNotExist:
        return None
