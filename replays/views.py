"""The replay pages (the owner's and the shared one) and the game history.

Thin views: the page gets the replay exactly as the API answers it (as JSON in a
``<script type="application/json">`` block) and ``static/js/replay.js`` plays it, asking
the API again only while the analysis is pending.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import ensure_csrf_cookie

from play import selectors as play_selectors
from play.charts import clock
from play.constraint_words import constraint_words
from play.errors import GameNotFound
from play.models import FINISHED, Game, Status
from play.sharing import export_context, game_export
from play.views import player_of
from puzzles.sharing import puzzle_export

from . import selectors
from .api.serializers import replay_payload
from .errors import GameNotFinished, ReplayNotFound

HISTORY_PAGE = 25
IN_PROGRESS_PAGE = 10
UNFINISHED = (Status.IN_PROGRESS, Status.PAUSED)


def _render(request: HttpRequest, game: Game, *, owner: bool, urls: dict[str, str]) -> HttpResponse:
    data = replay_payload(game, selectors.event_list(game=game), owner=owner)
    page_data = {**data, "urls": urls, "owner": owner}
    puzzle = game.puzzle
    if puzzle.rules and puzzle.rules.get("constraints"):
        page_data["constraint_words"] = constraint_words()
    context = {
        "game": game,
        "puzzle": puzzle,
        "page_data": page_data,
        "owner": owner,
        "player": data["player"],
    }
    # The owner's export may carry the solution where play.disclosure allows; a shared
    # replay's never does.
    exported = game_export(game) if owner else puzzle_export(puzzle=puzzle, with_solution=False)
    context.update(export_context(exported))
    return render(request, "replays/replay.html", context)


@ensure_csrf_cookie
def replay_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The owner's replay; a game still being played opens its board instead."""
    try:
        game = selectors.finished_game_get(game_id=game_id, player=player_of(request))
    except GameNotFound:
        raise Http404("No such game.") from None
    except GameNotFinished:
        return redirect("play:game", game_id=game_id)
    api = reverse("api:game-replay", args=[game.pk])
    urls = {"replay": api, "share": api + "share/", "game": reverse("play:game", args=[game.pk])}
    return _render(request, game, owner=True, urls=urls)


def shared_replay_page(request: HttpRequest, token: str) -> HttpResponse:
    """A shared replay, for anyone with the link; a 404 once the owner stops sharing."""
    try:
        game = selectors.shared_game_get(token=token)
    except ReplayNotFound:
        raise Http404("No such replay.") from None
    return _render(
        request, game, owner=False, urls={"replay": reverse("api:shared-replay", args=[token])}
    )


def game_history(request: HttpRequest) -> HttpResponse:
    """The player's games in progress (paused ones too), each linked to its board, then the
    finished ones, newest first, each linked to its replay; both paginated."""
    player = player_of(request)
    now = timezone.now()
    playing = play_selectors.game_list(player=player).filter(status__in=UNFINISHED)
    playing_page = Paginator(playing, IN_PROGRESS_PAGE).get_page(request.GET.get("playing"))
    in_progress = [
        {
            "game": g,
            "clock": clock(g.elapsed_at(now)),
            "url": reverse("play:game", args=[g.pk]),
            "paused": g.status == Status.PAUSED,
        }
        for g in playing_page
    ]
    games = play_selectors.game_list(player=player).filter(status__in=FINISHED)
    page = Paginator(games, HISTORY_PAGE).get_page(request.GET.get("page"))
    rows: list[dict[str, Any]] = [
        {"game": g, "clock": clock(g.elapsed_ms), "replay": reverse("replays:replay", args=[g.pk])}
        for g in page
    ]
    context = {
        "page": page,
        "rows": rows,
        "playing_page": playing_page,
        "in_progress": in_progress,
    }
    return render(request, "replays/history.html", context)
