"""The browser pages: lobby, game, solve-your-own, stats and leaderboards.

Thin views over the game services and selectors. The game page renders the game object
exactly as the API serializes it (as JSON in a ``<script type="application/json">`` block,
which the Content-Security-Policy does not treat as script) and ``static/js/game.js`` plays
it through the same API the mobile client uses, so the server checks every move.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from puzzles.constraint_daily import constraint_daily_entry
from puzzles.models import DailyPuzzle, Difficulty, Puzzle, Source, Variant
from puzzles.selectors import daily_puzzles_of
from puzzles.stock import levels_offered, makeable_now
from solver.logic.general import BY_SLUG as VARIANT_BY_SLUG
from solver.logic.techniques import BY_SLUG
from solving.steps import technique_name
from sudokusite.errors import DomainError
from sudokusite.net import client_ip

from . import selectors
from .aids import aid_settings_of
from .api.serializers.games import GameSerializer
from .bench_words import TOGGLES as BENCH_TOGGLES
from .bench_words import TOOLS as BENCH_TOOLS
from .bench_words import bench_words
from .charts import clock
from .clock import gap_ms
from .constraint_words import constraint_words
from .lifecycle import Player, game_start, guest_key_get
from .models import UNFINISHED, Game, Status
from .scoring import AID_PENALTY
from .sharing import export_context, game_export

SIZES = (
    (4, "4×4", pgettext_lazy("grid size", "Mini")),
    (6, "6×6", pgettext_lazy("grid size", "Junior")),
    (9, "9×9", pgettext_lazy("grid size", "Classic")),
    (16, "16×16", pgettext_lazy("grid size", "Giant")),
)
SIZE_VALUES = tuple(size for size, _, _ in SIZES)
LEADERBOARD_ROWS = 50
LOBBY_UNFINISHED = 4
MISTAKE_LIMITS = (("", gettext_lazy("No limit")), ("3", "3"), ("5", "5"))
PERIODS = (
    ("day", gettext_lazy("Today")),
    ("week", gettext_lazy("This week")),
    ("all", gettext_lazy("All time")),
)


def player_of(request: HttpRequest, *, create: bool = False) -> Player:
    """The signed-in user, or the guest of this browser session."""
    if request.user.is_authenticated:
        return Player(user=request.user)
    return Player(
        guest_key=guest_key_get(request=request, create=create), address=client_ip(request) or ""
    )


def _filled_percent(game: Game) -> int:
    givens = game.puzzle.givens
    open_cells = givens.count(".")
    if not open_cells:
        return 100
    filled = sum(1 for g, e in zip(givens, game.entries, strict=False) if g == "." and e != ".")
    return round(100 * filled / open_cells)


def query_choice(value: str | None, allowed: tuple[Any, ...], default: Any) -> Any:
    for option in allowed:
        if str(option) == value:
            return option
    return default


def home(request: HttpRequest) -> HttpResponse:
    """The lobby: start a game, continue one, today's puzzle, links to the rest."""
    player = player_of(request)
    now = timezone.now()
    unfinished = list(
        selectors.game_list(player=player).filter(status__in=[Status.IN_PROGRESS, Status.PAUSED])[
            : LOBBY_UNFINISHED + 1
        ]
    )
    more_unfinished = len(unfinished) > LOBBY_UNFINISHED  # the history page lists them all
    unfinished = unfinished[:LOBBY_UNFINISHED]
    for game in unfinished:
        game.filled_percent = _filled_percent(game)  # type: ignore[attr-defined]
        game.clock = clock(game.elapsed_at(now))  # type: ignore[attr-defined]
    stocked = set(
        Puzzle.objects.exclude(source=Source.PRACTICE)  # a lesson's, in no level's pool
        .filter(constrained=False)
        .values_list("variant", "size", "difficulty")
        .distinct()
        .order_by()
    )
    difficulties = [
        (value, label, _unavailable(value, stocked)) for value, label in Difficulty.choices
    ]
    context = {
        "sizes": SIZES,
        # (value, label, "variant:size:reason" where the level cannot be served now: greyed
        # out by CSS, the reason told by lobby.js)
        "difficulties": difficulties,
        "chosen_size": query_choice(request.GET.get("size"), SIZE_VALUES, 9),
        "chosen_difficulty": query_choice(
            request.GET.get("difficulty"), tuple(Difficulty.values), "easy"
        ),
        "variants": Variant.choices,
        "chosen_variant": query_choice(
            request.GET.get("variant"), tuple(Variant.values), "classic"
        ),
        "mistake_limits": MISTAKE_LIMITS,
        "unfinished": unfinished,
        "more_unfinished": more_unfinished,
        "dailies": _dailies(player, stocked),
    }
    return render(request, "play/home.html", context)


def _unavailable(level: str, stocked: set[tuple[str, int, str]]) -> str:
    """The variants and sizes at which ``level`` cannot be served now (none in stock), with
    the reason: ``not_made`` (the generator does not make it there) or ``later`` (too big
    to make in a request: the workers are making them)."""
    out = []
    for variant in Variant.values:
        for size in SIZE_VALUES:
            if (variant, size, level) in stocked:
                continue
            if level not in levels_offered(variant, size):
                out.append(f"{variant}:{size}:not_made")
            elif not makeable_now(variant, size):
                out.append(f"{variant}:{size}:later")
    return " ".join(out)


def _dailies(player: Player, stocked: set[tuple[str, int, str]]) -> list[dict[str, Any]]:
    """Today's 9x9 puzzle of classic and of each variant the bank holds 9x9 puzzles of,
    with the player's game of it if they have one."""
    chosen = {d.variant: d for d in daily_puzzles_of(day=timezone.localdate(), size=9)}
    offered = {variant for variant, size, _level in stocked if size == 9} | set(chosen)
    offered.add(Variant.CLASSIC)  # always offered: starting it says why if the bank is empty
    games = selectors.game_list(player=player)  # newest first
    return [
        {
            "variant": value,
            "label": label,
            # The daily's own measured level, once it is chosen.
            "level": chosen[value].puzzle.get_difficulty_display() if value in chosen else "",
            "game": games.filter(puzzle_id=chosen[value].puzzle_id).first()
            if value in chosen
            else None,
        }
        for value, label in Variant.choices
        if value in offered
    ] + _constraint_daily(games)


def _constraint_daily(games: Any) -> list[dict[str, Any]]:
    """Today's daily puzzle with constraints as the lobby lists it, with the player's game
    of it (none on a day it could not be made)."""
    entry = constraint_daily_entry(day=timezone.localdate())
    if entry is None:
        return []
    found = games.filter(puzzle_id=entry["puzzle_id"]).first() if entry["puzzle_id"] else None
    return [{**entry, "variant": "constrained", "constrained": True, "game": found}]


class NewGameForm(forms.Form):
    size = forms.TypedChoiceField(
        choices=[(s, label) for s, label, _ in SIZES], coerce=int, required=False, empty_value=9
    )
    difficulty = forms.ChoiceField(choices=Difficulty.choices, required=False)
    variant = forms.ChoiceField(choices=Variant.choices, required=False)
    daily = forms.BooleanField(required=False)
    constrained = forms.BooleanField(required=False)
    puzzle = forms.IntegerField(required=False, min_value=1)
    mistake_limit = forms.TypedChoiceField(
        choices=MISTAKE_LIMITS, coerce=int, required=False, empty_value=None
    )
    level = forms.ChoiceField(choices=[("mine", "At my level")], required=False)


@require_POST
def game_new(request: HttpRequest) -> HttpResponse:
    """Start a game from the lobby's form (or "play another") and open it."""
    form = NewGameForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            messages.error(request, f"{field}: {errors[0]}")
        return redirect("home")
    data = form.cleaned_data
    try:
        game, created = game_start(
            player=player_of(request, create=True),
            puzzle_id=data["puzzle"],
            difficulty=data["difficulty"] or "easy",
            size=data["size"],
            daily=data["daily"],
            constrained=data["constrained"],
            mistake_limit=data["mistake_limit"],
            mine=data["level"] == "mine",
            variant=data["variant"] or "classic",
        )
    except (DomainError, ValidationError) as exc:
        message = exc.message if isinstance(exc, DomainError) else "; ".join(exc.messages)
        messages.error(request, message)
        return redirect(
            f"{reverse('home')}?size={data['size']}&difficulty={data['difficulty'] or 'easy'}"
            f"&variant={data['variant'] or 'classic'}"
        )
    if not created:
        messages.info(request, _("You are already playing this puzzle: here is your game."))
    return redirect("play:game", game_id=game.pk)


def _api_urls(game: Game) -> dict[str, str]:
    base = f"/api/v1/games/{game.pk}/"
    return {
        "game": base,
        "moves": base + "moves/",
        "undo": base + "undo/",
        "redo": base + "redo/",
        "pause": base + "pause/",
        "resume": base + "resume/",
        "hint": base + "hint/",
        "abandon": base + "abandon/",
        "heartbeat": base + "heartbeat/",
        "auto_notes": base + "auto-notes/",
        "restart": base + "restart/",
        "aids": "/api/v1/me/aids/",
        "leaderboard": f"/api/v1/puzzles/{game.puzzle_id}/leaderboard/",
    }


@ensure_csrf_cookie
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board, drawn by game.js from the game as the API serializes it."""
    game = selectors.game_list(player=player_of(request)).filter(pk=game_id).first()
    if game is None:
        raise Http404(_("No such game."))
    puzzle = game.puzzle
    daily = DailyPuzzle.objects.filter(puzzle=puzzle).order_by("-date").first()
    if daily:
        day = formats.date_format(daily.date, "MONTH_DAY_FORMAT")
        if daily.constrained:
            heading = _("Daily puzzle with constraints, %(day)s") % {"day": day}
        elif daily.variant == Variant.CLASSIC:
            heading = _("Daily puzzle, %(day)s") % {"day": day}
        else:
            heading = _("Daily %(variant)s puzzle, %(day)s") % {
                "variant": daily.get_variant_display(),
                "day": day,
            }
    else:
        heading = _("Puzzle #%(number)s") % {"number": puzzle.pk}
    page_data = {
        "game": GameSerializer(game, context={"request": request}).data,
        "urls": _api_urls(game),
        "user": request.user.is_authenticated,
        "username": request.user.get_username() if request.user.is_authenticated else None,
        # Until the game's JSON says why a game is unranked (unranked_reason), game_board.js
        # words it from this: a replayed puzzle is not ranked.
        "ranked": game.ranked,
        # The clock's gap: the page sends a heartbeat every third of it (docs/playing.md).
        "clock_gap_ms": gap_ms(),
        "service_worker": reverse("play:service_worker"),
        # The board aids on the account; a guest's are kept in the browser (game.js).
        "aids": aid_settings_of(user=request.user) if request.user.is_authenticated else None,
    }
    if puzzle.rules and puzzle.rules.get("constraints"):
        page_data["constraint_words"] = constraint_words()
    context = {"game": game, "puzzle": puzzle, "heading": heading, "page_data": page_data}
    context["aid_percent"] = round(AID_PENALTY * 100)  # what Auto notes costs, said first
    context["practice"] = _practice_of(game)
    if game.race_id is not None:  # a race game shows its race, live
        return _race_game_page(request, context)
    context["puzzle_rating"] = (page_data["game"]["rating"] or {}).get("puzzle")
    context.update(export_context(game_export(game)))
    return render(request, "play/game.html", context)


def _practice_of(game: Game) -> dict[str, str] | None:
    """A practice game's technique: its name in the reader's language and its lesson."""
    from learn.constraint_lessons import constraint_lesson

    slug = game.practice_technique
    tech = BY_SLUG.get(slug) or VARIANT_BY_SLUG.get(slug)  # a Killer technique's too
    lesson = constraint_lesson(slug)  # or a constraint lesson's
    if not slug or (tech is None and lesson is None):
        return None
    name = str(lesson.name) if lesson is not None else None
    return {
        "slug": slug,
        "name": name or technique_name({"technique": slug, "name": tech.name}),
        "lesson": reverse("learn:lesson", args=[slug]),
        "practise": reverse("learn:practise", args=[slug]),
    }


def _race_game_page(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    from races.models import Race
    from races.views import labelled, race_data, socket_csp

    game = context["game"]
    code = Race.objects.filter(pk=game.race_id).values_list("code", flat=True).first()
    if code is not None:
        data = race_data(request, code)
        context.update(race_code=code, race_data=data, race=labelled(data["race"]))
    context["puzzle_rating"] = (context["page_data"]["game"]["rating"] or {}).get("puzzle")
    return socket_csp(request, render(request, "play/game.html", context))


def web_manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the site installs on a phone's home screen and opens at
    ``play:start``, which the service worker answers offline with the last game it kept."""
    icon = {"type": "image/png", "purpose": "any"}
    data = {
        "name": settings.SITE_NAME,
        "short_name": settings.SITE_NAME,
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("play:start"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f7fb",
        "theme_color": "#4f46e5",
        "icons": [
            {**icon, "src": static("img/icon-192.png"), "sizes": "192x192"},
            {**icon, "src": static("img/icon-512.png"), "sizes": "512x512"},
            {**icon, "src": static("img/icon-maskable-512.png"), "sizes": "512x512"}
            | {"purpose": "maskable"},
        ],
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


def play_start(request: HttpRequest) -> HttpResponse:
    """Where the installed app opens: the player's latest unfinished game, else the lobby.
    Offline, the service worker answers it with the last game page it kept."""
    latest = (
        Game.objects.filter(player_of(request).owns(), status__in=UNFINISHED)
        .order_by("-updated")
        .values_list("pk", flat=True)
        .first()
    )
    return redirect("play:game", game_id=latest) if latest else redirect("home")


def service_worker(request: HttpRequest) -> HttpResponse:
    """The game page's service worker: served from /play/ so that its scope covers the game
    pages, which it keeps to load offline (see the template). Never cached by HTTP, so a new
    worker reaches browsers on their next visit."""
    response = render(request, "play/sw.js", content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@ensure_csrf_cookie
def solve(request: HttpRequest) -> HttpResponse:
    """Type, paste or click in a puzzle; the solver API checks, solves, grades and explains."""
    solve_data = {
        "urls": {
            "analyse": "/api/v1/solver/analyse/",
            "check": "/api/v1/solver/check/",
            "variants_css": static("css/variants.css"),
            "games": "/api/v1/games/",
            "play": "/play/",
        }
    }
    # A pasted SudokuPad or f-puzzles puzzle has its constraints drawn on the board.
    solve_data["constraint_words"] = constraint_words()
    solve_data["bench_words"] = bench_words()
    context = {
        "sizes": SIZES,
        "solve_data": solve_data,
        "bench_tools": BENCH_TOOLS,
        "bench_toggles": BENCH_TOGGLES,
    }
    return render(request, "play/solve.html", context)
