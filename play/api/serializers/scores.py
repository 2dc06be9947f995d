"""Results: a game's rating change and standing, the player's stats and the boards."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from integrity.gate import MESSAGES
from puzzles.models import Difficulty, Variant
from puzzles.packs import PACK_SIZES

from ...models import Game
from ...selectors import PERIODS


class LeaderboardQuerySerializer(serializers.Serializer):
    board = serializers.ChoiceField(
        choices=["score", "rating"],
        required=False,
        default="score",
        help_text="score: best scores at a level (needs difficulty); rating: established "
        "Glicko-2 ratings at a variant and size.",
    )
    difficulty = serializers.ChoiceField(choices=Difficulty.choices, required=False)
    size = serializers.ChoiceField(choices=PACK_SIZES, required=False, default=9)
    variant = serializers.ChoiceField(
        choices=Variant.choices,
        required=False,
        default=Variant.CLASSIC,
        help_text="The variant's board only (classic by default): its puzzles' best scores, "
        "or its ratings.",
    )
    period = serializers.ChoiceField(choices=PERIODS, required=False, default="all")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["board"] == "score" and "difficulty" not in attrs:
            raise serializers.ValidationError({"difficulty": [_("This field is required.")]})
        return attrs


class RatingChangeSerializer(serializers.Serializer):
    outcome = serializers.FloatField(help_text="The game's result for the player, 0 to 1.")
    player_before = serializers.IntegerField()
    player_after = serializers.IntegerField()
    player_delta = serializers.IntegerField()
    puzzle_before = serializers.IntegerField()
    puzzle_after = serializers.IntegerField()
    puzzle_delta = serializers.IntegerField()
    reversed = serializers.BooleanField(
        help_text="Taken back, both sides, by a hold on the player (docs/integrity.md)."
    )


class GameRatingSerializer(serializers.Serializer):
    puzzle = serializers.IntegerField(allow_null=True, help_text="The puzzle's rating.")
    puzzle_deviation = serializers.IntegerField(allow_null=True)
    change = RatingChangeSerializer(
        allow_null=True, help_text="Both sides' change, after a ranked finish (else null)."
    )


class UnrankedReasonSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=sorted(MESSAGES),
        help_text="Stable: guest, typed_in, practice_only, constrained, replayed_puzzle, "
        "race_not_played, "
        "player_held, flagged, too_fast_to_review, provisional.",
    )
    message = serializers.CharField(help_text="One line for the player, in their language.")


def unranked_reason(game: Game) -> dict[str, str] | None:
    """Why a finished game does not count, from what the gate stored (no query)."""
    if game.counts is not False or game.standing not in MESSAGES:
        return None
    return {"code": game.standing, "message": str(MESSAGES[game.standing])}


class RecentSolveSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    finished = serializers.DateTimeField()
    elapsed_ms = serializers.IntegerField()
    score = serializers.IntegerField()


class StatsGroupSerializer(serializers.Serializer):
    size = serializers.IntegerField()
    difficulty = serializers.CharField()
    played = serializers.IntegerField()
    completed = serializers.IntegerField()
    best_time_ms = serializers.IntegerField(allow_null=True)
    average_time_ms = serializers.IntegerField(allow_null=True)
    best_score = serializers.IntegerField(allow_null=True)
    current_streak = serializers.IntegerField(help_text="Days in a row with a completed game.")
    longest_streak = serializers.IntegerField()
    recent = RecentSolveSerializer(many=True, help_text="The latest solves, oldest first.")


class RatingPointSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    at = serializers.DateTimeField()
    rating = serializers.IntegerField(help_text="The rating after this game.")
    deviation = serializers.IntegerField()


class PlayerRatingSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(
        choices=Variant.choices, help_text="A rating is per variant and size."
    )
    size = serializers.IntegerField()
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField(help_text="As of the last rated game.")
    games = serializers.IntegerField(help_text="Rated games at this variant and size.")
    provisional = serializers.BooleanField(
        help_text="Not yet on the rating board (too few games or too wide a deviation)."
    )
    history = RatingPointSerializer(many=True, help_text="The latest rated games, oldest first.")
    start = serializers.IntegerField(help_text="The rating before the oldest game of history.")


class PracticeProgressSerializer(serializers.Serializer):
    technique = serializers.CharField()
    solved = serializers.IntegerField(help_text="Practice games of it completed.")
    solved_without_hint = serializers.IntegerField()


class PlayerStandingSerializer(serializers.Serializer):
    provisional = serializers.BooleanField(
        help_text="A new player: your games count for boards and ratings once the review "
        "has judged `needed_games` of them long enough to judge (docs/integrity.md)."
    )
    waiting_games = serializers.IntegerField(
        help_text="Your finished games waiting for that (they count then, in order)."
    )
    needed_games = serializers.IntegerField()


class StatsSerializer(serializers.Serializer):
    standing = PlayerStandingSerializer(required=False)
    played = serializers.IntegerField()
    completed = serializers.IntegerField()
    current_streak = serializers.IntegerField()
    longest_streak = serializers.IntegerField()
    groups = StatsGroupSerializer(many=True)
    ratings = PlayerRatingSerializer(
        many=True, help_text="Your rating per variant and size played ranked, classic first."
    )
    practice = PracticeProgressSerializer(many=True, required=False)


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    best_score = serializers.IntegerField(required=False, help_text="Score boards.")
    best_time_ms = serializers.IntegerField(required=False, help_text="Score boards.")
    completed = serializers.IntegerField(required=False, help_text="Score boards.")
    rating = serializers.IntegerField(required=False, help_text="The rating board.")
    deviation = serializers.IntegerField(required=False, help_text="The rating board.")
    games = serializers.IntegerField(required=False, help_text="The rating board.")
