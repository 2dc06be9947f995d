"""Reviews of completed ranked games: the signals of plausible play and staff's verdict.

A game is reviewed once, when it is completed (``integrity.services.game_review``). A
*flagged* game keeps its result for its player, but stays off the leaderboards and out of
ratings (``flagged`` is True) until staff clear it in the admin; a player with
``REPEAT_FLAGS`` flagged games is kept off the boards altogether until staff have cleared
enough of them (``integrity.selectors``).

A *held* player (``PlayerReview.held``) is one the evidence across their recent games
flagged (``integrity.players``): all their games stay off the boards and their new games
move no rating until staff clear them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Verdict(models.TextChoices):
    PLAUSIBLE = "plausible", _("Plausible")
    FLAGGED = "flagged", _("Flagged, awaiting review")
    CLEARED = "cleared", _("Cleared by staff")
    CONFIRMED = "confirmed", _("Confirmed by staff")


HIDDEN = (Verdict.FLAGGED, Verdict.CONFIRMED)

EXEMPT_PERMISSION = "integrity.exempt_from_review"
"""A scripted or vetted player (granted in the admin): not reviewed, never provisional."""


class GameReview(models.Model):
    game = models.OneToOneField("play.Game", on_delete=models.CASCADE, related_name="review")
    # The game's player, kept here so that counting a player's flags reads one table.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_reviews"
    )
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    # True while the game must stay off boards and ratings: flagged and not cleared.
    flagged = models.BooleanField(default=False)
    signals = models.JSONField(default=dict)
    reasons = models.JSONField(default=list, blank=True)
    # integrity.trace.game_trace plus the level and time per placement, for the evidence
    # across games (integrity.players).
    trace = models.JSONField(default=dict, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reviewed = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["user", "flagged"], name="review_user_flagged"),
            # A player's latest reviews, for the evidence across games.
            models.Index(fields=["user", "-id"], name="review_user_latest"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(flagged=True, verdict__in=HIDDEN)
                | models.Q(flagged=False, verdict__in=(Verdict.PLAUSIBLE, Verdict.CLEARED)),
                name="review_flagged_matches_verdict",
            )
        ]
        permissions = [
            (
                "exempt_from_review",
                "Scripted or vetted player: completed games are not reviewed",
            )
        ]

    def __str__(self) -> str:
        return f"review of game {self.game_id}: {self.verdict}"


class PlayerReview(models.Model):
    """The evidence across a player's recent games, when it flags them, and staff's verdict.

    At most one row per player is ``held`` (flagged, awaiting review, or confirmed); a
    cleared row stays as history, and marks where the next evidence starts
    (``last_game_review_id``): games already judged and cleared are not judged again.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_reviews"
    )
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    held = models.BooleanField(default=True)
    signals = models.JSONField(default=dict)
    reasons = models.JSONField(default=list, blank=True)
    # The newest GameReview in the evidence; the game whose end flagged the player, and
    # when it finished (the player's games finished since then are held).
    last_game_review_id = models.BigIntegerField()
    game = models.ForeignKey("play.Game", null=True, on_delete=models.SET_NULL, related_name="+")
    held_since = models.DateTimeField()
    # Held games rated after the clearing, counted by integrity.decisions.player_release.
    released = models.PositiveIntegerField(default=0)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reviewed = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["user", "-id"], name="player_review_user_latest")]
        constraints = [
            # One held row per player; also the index of player_held and held_user_ids.
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(held=True), name="player_review_one_held"
            ),
            models.CheckConstraint(
                condition=models.Q(held=True, verdict__in=HIDDEN)
                | models.Q(held=False, verdict=Verdict.CLEARED),
                name="player_review_held_matches_verdict",
            ),
        ]

    def __str__(self) -> str:
        return f"review of player {self.user_id}: {self.verdict}"


class PlayerStanding(models.Model):
    """A player the evidence across games has judged enough of (``PROVISIONAL_GAMES``
    games), or staff cleared: their games may count. Until then a player is
    *provisional*: their games stay off the boards and out of ratings (``provisional``),
    and are settled in one pass when the row is made (integrity.gate)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="integrity_standing",
    )
    established = models.DateTimeField()
    # How: "evidence" (enough games judged plausible), "staff" (a cleared hold) or
    # "before" (games that counted before provisional players existed).
    by = models.CharField(max_length=10)

    def __str__(self) -> str:
        return f"player {self.user_id} established ({self.by})"
