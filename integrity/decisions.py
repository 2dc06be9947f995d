"""Staff's verdicts and what follows them: a game's (``review_decide``), a player's
(``player_review_decide``), and the settling of the games a cleared player finished while
held (``player_release``).

The top of integrity's services: it asks the gate (integrity.gate), which asks the
evidence (integrity.players) and the game review (integrity.services); none of those
imports this module. The admin and the worker (integrity.tasks) call it.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from play.models import Game
from ratings.services import rating_changes_reverse

from .gate import game_standing_settle, player_games_settle, release_later
from .models import GameReview, PlayerReview, Verdict
from .players import RELEASE_CHUNK, latest_review_locked, player_establish


@transaction.atomic
def review_decide(
    *, review_id: int, staff: AbstractBaseUser, cleared: bool, note: str = ""
) -> GameReview:
    """Staff's verdict: ``cleared`` lets the game onto the boards and into ratings (it is
    rated now, once: a rating already recorded is never recorded twice) unless its origin
    keeps it out (integrity.gate); otherwise the flag is confirmed and it stays off them."""
    review = GameReview.objects.select_for_update().get(pk=review_id)
    review.verdict = Verdict.CLEARED if cleared else Verdict.CONFIRMED
    review.flagged = not cleared
    review.reviewed_by = staff
    review.reviewed = timezone.now()
    if note:
        review.note = note
    review.save(update_fields=["verdict", "flagged", "reviewed_by", "reviewed", "note"])
    # The gate decides again from the verdict (a cleared game counts now, and is rated
    # once, unless its origin keeps it out).
    game = Game.objects.select_for_update().select_related("puzzle").get(pk=review.game_id)
    game_standing_settle(game=game, review=review)
    return review


@transaction.atomic
def player_review_decide(
    *, review_id: int, staff: AbstractBaseUser, cleared: bool, note: str = ""
) -> PlayerReview:
    """Staff's verdict on a held player: ``cleared`` lets them back onto the boards and
    rates the games held meanwhile (``player_release``); otherwise they stay held. Only
    the player's latest review can be decided again (confirming an older cleared review
    would hold them on stale evidence)."""
    review = PlayerReview.objects.select_for_update().get(pk=review_id)
    latest_id = (
        PlayerReview.objects.filter(user_id=review.user_id).order_by("-id").values("id").first()
    )
    if latest_id is not None and latest_id["id"] != review.pk:
        return review
    review.verdict = Verdict.CLEARED if cleared else Verdict.CONFIRMED
    review.held = not cleared
    review.reviewed_by = staff
    review.reviewed = timezone.now()
    if note:
        review.note = note
    review.save(update_fields=["verdict", "held", "reviewed_by", "reviewed", "note"])
    if cleared:
        # Staff have looked at the player's games: they are provisional no longer, and
        # what the hold took back is given again before the held games are rated.
        player_establish(user_id=review.user_id, by="staff")
        rating_changes_reverse(user_id=review.user_id, game_ids=None, back=False)
        player_release(user_id=review.user_id)
    return review


@transaction.atomic
def player_release(*, user_id: int) -> int:
    """Settle again, through the gate, the games a cleared player finished while held
    (or while provisional, once established), oldest first, at most ``RELEASE_CHUNK`` now
    and the rest by the worker; how many count now (and were rated, once each). A game
    flagged on its own stays for its own review."""
    latest = latest_review_locked(user_id)
    if latest is not None and latest.held:
        return 0
    rated, more = player_games_settle(user_id=user_id, limit=RELEASE_CHUNK)
    if rated and latest is not None:
        PlayerReview.objects.filter(pk=latest.pk).update(released=F("released") + rated)
    if more:
        release_later(user_id)
    return rated
