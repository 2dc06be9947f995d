"""Reads about games: a player's games, their stats, the leaderboards."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Avg, Count, F, Max, Min, Q, QuerySet, Window
from django.db.models.functions import RowNumber, TruncDate
from django.utils import timezone

from integrity.gate import counting_games
from integrity.selectors import shown_players

from .disclosure import solution_held_expression
from .models import Game, Status
from .steps import Player

RECENT_SOLVES = 20
PERIODS = ("day", "week", "all")


def game_list(*, player: Player, status: str | None = None) -> QuerySet[Game]:
    """The player's games, newest first, with their puzzles (and whether a given-up
    game's solution is still held, in the same query)."""
    games = (
        Game.objects.filter(player.owns())
        .select_related("puzzle__rating", "rating_change")
        .annotate(solution_held=solution_held_expression(timezone.now()))
    )
    if status:
        games = games.filter(status=status)
    return games.order_by("-created", "-id")


def streaks(days: set[date], today: date) -> tuple[int, int]:
    """(current, longest) runs of consecutive days. The current run may end yesterday:
    a streak is not broken before the day is over."""
    longest = 0
    for day in days:
        if day - timedelta(days=1) in days:
            continue  # not the start of a run
        length = 1
        while day + timedelta(days=length) in days:
            length += 1
        longest = max(longest, length)
    end = today if today in days else today - timedelta(days=1)
    current = 0
    while end - timedelta(days=current) in days:
        current += 1
    return current, longest


def user_stats(*, user: AbstractBaseUser, now: datetime | None = None) -> dict[str, Any]:
    """Per size and level: played, completed, best and average time, best score, streaks
    (days with a completed game) and the most recent solve times; plus the totals.

    Three queries whatever the history: the counts, the completion days, the recent solves.
    """
    today = timezone.localdate(now or timezone.now())
    games = Game.objects.filter(user=user)
    completed = Q(status=Status.COMPLETED)
    rows = (
        games.values(size=F("puzzle__size"), difficulty=F("puzzle__difficulty"))
        .annotate(
            played=Count("id"),
            completed=Count("id", filter=completed),
            best_time_ms=Min("elapsed_ms", filter=completed),
            average_time_ms=Avg("elapsed_ms", filter=completed),
            best_score=Max("score", filter=completed),
        )
        .order_by("size", "difficulty")
    )
    done = games.filter(completed)
    days_by_group: dict[tuple[int, str], set[date]] = defaultdict(set)
    for row in (
        done.annotate(day=TruncDate("finished"))
        .values_list("puzzle__size", "puzzle__difficulty", "day")
        .distinct()
    ):
        days_by_group[(row[0], row[1])].add(row[2])
    recent_by_group: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    recent = (
        done.annotate(
            rank=Window(
                RowNumber(),
                partition_by=[F("puzzle__size"), F("puzzle__difficulty")],
                order_by=[F("finished").desc(), F("id").desc()],
            )
        )
        .filter(rank__lte=RECENT_SOLVES)
        .values_list("puzzle__size", "puzzle__difficulty", "id", "finished", "elapsed_ms", "score")
    )
    for size, difficulty, game_id, finished, elapsed_ms, score in recent:
        recent_by_group[(size, difficulty)].append(
            {"game": game_id, "finished": finished, "elapsed_ms": elapsed_ms, "score": score}
        )
    groups = []
    for row in rows:
        key = (row["size"], row["difficulty"])
        current, longest = streaks(days_by_group.get(key, set()), today)
        average = row["average_time_ms"]
        groups.append(
            {
                **row,
                "average_time_ms": round(average) if average is not None else None,
                "current_streak": current,
                "longest_streak": longest,
                # Oldest first, as a chart reads.
                "recent": sorted(recent_by_group.get(key, []), key=lambda r: r["finished"]),
            }
        )
    all_days = set().union(*days_by_group.values()) if days_by_group else set()
    current, longest = streaks(all_days, today)
    return {
        "played": sum(g["played"] for g in groups),
        "completed": sum(g["completed"] for g in groups),
        "current_streak": current,
        "longest_streak": longest,
        "groups": groups,
    }


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """Midnight today, Monday's midnight this week, or None for all time (server time zone)."""
    now = timezone.localtime(now or timezone.now())
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "day":
        return midnight
    if period == "week":
        return midnight - timedelta(days=midnight.weekday())
    return None


def _board(games: QuerySet[Game]) -> QuerySet:
    """Completed games that count (integrity.gate decided it when they finished, and again
    on a staff verdict), of players who may be shown (integrity.selectors.shown_players:
    not held, not flagged repeatedly)."""
    return (
        games.filter(counting_games(), status=Status.COMPLETED)
        .filter(shown_players())
        .values(username=F("user__username"))
        .annotate(
            best_score=Max("score"),
            best_time_ms=Min("elapsed_ms"),
            completed=Count("id"),
        )
        .order_by("-best_score", "best_time_ms", "username")
    )


def leaderboard(
    *,
    size: int,
    difficulty: str,
    period: str = "all",
    now: datetime | None = None,
    variant: str = "classic",
) -> QuerySet:
    """Each player's best score and time at that variant, size and level, best first: games
    that count only (integrity.gate: a player's first game of a bank puzzle, played signed
    in, judged plausible)."""
    games = Game.objects.filter(
        puzzle__variant=variant, puzzle__size=size, puzzle__difficulty=difficulty
    )
    start = period_start(period, now)
    if start is not None:
        games = games.filter(finished__gte=start)
    return _board(games)


def puzzle_leaderboard(*, puzzle_id: int) -> QuerySet:
    """Each player's score and time on one puzzle, best first."""
    return _board(Game.objects.filter(puzzle_id=puzzle_id))
