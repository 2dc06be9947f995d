"""Evidence across games: holding a player whose recent games together look scripted.

``player_evaluate`` runs at the end of each ranked game of a signed-in player, inside the
transaction that ends it (``play.ending.game_ended``), after the game's own review. It
reads the player's latest ``PlayerReview`` (locking it, so a staff decision and a game's
end take turns) and, unless the player is held already, the traces of their last
``WINDOW`` reviewed games since their last clearing: two queries, and an insert when the
evidence flags them (``integrity.player_signals``).

While a player is held (flagged, or confirmed by staff) all their games stay off the
boards (``integrity.selectors.shown_players``) and their games that end move no rating.
When staff clear them (integrity.decisions.player_review_decide), those games are rated,
oldest first, once each (``rating_record_game`` never rates a game twice).

Public: ``player_held`` and ``player_provisional`` are what the gate asks; boards ask
integrity.selectors. Dependencies run one way: decisions -> gate -> players, services ->
models, signals (tasks and the admin call decisions).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from ratings.services import rating_changes_reverse
from sudokusite.unique import insert_or_existing

from .models import EXEMPT_PERMISSION, GameReview, PlayerReview, PlayerStanding, Verdict
from .player_signals import MIN_GAMES, WINDOW, player_signals

if TYPE_CHECKING:
    from play.models import Game


PROVISIONAL_GAMES = MIN_GAMES
"""Games the evidence across games must have judged (each with enough placements for its
size) before a player's games may count: the first judgement. Until then the player is
provisional; docs/integrity.md has the simulation behind the number."""

HELD = "held"
ESTABLISHED = "established"

RELEASE_CHUNK = 100
"""Held (or provisional) games rated in one transaction when a player is cleared (or
established); the worker rates the rest, a chunk at a time (``integrity.tasks``)."""

logger = logging.getLogger(__name__)


def player_held(*, user_id: int) -> bool:
    """Whether the player is held off boards and ratings (one query on a partial unique
    index)."""
    return PlayerReview.objects.filter(user_id=user_id, held=True).exists()


def _established(game: Game) -> bool:
    """Whether the game's player has a standing: one query on its primary key, kept on
    the game for the rest of its ending (the gate asks again)."""
    known = game.__dict__.get("_integrity_established")
    if known is None:
        known = PlayerStanding.objects.filter(user_id=game.user_id).exists()
        game.__dict__["_integrity_established"] = known
    return known


def player_provisional(*, game: Game) -> bool:
    """Whether the player of ``game`` waits for the evidence to judge enough of their
    games. An exempt player never does: asked once (a permission query, only while not
    established), they are established then (``by = "exempt"``), so the boards, which
    list established players only, show them."""
    if _established(game):
        return False
    if not game.user.has_perm(EXEMPT_PERMISSION):
        return True
    player_establish(user_id=game.user_id, by="exempt")  # type: ignore[arg-type]
    game.__dict__["_integrity_established"] = True
    return False


def player_establish(*, user_id: int, by: str) -> bool:
    """Make the player established (idempotent); whether it happened now."""
    _, created = PlayerStanding.objects.get_or_create(
        user_id=user_id, defaults={"established": timezone.now(), "by": by}
    )
    return created


def latest_review_locked(user_id: int) -> PlayerReview | None:
    """The player's latest review, locked until the transaction ends (a held review is
    always the latest: no player is judged again while held)."""
    return (
        PlayerReview.objects.select_for_update()
        .filter(user_id=user_id)
        .order_by("-id")
        .only("id", "held", "last_game_review_id", "held_since")
        .first()
    )


def player_evaluate(*, game: Game, reviewed: bool) -> str:
    """Judge the player of a game that has just ended: ``HELD`` when they are held now,
    ``ESTABLISHED`` when the evidence has just judged enough of their games
    (``PROVISIONAL_GAMES``) without flagging them, else "".

    ``reviewed``: the game's own review was stored (a completed ranked game), so the
    evidence has grown; otherwise only the hold is read. Must run inside the transaction
    that ends the game."""
    user_id = game.user_id
    assert user_id is not None
    latest = latest_review_locked(user_id)
    if latest is not None and latest.held:
        return HELD
    if not reviewed:
        return ""
    since = latest.last_game_review_id if latest is not None else 0
    rows = list(
        GameReview.objects.filter(user_id=user_id, id__gt=since)
        .order_by("-id")
        .values_list("id", "trace", "game_id")[:WINDOW]
    )
    signals = player_signals([trace for _, trace, _ in rows])
    if not signals.flagged or game.user.has_perm(EXEMPT_PERMISSION):
        if signals.games >= PROVISIONAL_GAMES and not _established(game):
            player_establish(user_id=user_id, by="evidence")
            game.__dict__["_integrity_established"] = True
            return ESTABLISHED
        return ""
    review = PlayerReview(
        user_id=user_id,
        verdict=Verdict.FLAGGED,
        held=True,
        signals=signals.as_dict(),
        reasons=list(signals.reasons),
        last_game_review_id=rows[0][0],
        game=game,
        held_since=game.finished or timezone.now(),
    )
    _, created = insert_or_existing(
        review, lambda: PlayerReview.objects.filter(user_id=user_id, held=True).first()
    )
    if created:
        logger.warning("player %s held: %s", user_id, signals.as_dict())
        # A hold undoes what it holds: the rating changes of the games judged, both sides.
        rating_changes_reverse(user_id=user_id, game_ids=[g for _, _, g in rows], back=True)
    return HELD


def player_standing(*, user: AbstractBaseUser) -> dict[str, Any]:
    """Whether the player is provisional, for their stats (API and page): how many of
    their finished games wait (``provisional``) and how many judged games the evidence
    needs. Two bounded queries (the standing; the waiting games, by the player's index)."""
    from play.models import Game

    established = PlayerStanding.objects.filter(user_id=user.pk).exists() or user.has_perm(
        EXEMPT_PERMISSION
    )
    waiting = 0
    if not established:
        waiting = Game.objects.filter(user_id=user.pk, standing="provisional").count()
    return {
        "provisional": not established,
        "waiting_games": waiting,
        "needed_games": PROVISIONAL_GAMES,
    }
