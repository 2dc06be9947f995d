"""The review lists: games the plausible-play review flagged, their signals, their moves;
players the evidence across their games holds."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from play.models import Move
from solver import cell_name
from sudokusite.fields import validate_visible_note

from . import decisions
from .models import GameReview, PlayerReview, PlayerStanding, Verdict

MOVES_SHOWN = 2000


class GameReviewForm(forms.ModelForm):
    """A staff note must be text people can read (sudokusite.fields.text_problem)."""

    class Meta:
        model = GameReview
        fields = ("note",)

    def clean_note(self) -> str:
        note = self.cleaned_data["note"]
        validate_visible_note(note)
        return note


@admin.register(GameReview)
class GameReviewAdmin(admin.ModelAdmin):
    form = GameReviewForm
    list_display = (
        "game_id",
        "user",
        "verdict",
        "placements",
        "fastest",
        "under_floor",
        "per_placement",
        "blind_quick",
        "player_flags",
        "moves_link",
        "created",
    )
    list_filter = ("verdict", "flagged")
    list_select_related = ("user", "game__puzzle")
    search_fields = ("=game__id", "user__username")
    readonly_fields = (
        "game",
        "user",
        "verdict",
        "flagged",
        "reasons",
        "signals",
        "reviewed_by",
        "reviewed",
        "created",
        "moves_link",
    )
    fields = (*readonly_fields[:-1], "note", "moves_link")
    actions = ("clear_reviews", "confirm_reviews")
    list_per_page = 50
    # What awaits a decision first.
    ordering = ("-flagged", "-created")

    def get_queryset(self, request: HttpRequest) -> QuerySet[GameReview]:
        flags = (
            GameReview.objects.filter(user=OuterRef("user"), flagged=True)
            .order_by()
            .values("user")
            .annotate(n=Count("id"))
            .values("n")
        )
        return (
            super()
            .get_queryset(request)
            .select_related("user", "game__puzzle")
            .annotate(player_flag_count=Coalesce(Subquery(flags), 0))
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("placements"))
    def placements(self, review: GameReview) -> Any:
        return review.signals.get("placements")

    @admin.display(description=_("fastest (ms)"))
    def fastest(self, review: GameReview) -> str:
        return ", ".join(str(ms) for ms in review.signals.get("fastest_ms", []))

    @admin.display(description=_("under 250 ms"))
    def under_floor(self, review: GameReview) -> str:
        s = review.signals
        return f"{s.get('under_floor')} ({s.get('under_floor_share', 0):.0%})"

    @admin.display(description=_("ms per placement (floor)"))
    def per_placement(self, review: GameReview) -> str:
        s = review.signals
        return f"{s.get('ms_per_placement')} ({s.get('level_floor_ms')})"

    @admin.display(description=_("blind quick"))
    def blind_quick(self, review: GameReview) -> str:
        s = review.signals
        return f"{s.get('blind_quick')} ({s.get('blind_share', 0):.0%})"

    @admin.display(description=_("player's flags"), ordering="player_flag_count")
    def player_flags(self, review: GameReview) -> int:
        return getattr(review, "player_flag_count", 0)

    @admin.display(description=_("moves"))
    def moves_link(self, review: GameReview) -> str:
        url = reverse("admin:integrity_gamereview_moves", args=[review.pk])
        return format_html(
            '<a href="{}">{}</a>', url, _("moves of game %(id)s") % {"id": review.game_id}
        )

    @admin.action(description=_("Clear: the games may enter boards and ratings"))
    def clear_reviews(self, request: HttpRequest, queryset: QuerySet[GameReview]) -> None:
        # Flagged or confirmed games, and games too short to judge (integrity.gate).
        undecided = Q(verdict__in=(Verdict.FLAGGED, Verdict.CONFIRMED)) | Q(
            verdict=Verdict.PLAUSIBLE, signals__judged=False
        )
        for review in queryset.filter(undecided):
            decisions.review_decide(review_id=review.pk, staff=request.user, cleared=True)
        self.message_user(request, _("Cleared."), messages.SUCCESS)

    @admin.action(description=_("Confirm: the games stay off boards and ratings"))
    def confirm_reviews(self, request: HttpRequest, queryset: QuerySet[GameReview]) -> None:
        for review in queryset.filter(verdict__in=(Verdict.FLAGGED, Verdict.CLEARED)):
            decisions.review_decide(review_id=review.pk, staff=request.user, cleared=False)
        self.message_user(request, _("Confirmed."), messages.SUCCESS)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.moves_view)
        return [
            path("<int:review_id>/moves/", view, name="integrity_gamereview_moves"),
            *super().get_urls(),
        ]

    def moves_view(self, request: HttpRequest, review_id: int) -> HttpResponse:
        """The game's move log as the review read it, with the game-clock time since the
        previous entry."""
        if not self.has_view_permission(request):
            return HttpResponse(status=403)
        review = get_object_or_404(
            GameReview.objects.select_related("game__puzzle", "user"), pk=review_id
        )
        game = review.game
        shape = game.puzzle.shape
        rows, previous = [], 0
        moves = Move.objects.filter(game=game).order_by("seq")[:MOVES_SHOWN]
        for move in moves:
            rows.append(
                {
                    "seq": move.seq,
                    "kind": move.kind,
                    "cell": cell_name(shape, move.cell) if move.cell is not None else "",
                    "value": move.value or "",
                    "correct": move.correct,
                    "aid": (move.response or {}).get("aid", ""),
                    # On the game clock (paused time excluded), as the review reads it.
                    "gap_ms": move.elapsed_ms - previous,
                    "clock_ms": move.elapsed_ms,
                    "created": move.created,
                }
            )
            previous = max(previous, move.elapsed_ms)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Moves of game {game.pk}",
            "review": review,
            "rows": rows,
            "opts": self.model._meta,
            "truncated": len(rows) == MOVES_SHOWN,
        }
        return TemplateResponse(request, "admin/integrity/moves.html", context)


@admin.register(PlayerReview)
class PlayerReviewAdmin(admin.ModelAdmin):
    """Players the evidence across their games flagged: held off boards and ratings until
    staff clear them (their held games are rated then) or confirm the hold."""

    list_display = (
        "user",
        "verdict",
        "held",
        "games",
        "engine_share",
        "pause_cv",
        "difficulty_corr",
        "speed_ratio",
        "released",
        "reviewed_by",
        "created",
    )
    list_filter = ("verdict", "held")
    list_select_related = ("user", "reviewed_by")
    search_fields = ("user__username",)
    readonly_fields = (
        "user",
        "verdict",
        "held",
        "reasons",
        "signals",
        "game",
        "held_since",
        "last_game_review_id",
        "released",
        "reviewed_by",
        "reviewed",
        "created",
    )
    fields = (*readonly_fields, "note")
    actions = ("clear_players", "confirm_players")
    list_per_page = 50
    ordering = ("-held", "-created")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("games judged"))
    def games(self, review: PlayerReview) -> Any:
        return review.signals.get("games")

    @admin.display(description=_("engine's next cell"))
    def engine_share(self, review: PlayerReview) -> Any:
        return review.signals.get("engine_share")

    @admin.display(description=_("pause variation"))
    def pause_cv(self, review: PlayerReview) -> Any:
        return review.signals.get("pause_cv")

    @admin.display(description=_("pause vs difficulty"))
    def difficulty_corr(self, review: PlayerReview) -> Any:
        return review.signals.get("difficulty_corr")

    @admin.display(description=_("speed vs typical"))
    def speed_ratio(self, review: PlayerReview) -> Any:
        return review.signals.get("speed_ratio")

    @admin.action(description=_("Clear: back on the boards, held games rated"))
    def clear_players(self, request: HttpRequest, queryset: QuerySet[PlayerReview]) -> None:
        for review in queryset.filter(held=True):
            decisions.player_review_decide(review_id=review.pk, staff=request.user, cleared=True)
        self.message_user(request, _("Cleared."), messages.SUCCESS)

    @admin.action(description=_("Confirm: the player stays off boards and ratings"))
    def confirm_players(self, request: HttpRequest, queryset: QuerySet[PlayerReview]) -> None:
        for review in queryset.filter(verdict__in=(Verdict.FLAGGED, Verdict.CLEARED)):
            decisions.player_review_decide(review_id=review.pk, staff=request.user, cleared=False)
        self.message_user(request, _("Confirmed."), messages.SUCCESS)


@admin.register(PlayerStanding)
class PlayerStandingAdmin(admin.ModelAdmin):
    """Established players (not provisional), and how: read-only, made by the gate, a
    staff clearing or the migration."""

    list_display = ("user", "established", "by")
    list_filter = ("by",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    readonly_fields = ("user", "established", "by")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
