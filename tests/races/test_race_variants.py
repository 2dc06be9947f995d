"""Races in every rule set: a race takes ``variant`` like a game, names it, and its racers'
games are of that variant (their results and ratings follow the game's variant)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from play.models import Game
from puzzles.models import DailyPuzzle
from races.models import Race
from tests.races.helpers import after_start, player, race_create
from tests.variants.conftest import variant_puzzle

pytestmark = pytest.mark.django_db


def _started(code: str, host, guest) -> dict:
    assert guest.post(f"/api/v1/races/{code}/join/", {}, format="json").status_code == 200
    started = host.post(f"/api/v1/races/{code}/start/", {}, format="json")
    assert started.status_code == 200, started.json()
    with after_start(code):
        return host.get(f"/api/v1/races/{code}/").json()


@pytest.mark.parametrize("variant", ["classic", "diagonal", "jigsaw", "killer"])
def test_a_race_of_each_variant_gives_every_racer_a_game_of_it(variant):
    if variant != "classic":
        variant_puzzle(variant, 6, "easy", seed="race")
    else:
        from solver import format_line
        from solver.generation.classic import generate
        from tests.play.factories import puzzle_create

        puzzle_create(format_line(generate(6, level="easy", seed="race").puzzle))
    host, guest = player(), player()
    made = race_create(host, size=6, difficulty="easy", variant=variant)
    assert made["race"]["variant"] == variant
    code = made["race"]["code"]
    state = _started(code, host, guest)
    assert state["race"]["variant"] == variant
    race = Race.objects.get(code=code)
    assert race.puzzle.variant == variant
    games = Game.objects.filter(race=race).select_related("puzzle")
    assert games.count() == 2
    assert {g.puzzle.variant for g in games} == {variant}
    game = host.get(f"/api/v1/games/{state['you']['game']}/").json()
    assert game["puzzle"]["variant"] == variant
    assert game["solution"] is None


def test_a_variant_race_with_no_puzzle_in_stock_makes_one():
    host, guest = player(), player()
    code = race_create(host, size=6, difficulty="easy", variant="jigsaw")["race"]["code"]
    state = _started(code, host, guest)
    assert Race.objects.get(code=code).puzzle.variant == "jigsaw"
    assert state["race"]["status"] in ("running", "countdown")


def test_a_daily_race_of_a_variant_is_on_that_variants_daily():
    puzzle = variant_puzzle("killer", 9, "easy", seed="race-daily")
    DailyPuzzle.objects.create(date=timezone.localdate(), variant="killer", size=9, puzzle=puzzle)
    host, guest = player(), player()
    made = host.post(
        "/api/v1/races/", {"size": 9, "daily": True, "variant": "killer"}, format="json"
    )
    assert made.status_code == 201, made.json()
    code = made.json()["race"]["code"]
    _started(code, host, guest)
    assert Race.objects.get(code=code).puzzle_id == puzzle.pk


@pytest.mark.parametrize(
    "body,field",
    [
        ({"variant": "sudoku-x", "difficulty": "easy", "size": 9}, "variant"),
        ({"variant": "killer", "difficulty": "expert", "size": 6}, "difficulty"),
        ({"variant": "jigsaw", "difficulty": "easy", "size": 16}, "difficulty"),
        ({"variant": "killer", "daily": True, "size": 4}, "size"),
    ],
)
def test_a_race_of_rules_not_made_is_a_400_naming_the_field(body, field):
    answer = player().post("/api/v1/races/", body, format="json")
    assert answer.status_code == 400, answer.json()
    assert field in answer.json()["error"]["fields"]


def test_the_race_form_and_page_name_the_variant():
    from accounts.factories import UserFactory

    variant_puzzle("diagonal", 6, "easy", seed="race-page")
    user = UserFactory()
    page = Client()
    page.force_login(user)
    form = page.get("/races/new/").content.decode()
    assert 'name="variant"' in form
    made = page.post(
        "/races/new/",
        {"variant": "diagonal", "size": "6", "puzzle": "easy", "time_limit": "20"},
    )
    assert made.status_code == 302, made.content.decode()[:500]
    race = Race.objects.get(host=user)
    assert race.variant == "diagonal"
    html = page.get(made["Location"]).content.decode()
    assert 'data-testid="race-variant">Diagonal<' in html
    refused = page.post(
        "/races/new/", {"variant": "killer", "size": "6", "puzzle": "expert", "time_limit": "20"}
    )
    assert refused.status_code == 200 and "are made at" in refused.content.decode()
