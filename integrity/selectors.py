"""Reads for the boards and the ratings: which games and players stay off them."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from .models import GameReview

REPEAT_FLAGS = 2
"""A player with this many games flagged (awaiting review, or confirmed) is kept off every
board until staff clear enough of them."""


def game_is_flagged(game: object) -> bool:
    """Whether ``game`` must stay out of leaderboards and ratings (flagged, not cleared).
    One query; False for a game that was not reviewed."""
    return GameReview.objects.filter(game_id=game.pk, flagged=True).exists()  # type: ignore[attr-defined]


def players_flagged_repeatedly() -> QuerySet:
    """The ids of the players kept off the boards, as a subquery."""
    return (
        GameReview.objects.filter(flagged=True)
        .values("user_id")
        .annotate(flags=Count("id"))
        .filter(flags__gte=REPEAT_FLAGS)
        .values("user_id")
    )


def player_flag_counts(*, user_ids: list[int]) -> dict[int, int]:
    """Flagged games (awaiting review or confirmed) per player, for the admin."""
    rows = (
        GameReview.objects.filter(user_id__in=user_ids, flagged=True)
        .values("user_id")
        .annotate(flags=Count("id"))
        .values_list("user_id", "flags")
    )
    return dict(rows)
