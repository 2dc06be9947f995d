"""Ratings in the admin: puzzles' ratings against their grade, players', the history.

The puzzle rating list can be narrowed to the puzzles whose rating disagrees most with
their grade: ``rating - prior`` is how far real solves moved a puzzle from where its
grader score put it (ratings.prior), so a large gap is a puzzle the grader misjudged.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import F, QuerySet
from django.db.models.functions import Abs
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import PlayerRating, PuzzleRating, RatingChange

# Points between rating and prior from which a puzzle counts as misjudged by the grader.
DISAGREEMENT = 200


class DisagreementFilter(admin.SimpleListFilter):
    title = "rating against grade"
    parameter_name = "disagreement"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("harder", f"Harder than graded (by {DISAGREEMENT}+)"),
            ("easier", f"Easier than graded (by {DISAGREEMENT}+)"),
            ("most", "Largest disagreement first"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "harder":
            return queryset.filter(gap__gte=DISAGREEMENT)
        if self.value() == "easier":
            return queryset.filter(gap__lte=-DISAGREEMENT)
        if self.value() == "most":
            return queryset.filter(plays__gt=0)
        return queryset


@admin.register(PuzzleRating)
class PuzzleRatingAdmin(admin.ModelAdmin):
    list_display = (
        "puzzle_link",
        "variant",
        "size",
        "difficulty",
        "score",
        "shown_prior",
        "shown_rating",
        "shown_deviation",
        "plays",
        "shown_gap",
    )
    list_filter = ("variant", "size", "puzzle__difficulty", DisagreementFilter)
    search_fields = ("=puzzle__id",)
    list_per_page = 50
    show_full_result_count = False
    readonly_fields = (
        "puzzle", "variant", "size", "rating", "deviation", "volatility", "plays", "prior",
    )  # fmt: skip

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # Annotated before ordering: the ordering may use the gap.
        gap = F("rating") - F("prior")
        rows = PuzzleRating.objects.select_related("puzzle").annotate(gap=gap, distance=Abs(gap))
        return rows.order_by(*self.get_ordering(request))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_ordering(self, request: HttpRequest) -> list[str]:
        # Under the disagreement filter, the largest gap comes first.
        chosen = request.GET.get(DisagreementFilter.parameter_name)
        return {"harder": ["-gap"], "easier": ["gap"], "most": ["-distance"]}.get(
            chosen or "", ["puzzle_id"]
        )

    @admin.display(description=_("puzzle"), ordering="puzzle_id")
    def puzzle_link(self, obj: PuzzleRating) -> str:
        url = reverse("admin:puzzles_puzzle_change", args=[obj.puzzle_id])
        return format_html('<a href="{}">#{}</a>', url, obj.puzzle_id)

    @admin.display(description=_("grade"), ordering="puzzle__difficulty")
    def difficulty(self, obj: PuzzleRating) -> str:
        return obj.puzzle.get_difficulty_display()

    @admin.display(description=_("grader score"), ordering="puzzle__score")
    def score(self, obj: PuzzleRating) -> int:
        return obj.puzzle.score

    @admin.display(description=_("prior"), ordering="prior")
    def shown_prior(self, obj: PuzzleRating) -> int:
        return round(obj.prior)

    @admin.display(description=_("rating"), ordering="rating")
    def shown_rating(self, obj: PuzzleRating) -> int:
        return round(obj.rating)

    @admin.display(description=_("deviation"), ordering="deviation")
    def shown_deviation(self, obj: PuzzleRating) -> int:
        return round(obj.deviation)

    @admin.display(description=_("rating − prior"), ordering="gap")
    def shown_gap(self, obj: PuzzleRating) -> int:
        return round(obj.gap)  # type: ignore[attr-defined]


class PuzzleRatingInline(admin.StackedInline):
    """The rating on the puzzle's own admin page (read only)."""

    model = PuzzleRating
    fields = ("rating", "deviation", "plays", "prior")
    readonly_fields = fields
    can_delete = False
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "variant", "size", "rating", "deviation", "games", "last_played")
    list_filter = ("variant", "size")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    readonly_fields = (
        "user", "variant", "size", "rating", "deviation", "volatility", "games", "last_played",
    )  # fmt: skip
    show_full_result_count = False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = (
        "game",
        "user",
        "puzzle",
        "variant",
        "size",
        "outcome",
        "player_before",
        "player_after",
        "puzzle_before",
        "puzzle_after",
        "created",
    )
    list_filter = ("variant", "size")
    search_fields = ("user__username", "=game__id", "=puzzle__id")
    list_select_related = ("user",)
    show_full_result_count = False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
