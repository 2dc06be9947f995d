"""Playing a variant's daily puzzle: started from the API and the lobby, on its own board,
and its solution held until its day ends like a classic daily's."""

from __future__ import annotations

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.factories import UserFactory
from play.models import Game, Status
from puzzles import daily
from puzzles.models import DailyPuzzle
from tests.play.factories import NINE, puzzle_create
from tests.play.helpers import action
from tests.play.test_solution_disclosure import MONDAY, browser, client_for
from tests.variants.conftest import variant_puzzle

pytestmark = pytest.mark.django_db


def _dailies_today() -> dict[str, object]:
    """Today's classic and Killer 9x9 daily puzzles."""
    today = timezone.localdate()
    classic = puzzle_create(NINE)
    killer = variant_puzzle("killer", 9, seed="daily")
    DailyPuzzle.objects.create(date=today, size=9, puzzle=classic)
    DailyPuzzle.objects.create(date=today, variant="killer", size=9, puzzle=killer)
    return {"classic": classic, "killer": killer}


def test_starting_the_killer_daily_gives_the_killer_daily(token_client):
    puzzles = _dailies_today()
    response = token_client.post(
        "/api/v1/games/", {"daily": True, "variant": "killer"}, format="json"
    )
    assert response.status_code == 201, response.content
    puzzle = response.json()["puzzle"]
    assert puzzle["id"] == puzzles["killer"].pk
    assert puzzle["variant"] == "killer" and puzzle["cages"]
    classic = token_client.post("/api/v1/games/", {"daily": True}, format="json").json()
    assert classic["puzzle"]["id"] == puzzles["classic"].pk


def test_the_killer_daily_is_picked_on_first_start_when_the_beat_has_not_run(token_client):
    variant_puzzle("killer", 9, seed="first")
    response = token_client.post(
        "/api/v1/games/", {"daily": True, "variant": "killer", "size": 9}, format="json"
    )
    assert response.status_code == 201, response.content
    chosen = DailyPuzzle.objects.get(variant="killer")
    assert response.json()["puzzle"]["id"] == chosen.puzzle_id


def test_a_daily_start_with_a_bad_variant_is_a_400_naming_the_field(token_client):
    response = token_client.post(
        "/api/v1/games/", {"daily": True, "variant": "samurai"}, format="json"
    )
    assert response.status_code == 400
    assert "killer" in response.json()["error"]["fields"]["variant"][0]
    response = token_client.post(
        "/api/v1/games/", {"daily": True, "variant": "jigsaw", "size": 4}, format="json"
    )
    assert response.status_code == 400
    assert "size" in response.json()["error"]["fields"]


def test_the_lobby_offers_each_variants_daily_and_starts_the_one_chosen(db):
    puzzles = _dailies_today()
    guest = Client()
    html = guest.get("/").content.decode()
    assert 'data-testid="daily"' in html
    assert 'data-testid="daily-killer"' in html
    response = guest.post("/play/new/", {"daily": "1", "size": "9", "variant": "killer"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.puzzle == puzzles["killer"]
    html = guest.get("/").content.decode()
    assert 'data-testid="daily-killer"' not in html  # continued now, not started
    assert 'data-testid="daily"' in html  # the classic one is still to play
    assert "Continue the daily" in html
    page = guest.get(f"/play/{game.pk}/").content.decode()
    assert "Daily Killer puzzle" in page


def test_the_lobby_names_the_variants_dailies_in_chinese(db):
    _dailies_today()
    html = Client().get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "今日题目" in html
    assert "杀手数独" in html


def test_the_daily_boards_keep_variants_apart(api_client):
    puzzles = _dailies_today()
    players = {"classic": UserFactory(username="classicist"), "killer": UserFactory()}
    for variant, user in players.items():
        body = {"daily": True, "variant": variant}
        game = client_for(user).post("/api/v1/games/", body, format="json").json()
        # Finished and counted as the gate would count it: the board is what is tested.
        Game.objects.filter(pk=game["id"]).update(
            status=Status.COMPLETED, counts=True, score=1000, elapsed_ms=300_000
        )
    for variant, puzzle in puzzles.items():
        board = api_client.get(f"/api/v1/puzzles/{puzzle.pk}/leaderboard/").json()
        assert [row["username"] for row in board["results"]] == [players[variant].username]


def test_a_given_up_killer_daily_is_held_until_its_day_ends():
    client = browser()
    puzzle = variant_puzzle("killer", 9, seed="held")
    with time_machine.travel(MONDAY, tick=False):
        chosen = daily.daily_puzzle_pick(day=timezone.localdate(), size=9, variant="killer")
        assert chosen.puzzle_id == puzzle.pk
        body = {"daily": True, "variant": "killer"}
        game = client.post("/api/v1/games/", body, format="json").json()
        assert game["puzzle"]["id"] == puzzle.pk
        assert action(client, game["id"], "abandon").json()["solution"] is None
        assert client.get(f"/api/v1/games/{game['id']}/").json()["solution"] is None
    with time_machine.travel("2026-11-23 23:59:59+00:00", tick=False):
        assert client.get(f"/api/v1/games/{game['id']}/").json()["solution"] is None
    with time_machine.travel("2026-11-24 00:00:01+00:00", tick=False):
        shown = client.get(f"/api/v1/games/{game['id']}/").json()["solution"]
    assert shown == puzzle.solution
