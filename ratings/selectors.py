"""Reads about ratings: a puzzle at the player's level, stats, the rating board.

Every read is per variant and size (``variant`` defaults to classic, so a caller that
predates variants reads what it read before).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Exists, F, OuterRef, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from .models import PlayerRating, PuzzleRating, RatingChange
from .window import WINDOWS

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from play.models import Game

# The rating board lists only established ratings (as Lichess hides provisional ones):
# a deviation under this (after the last game) and at least this many rated games.
BOARD_MAX_DEVIATION = 110.0
BOARD_MIN_GAMES = 10
# Points of history the stats chart shows per variant and size.
HISTORY_POINTS = 50
CLASSIC = "classic"


def player_rating_get(*, user: AbstractBaseUser, size: int, variant: str = CLASSIC) -> PlayerRating:
    """The player's rating at ``variant`` and ``size``: a newcomer's (unsaved) before
    their first game of it."""
    found = PlayerRating.objects.filter(user=user, variant=variant, size=size).first()
    return found or PlayerRating(user=user, variant=variant, size=size)


def _unplayed(user: AbstractBaseUser, size: int, variant: str = CLASSIC) -> QuerySet[PuzzleRating]:
    """The rated puzzles of ``variant`` and ``size`` the user has no game of, less today's
    and later daily puzzles (kept for the daily game, as the pick by level does), puzzles
    typed in by players or made for practice (not the bank's) and puzzles with constraints
    (no game of them is rated)."""
    from play.models import Game
    from puzzles.models import BANK_SOURCES, DailyPuzzle

    played = Game.objects.filter(user=user, puzzle_id=OuterRef("puzzle_id"))
    dailies = DailyPuzzle.objects.filter(date__gte=timezone.localdate()).values("puzzle_id")
    return (
        PuzzleRating.objects.filter(variant=variant, size=size, puzzle__source__in=BANK_SOURCES)
        .exclude(puzzle__constrained=True)
        .filter(~Exists(played))
        .exclude(puzzle_id__in=dailies)
    )


def puzzle_pick_at_level(
    *,
    user: AbstractBaseUser,
    size: int,
    variant: str = CLASSIC,
    rating: float | None = None,
    rng: random.Random | None = None,
) -> PuzzleRating | None:
    """A puzzle of ``variant`` and ``size`` the user has never played (no game of it at
    all), rated near their rating of that variant and size (or ``rating``): within the
    first window of WINDOWS that holds one.

    Inside a window the walk starts at a random rating in its middle half and takes the
    nearest unplayed puzzle upwards (else downwards): an index range on (variant, size,
    rating), no ORDER BY random(). None when the user has played every such puzzle.

    Puzzles stored since the last backfill (ratings.tasks, every ten minutes) have no
    rating yet: when no window answers, they get theirs and the search runs once more."""
    found = _pick(user=user, size=size, variant=variant, rating=rating, rng=rng)
    if found is None:
        from .services import puzzle_ratings_backfill

        if puzzle_ratings_backfill(size=size, variant=variant):
            found = _pick(user=user, size=size, variant=variant, rating=rating, rng=rng)
    return found


def _pick(
    *,
    user: AbstractBaseUser,
    size: int,
    variant: str,
    rating: float | None,
    rng: random.Random | None,
) -> PuzzleRating | None:
    rng = rng or random.Random()
    if rating is None:
        rating = player_rating_get(user=user, size=size, variant=variant).rating
    candidates = _unplayed(user, size, variant)
    for half in WINDOWS:
        inside = candidates
        if half is not None:
            inside = candidates.filter(rating__gte=rating - half, rating__lte=rating + half)
            pivot = rating + rng.uniform(-half / 2, half / 2)
        else:
            pivot = rating
        inside = inside.select_related("puzzle")
        found = inside.filter(rating__gte=pivot).order_by("rating").first()
        if found is None:
            found = inside.filter(rating__lt=pivot).order_by("-rating").first()
        if found is not None:
            return found
    return None


def game_rating(game: Game) -> dict[str, Any] | None:
    """What the game object shows of ratings, from what is already loaded (never a
    query): the puzzle's rating, and after a rated finish both sides' change. None when
    neither is loaded (a move's answer while the game goes on)."""
    from play.models import Game as GameModel
    from puzzles.models import Puzzle

    change = GameModel._meta.get_field("rating_change").get_cached_value(game, None)
    puzzle_rating = Puzzle._meta.get_field("rating").get_cached_value(game.puzzle, None)
    if change is None and puzzle_rating is None:
        return None
    out: dict[str, Any] = {"puzzle": None, "puzzle_deviation": None, "change": None}
    if puzzle_rating is not None:
        out["puzzle"] = round(puzzle_rating.rating)
        out["puzzle_deviation"] = round(puzzle_rating.deviation)
    if change is not None:
        out["change"] = {
            "outcome": round(change.outcome, 3),
            "player_before": round(change.player_before),
            "player_after": round(change.player_after),
            "player_delta": round(change.player_after) - round(change.player_before),
            "puzzle_before": round(change.puzzle_before),
            "puzzle_after": round(change.puzzle_after),
            "puzzle_delta": round(change.puzzle_after) - round(change.puzzle_before),
            "reversed": change.reversed,
        }
    return out


def game_ratings_load(game: Game) -> None:
    """Load the puzzle's rating (and the game's change) onto ``game`` for game_rating."""
    from play.models import Game as GameModel
    from puzzles.models import Puzzle

    if not Puzzle.rating.is_cached(game.puzzle):
        game.puzzle.rating = PuzzleRating.objects.filter(puzzle_id=game.puzzle_id).first()
    if game.is_finished and not GameModel.rating_change.is_cached(game):
        game.rating_change = RatingChange.objects.filter(game_id=game.pk).first()


def rating_stats(*, user: AbstractBaseUser) -> list[dict[str, Any]]:
    """Per variant and size played rated (classic first, then by variant and size): the
    rating, deviation, games, whether provisional, the last HISTORY_POINTS ratings after
    each game, oldest first, and ``start``, the rating before the oldest of them (where a
    chart's line begins).

    One query, on the history alone: a player's rating row is written only together with
    a history row, so the newest history row holds the current rating and deviation, and
    the count of rows per variant and size is the number of rated games. Changes a hold
    took back (``reversed``) are left out, as the games and rating left them out."""
    board = [F("variant"), F("size")]
    rows = (
        RatingChange.objects.filter(user=user, reversed=False)
        .annotate(
            rank=Window(
                RowNumber(),
                partition_by=board,
                order_by=[F("created").desc(), F("id").desc()],
            ),
            games=Window(Count("id"), partition_by=board),
        )
        .filter(rank__lte=HISTORY_POINTS)
        .values_list(
            "variant",
            "size",
            "game_id",
            "created",
            "player_before",
            "player_after",
            "player_deviation",
            "games",
        )
    )
    history: dict[tuple[str, int], list[dict[str, Any]]] = {}
    games: dict[tuple[str, int], int] = {}
    before: dict[tuple[str, int], dict[Any, float]] = {}
    for variant, size, game_id, created, was, after, deviation, count in rows:
        key = (variant, size)
        games[key] = count
        before.setdefault(key, {})[(created, game_id)] = was
        history.setdefault(key, []).append(
            {"game": game_id, "at": created, "rating": round(after), "deviation": round(deviation)}
        )
    out = []
    for key in sorted(history, key=lambda k: (k[0] != CLASSIC, k)):
        points = sorted(history[key], key=lambda p: (p["at"], p["game"]))
        latest, oldest = points[-1], points[0]
        out.append(
            {
                "variant": key[0],
                "size": key[1],
                "start": round(before[key][(oldest["at"], oldest["game"])]),
                "rating": latest["rating"],
                "deviation": latest["deviation"],
                "games": games[key],
                "provisional": not _established(latest["deviation"], games[key]),
                "history": points,
            }
        )
    return out


def _established(deviation: float, games: int) -> bool:
    return deviation < BOARD_MAX_DEVIATION and games >= BOARD_MIN_GAMES


def rating_leaderboard(*, size: int, variant: str = CLASSIC) -> QuerySet:
    """Players with an established rating at ``variant`` and ``size``, best first, who
    may be shown (integrity.selectors.shown_players, as every board)."""
    from integrity.selectors import shown_players

    return (
        PlayerRating.objects.filter(
            shown_players(),
            variant=variant,
            size=size,
            deviation__lt=BOARD_MAX_DEVIATION,
            games__gte=BOARD_MIN_GAMES,
        )
        .values("rating", "deviation", "games", username=F("user__username"))
        .order_by("-rating", "username")
    )
