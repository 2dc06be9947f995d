"""The player's statistics page and the leaderboards' page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from puzzles.models import Difficulty, Puzzle, Variant
from ratings.selectors import BOARD_MAX_DEVIATION, BOARD_MIN_GAMES
from ratings.views import board_label, rating_leaderboard_rows, rating_stats_for_page

from . import selectors
from .charts import clock, solve_times_svg
from .models import Status
from .views import LEADERBOARD_ROWS, PERIODS, SIZE_VALUES, SIZES, player_of, query_choice


def stats(request: HttpRequest) -> HttpResponse:
    """Per size and level: played, completed, best and average time, streaks, a chart."""
    if not request.user.is_authenticated:
        guest_games = selectors.game_list(player=player_of(request))
        return render(
            request,
            "play/stats.html",
            {
                "stats": None,
                "guest_played": guest_games.count(),
                "guest_completed": guest_games.filter(status=Status.COMPLETED).count(),
            },
        )
    data = selectors.user_stats(user=request.user)
    labels = dict(Difficulty.choices)
    for group in data["groups"]:
        group["label"] = f"{labels.get(group['difficulty'], group['difficulty'])} "
        group["label"] += f"{group['size']}×{group['size']}"
        group["best_time"] = clock(group["best_time_ms"])
        group["average_time"] = clock(group["average_time_ms"])
        for r in group["recent"]:
            r["clock"] = clock(r["elapsed_ms"])
        times = [r["elapsed_ms"] for r in group["recent"]]
        group["chart"] = solve_times_svg(
            times,
            label=_("Solve times of your last %(count)s %(group)s games")
            % {"count": len(times), "group": group["label"]},
        )
    data["ratings"] = rating_stats_for_page(user=request.user)
    from integrity.players import player_standing

    data["standing"] = player_standing(user=request.user)
    return render(request, "play/stats.html", {"stats": data})


def leaderboards(request: HttpRequest) -> HttpResponse:
    """Best players per size, level and period, or on one puzzle (``?puzzle=<id>``)."""
    puzzle = None
    puzzle_id = request.GET.get("puzzle", "")
    if puzzle_id.isdigit():
        puzzle = Puzzle.objects.filter(pk=int(puzzle_id)).first()
    size = query_choice(request.GET.get("size"), SIZE_VALUES, 9)
    difficulty = query_choice(request.GET.get("difficulty"), tuple(Difficulty.values), "easy")
    period = query_choice(request.GET.get("period"), selectors.PERIODS, "all")
    board = query_choice(request.GET.get("board"), ("score", "rating"), "score")
    variant = query_choice(request.GET.get("variant"), tuple(Variant.values), "classic")
    if board == "rating" and puzzle is None:
        rows = rating_leaderboard_rows(size=size, variant=variant, limit=LEADERBOARD_ROWS)
    elif puzzle is not None:
        rows = selectors.puzzle_leaderboard(puzzle_id=puzzle.pk)
    else:
        rows = selectors.leaderboard(
            size=size, difficulty=difficulty, period=period, variant=variant
        )
    entries = []
    for rank, row in enumerate(rows[:LEADERBOARD_ROWS], start=1):
        entries.append({**row, "rank": rank, "best_time": clock(row.get("best_time_ms"))})
    context = {
        "puzzle": puzzle,
        "entries": entries,
        "sizes": SIZES,
        "difficulties": Difficulty.choices,
        "variants": Variant.choices,
        "variant": variant,
        "periods": PERIODS,
        "size": size,
        "difficulty": difficulty,
        "period": period,
        "board": board,
        "rating_board_label": board_label(variant=variant, size=size),
        "rating_min_games": BOARD_MIN_GAMES,
        "rating_max_deviation": round(BOARD_MAX_DEVIATION),
        "me": request.user.get_username() if request.user.is_authenticated else None,
    }
    return render(request, "play/leaderboards.html", context)
