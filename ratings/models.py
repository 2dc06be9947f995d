"""Glicko-2 ratings of players (per variant and board size) and of puzzles, and one row per
rated game.

A ``RatingChange`` is written once per rated game, in the transaction that ends the game;
its unique ``game`` is the guard that makes a retried completion rate nothing twice. It
keeps both sides' ratings before and after, for the stats chart and the game's "rating
change".

The puzzle's rating lives beside the puzzle (one row each, keyed by the puzzle), with
its variant and size copied in so "a Killer 9x9 near rating R" is one index range
(``puzzle_rating_at_level``). A variant is part of what is rated, like the size: a
player's classic 9x9 and Killer 9x9 ratings are two rows, two boards, two histories.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from puzzles.models import Variant

from .glicko2 import BASE_RATING, START_DEVIATION, START_VOLATILITY


def _variant_field() -> models.CharField:
    # db_default too: a writer that predates the column rates classic play.
    return models.CharField(
        max_length=10, choices=Variant.choices, default=Variant.CLASSIC, db_default="classic"
    )


class PlayerRating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    variant = _variant_field()
    size = models.PositiveSmallIntegerField()
    rating = models.FloatField(default=BASE_RATING)
    deviation = models.FloatField(default=START_DEVIATION)
    volatility = models.FloatField(default=START_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    # When the last rated game ended: the deviation grows with the time since.
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "variant", "size"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant", "size"], name="player_rating_unique"
            ),
        ]
        indexes = [
            # The rating leaderboard: one variant and size, best first.
            models.Index(fields=["variant", "size", "-rating"], name="player_rating_board"),
        ]

    def __str__(self) -> str:
        board = f"{self.variant} {self.size}x{self.size}"
        return f"{self.user_id} {board}: {self.rating:.0f}±{self.deviation:.0f}"


class PuzzleRating(models.Model):
    puzzle = models.OneToOneField(
        "puzzles.Puzzle", on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    variant = _variant_field()
    size = models.PositiveSmallIntegerField()
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField(default=START_VOLATILITY)
    plays = models.PositiveIntegerField(default=0)
    # The starting rating the grader's score gave (ratings.prior).
    prior = models.FloatField()

    class Meta:
        ordering = ["puzzle"]
        indexes = [
            # "At my level": a range of ratings within one variant and size.
            models.Index(fields=["variant", "size", "rating"], name="puzzle_rating_at_level"),
        ]

    def __str__(self) -> str:
        return f"puzzle {self.puzzle_id}: {self.rating:.0f}±{self.deviation:.0f}"


class RatingChange(models.Model):
    game = models.OneToOneField("play.Game", on_delete=models.CASCADE, related_name="rating_change")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    puzzle = models.ForeignKey(
        "puzzles.Puzzle", on_delete=models.CASCADE, related_name="rating_changes"
    )
    variant = _variant_field()
    size = models.PositiveSmallIntegerField()
    outcome = models.FloatField()
    player_before = models.FloatField()
    player_after = models.FloatField()
    player_deviation = models.FloatField(help_text="After the game.")
    puzzle_before = models.FloatField()
    puzzle_after = models.FloatField()
    puzzle_deviation = models.FloatField(help_text="After the game.")
    created = models.DateTimeField()
    # Taken back, both sides, by a hold on the player (ratings.services.
    # rating_changes_reverse); given again if staff clear them. db_default: the history's
    # insert (raw SQL) leaves it out.
    reversed = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["created", "id"]
        indexes = [
            models.Index(
                fields=["user", "variant", "size", "created"], name="rating_change_history"
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.player_before:.0f} -> {self.player_after:.0f}"

    @property
    def player_delta(self) -> float:
        return self.player_after - self.player_before

    @property
    def puzzle_delta(self) -> float:
        return self.puzzle_after - self.puzzle_before
