"""Reads for the boards and the ratings: who may be shown on them.

One question, asked by every board (level boards by day, week and all time, the daily
puzzle's and any puzzle's board, the rating board, the rank a finished game shows) and by
race results: ``shown_players`` says which players may be listed; ``player_marks`` says,
for the few racers of one race, why one may not (or may, marked). Both know the same
reasons:

- ``held``: the evidence across the player's games holds them (integrity.players);
- ``flagged``: ``REPEAT_FLAGS`` or more of their games are flagged (awaiting review, or
  confirmed);
- ``provisional``: the evidence has not yet judged enough of their games (no
  ``PlayerStanding``; their games do not count either, integrity.gate). A race ranks a
  provisional racer among the others, marked.
"""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from .models import GameReview, PlayerReview, PlayerStanding

HELD = "held"
FLAGGED = "flagged"
PROVISIONAL = "provisional"
REPEAT_FLAGS = 2
"""A player with this many games flagged (awaiting review, or confirmed) is kept off every
board until staff clear enough of them."""


def game_is_flagged(game: object) -> bool:
    """Whether ``game`` must stay out of leaderboards and ratings (flagged, not cleared).
    One query; False for a game that was not reviewed."""
    return GameReview.objects.filter(game_id=game.pk, flagged=True).exists()  # type: ignore[attr-defined]


def held_user_ids() -> QuerySet:
    """The ids of the held players, as a subquery (a partial unique index answers it)."""
    return PlayerReview.objects.filter(held=True).values("user_id")


def players_flagged_repeatedly() -> QuerySet:
    """The ids of the players with ``REPEAT_FLAGS`` flagged games, as a subquery."""
    return (
        GameReview.objects.filter(flagged=True)
        .values("user_id")
        .annotate(flags=Count("id"))
        .filter(flags__gte=REPEAT_FLAGS)
        .values("user_id")
    )


def shown_players(field: str = "user_id") -> Q:
    """The filter of the rows whose player (``field``) may be shown on a board:
    established (not provisional), neither held nor flagged repeatedly. A semi-join on
    the standings' primary key and two anti-joins on indexed columns, whatever the
    board."""
    established = PlayerStanding.objects.values("user_id")
    return (
        Q(**{f"{field}__in": established})
        & ~Q(**{f"{field}__in": held_user_ids()})
        & ~Q(**{f"{field}__in": players_flagged_repeatedly()})
    )


def player_marks(*, user_ids: list[int]) -> dict[int, str]:
    """Why each of these players may not be ranked (``held`` or ``flagged``), or is
    ranked marked (``provisional``); players absent may be shown as they are. For a
    handful of players (a race's racers): three bounded queries."""
    ids = list(user_ids)
    if not ids:
        return {}
    established = set(
        PlayerStanding.objects.filter(user_id__in=ids).values_list("user_id", flat=True)
    )
    repeated = (
        GameReview.objects.filter(user_id__in=ids, flagged=True)
        .values("user_id")
        .annotate(flags=Count("id"))
        .filter(flags__gte=REPEAT_FLAGS)
        .values_list("user_id", flat=True)
    )
    marks = dict.fromkeys(set(ids) - established, PROVISIONAL)
    marks.update(dict.fromkeys(repeated, FLAGGED))
    for uid in PlayerReview.objects.filter(user_id__in=ids, held=True).values_list(
        "user_id", flat=True
    ):
        marks[uid] = HELD
    return marks


def player_flag_counts(*, user_ids: list[int]) -> dict[int, int]:
    """Flagged games (awaiting review or confirmed) per player, for the admin."""
    rows = (
        GameReview.objects.filter(user_id__in=user_ids, flagged=True)
        .values("user_id")
        .annotate(flags=Count("id"))
        .values_list("user_id", "flags")
    )
    return dict(rows)
