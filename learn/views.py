"""The lesson pages: thin views over the learn selectors and the practice service.

A lesson's example is rendered as JSON in a ``<script type="application/json">`` block and
drawn by ``static/js/lesson.js``, which steps through it on a board.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from rest_framework.request import Request

from learn import selectors
from learn.errors import UnknownTechnique
from learn.services import practice_game_start
from play.views import player_of
from solving.api.throttles import AnalyseThrottle
from sudokusite.errors import DomainError


def index(request: HttpRequest) -> HttpResponse:
    """Every technique grouped by level, then the variants' own techniques by variant, with
    the player's practice progress, then the constraint lessons."""
    progress = {}
    if request.user.is_authenticated:
        progress = {row["technique"]: row for row in selectors.practice_progress(user=request.user)}
    levels = [
        (
            level,
            selectors.level_name(level),
            [{**item, "progress": progress.get(item["slug"])} for item in items],
        )
        for level, items in selectors.technique_levels()
    ]
    groups = [
        (variant, heading, [{**item, "progress": progress.get(item["slug"])} for item in items])
        for variant, heading, items in selectors.variant_technique_groups()
    ]
    constraints = [
        {**item, "progress": progress.get(item["slug"])}
        for item in selectors.constraint_lesson_list()
    ]
    context = {"levels": levels, "variant_groups": groups, "constraint_lessons": constraints}
    return render(request, "learn/index.html", context)


def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        detail = selectors.technique_detail(slug=slug)
    except UnknownTechnique:
        return _unknown(request, slug)
    context = {
        "tech": detail,
        "example": detail["example"],
        "variant_heading": selectors.variant_heading(detail["variant"]),
    }
    return render(request, "learn/lesson.html", context)


def _unknown(request: HttpRequest, slug: str) -> HttpResponse:
    """A 404 page that names the slug it did not know."""
    return render(request, "learn/unknown.html", {"slug": slug}, status=404)


class PractiseForm(forms.Form):
    size = forms.TypedChoiceField(choices=[(9, "9x9"), (6, "6x6")], coerce=int, initial=9)


@require_POST
def practise(request: HttpRequest, slug: str) -> HttpResponse:
    """Start a practice game of the technique and open it."""
    form = PractiseForm(request.POST)
    size = form.cleaned_data["size"] if form.is_valid() else 9
    throttle = AnalyseThrottle()  # making a puzzle costs solver work: see the API's create
    try:
        game, _ = practice_game_start(
            player=player_of(request, create=True),
            technique=slug,
            size=size,
            may_make=lambda: throttle.allow_request(Request(request), None),
        )
    except UnknownTechnique:
        return _unknown(request, slug)
    except DomainError as exc:
        messages.info(request, exc.message)
        return redirect("learn:lesson", slug=slug)
    return redirect("play:game", game_id=game.pk)
