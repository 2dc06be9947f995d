"""The race pages: making a race, and a race's page (lobby, countdown, live standings,
results). Thin views over races.services; static/js/race.js keeps the page live over the
race socket."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import ensure_csrf_cookie

from puzzles.models import Difficulty, Variant
from sudokusite.errors import DomainError

from . import services
from .errors import RaceNotFound
from .models import Outcome, RaceStatus

SIZES = ((4, "4×4"), (6, "6×6"), (9, "9×9"), (16, "16×16"))
TIME_LIMITS = ((5, "5"), (10, "10"), (20, "20"), (30, "30"), (60, "60"))


class RaceForm(forms.Form):
    variant = forms.ChoiceField(
        label=_("Rules"), choices=Variant.choices, initial=Variant.CLASSIC, required=False
    )
    size = forms.TypedChoiceField(label=_("Size"), choices=SIZES, coerce=int, initial=9)
    puzzle = forms.ChoiceField(
        label=_("Puzzle"),
        choices=[*Difficulty.choices, ("daily", _("Today's daily puzzle"))],
        initial=Difficulty.EASY,
    )
    time_limit = forms.TypedChoiceField(
        label=_("Time limit (minutes)"), choices=TIME_LIMITS, coerce=int, initial=20
    )


def socket_csp(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Name the race socket's origin in connect-src: 'self' covers ws: and wss: only in
    browsers that follow CSP 3 (the host is the request's, checked against ALLOWED_HOSTS)."""
    scheme = "wss" if request.is_secure() else "ws"
    response._csp_update = {"connect-src": [f"{scheme}://{request.get_host()}"]}  # type: ignore[attr-defined]
    return response


@login_required
def race_new(request: HttpRequest) -> HttpResponse:
    form = RaceForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        choice = form.cleaned_data["puzzle"]
        try:
            race = services.race_create(
                host=request.user,
                size=form.cleaned_data["size"],
                difficulty="" if choice == "daily" else choice,
                daily=choice == "daily",
                time_limit_s=form.cleaned_data["time_limit"] * 60,
                variant=form.cleaned_data["variant"] or Variant.CLASSIC,
            )
        except DomainError as exc:
            form.add_error(None, str(exc.message))
        except ValidationError as exc:
            for messages in exc.message_dict.values():
                for message in messages:
                    form.add_error(None, message)
        else:
            return redirect("races:race", code=race.code)
    return render(request, "races/new.html", {"form": form})


def race_data(request: HttpRequest, code: str) -> dict[str, Any]:
    """What race.js starts from: the race as the socket's snapshot has it, and where to
    connect."""
    message, _due = services.race_snapshot(code=code, user=request.user)
    return {
        "code": code,
        "socket": f"/ws/races/{code}/",
        "page": reverse("races:race", args=[code]),
        "play": reverse("play:game", args=[0]).replace("/0/", "/{game}/"),
        "race": message["race"],
        "you": message["you"],
    }


def labelled(race: dict[str, Any]) -> dict[str, Any]:
    """The race with each racer's outcome in words, for the page before race.js runs."""
    outcomes = dict(Outcome.choices)
    if race["status"] in (RaceStatus.LOBBY, RaceStatus.COUNTDOWN):
        outcomes = dict.fromkeys(outcomes, _("Joined"))  # nobody races before the start
    racers = [{**r, "outcome_label": outcomes[r["outcome"]]} for r in race["racers"]]
    return {**race, "racers": racers}


@ensure_csrf_cookie
def race_page(request: HttpRequest, code: str) -> HttpResponse:
    """The race: anyone with the link watches; signed-in players join and race."""
    try:
        data = race_data(request, code)
    except RaceNotFound:
        raise Http404(_("No such race.")) from None
    race = data["race"]
    context = {
        "data": data,
        "race": labelled(race),
        "status_label": RaceStatus(race["status"]).label,
        "you": data["you"],
        "link": request.build_absolute_uri(data["page"]),
        "level": dict(Difficulty.choices).get(race["difficulty"], ""),
        "variant_label": dict(Variant.choices).get(race["variant"], race["variant"]),
    }
    return socket_csp(request, render(request, "races/race.html", context))
