"""Dailies that suit the day: a week of levels per variant, applied by the pick, shown by
the API and the lobby as the puzzle's own measured level."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.test import Client
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from puzzles.daily import DAILY_SCHEDULE, daily_level
from puzzles.models import Puzzle
from puzzles.stock import levels_offered
from solver import format_line
from solver.generation.classic import generate
from solver.logic.grade import LEVELS
from tests.play.factories import puzzle_create
from tests.variants.conftest import variant_puzzle

pytestmark = pytest.mark.django_db

MONDAY = date(2026, 11, 30)
VARIANTS = ("classic", "diagonal", "jigsaw", "killer")


def _client() -> APIClient:
    client = APIClient()
    client.force_authenticate(UserFactory())
    return client


def _stock(size: int = 9) -> None:
    """Two puzzles of every level each variant's week asks for at ``size``."""
    for variant in VARIANTS:
        levels = {daily_level(MONDAY + timedelta(days=i), size, variant) for i in range(7)}
        for level in levels:
            for i in range(2):
                if variant == "classic":
                    made = generate(size, level=level, seed=f"daily:{level}:{i}")
                    puzzle_create(format_line(made.puzzle), difficulty=level, source="generated")
                else:
                    variant_puzzle(variant, size, level, seed=f"daily{i}")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("size", [4, 6, 9, 16])
def test_the_schedule_is_easy_early_hardest_late_and_always_offered(variant, size):
    offered = levels_offered(variant, size)
    if not offered:
        return
    week = [daily_level(MONDAY + timedelta(days=i), size, variant) for i in range(7)]
    assert week[0] == offered[0]  # Monday: the easiest
    assert all(level in offered and level != "master" for level in week)
    ranks = [LEVELS.index(level) for level in week]
    assert ranks == sorted(ranks)  # never easier later in the week
    if variant == "killer":
        assert "expert" not in week  # a givens-free Killer is nobody's first daily


def test_the_daily_endpoints_serve_each_days_scheduled_level_for_a_week():
    _stock()
    client = _client()
    for i in range(7):
        day = MONDAY + timedelta(days=i)
        with time_machine.travel(datetime(day.year, day.month, day.day, 12, tzinfo=UTC)):
            listed = client.get("/api/v1/puzzles/daily/all/").json()
            everyone = {d["variant"]: d for d in listed if not d["constrained"]}
            for variant in VARIANTS:
                one = client.get("/api/v1/puzzles/daily/", {"variant": variant}).json()
                want = DAILY_SCHEDULE[variant][i]
                assert one["scheduled_level"] == want, (day, variant)
                assert one["difficulty"] == want, (day, variant)
                assert Puzzle.objects.get(pk=one["id"]).difficulty == one["difficulty"]
                assert everyone[variant]["id"] == one["id"]
                assert everyone[variant]["difficulty"] == want


def test_a_daily_that_cannot_have_its_level_shows_its_own():
    """No hard Diagonal to be had (none stored; a request makes none): the Saturday daily
    is the nearest level there is, and says so, not "hard"."""
    variant_puzzle("diagonal", 9, "medium", seed="only")
    saturday = MONDAY + timedelta(days=5)
    with time_machine.travel(datetime(2026, 12, 5, 12, tzinfo=UTC)):
        one = _client().get("/api/v1/puzzles/daily/", {"variant": "diagonal"}).json()
    assert daily_level(saturday, 9, "diagonal") == "hard"
    assert (one["scheduled_level"], one["difficulty"]) == ("hard", "medium")


def test_the_schedule_endpoint_lists_every_variants_week():
    weeks = _client().get("/api/v1/puzzles/daily/schedule/").json()
    assert {w["variant"] for w in weeks} == set(VARIANTS)
    for week in weeks:
        assert list(week["levels"].values()) == list(DAILY_SCHEDULE[week["variant"]])
    six = _client().get("/api/v1/puzzles/daily/schedule/", {"size": 6}).json()
    killer6 = next(w for w in six if w["variant"] == "killer")
    assert list(killer6["levels"].values()) == list(DAILY_SCHEDULE["killer"])  # up to hard
    jigsaw6 = next(w for w in six if w["variant"] == "jigsaw")
    assert "master" not in jigsaw6["levels"].values()


def test_the_lobby_shows_each_dailys_measured_level():
    _stock()
    with time_machine.travel(datetime(2026, 12, 1, 12, tzinfo=UTC)):  # a Tuesday
        client = _client()
        for variant in VARIANTS:
            client.get("/api/v1/puzzles/daily/", {"variant": variant})
        html = Client().get("/").content.decode()
    shown = html.split('data-testid="dailies"')[1].split("</section>")[0]
    assert shown.count('data-testid="daily-level"') == 4
    assert "Medium" in shown and "Easy" in shown  # classic medium; the variants easy


def test_the_beat_makes_a_daily_of_the_days_level_rather_than_another_level(no_enqueue):
    from puzzles.daily import daily_puzzles_pick
    from puzzles.models import DailyPuzzle

    variant_puzzle("killer", 6, "easy", seed="beat")
    thursday = MONDAY + timedelta(days=3)
    assert daily_level(thursday, 6, "killer") == "medium"
    assert daily_puzzles_pick(days=(thursday,), kinds=[("killer", 6)]) == 1
    chosen = DailyPuzzle.objects.get(date=thursday, variant="killer", size=6)
    assert chosen.puzzle.difficulty == "medium"
