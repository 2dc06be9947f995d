"""Bounded work per account (issue #34, item 5), tried as a client would: starting game
after game, a game with move after move, and games ended faster than a person ends them."""

from __future__ import annotations

import time

import pytest
import time_machine

from accounts.factories import UserFactory
from play.models import Game
from tests.api.test_cache_outage import cache_down  # noqa: F401  (a fixture)
from tests.play.factories import NINE, empty_cells, puzzle_create
from tests.play.helpers import action, move, start
from tests.play.test_solution_disclosure import browser, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_window():
    """The limits count in fixed windows (a minute, an hour, a day): each test runs in one
    instant at the start of a minute, so a slow machine never splits its starts across
    two windows."""
    with time_machine.travel((int(time.time()) // 60 + 2) * 60, tick=False):
        yield


def start_and_give_up(client, puzzle):
    """Start a game of ``puzzle`` (a new one: the last was given up) and give it up."""
    response = client.post("/api/v1/games/", {"puzzle": puzzle.pk}, format="json")
    if response.status_code == 201:
        assert action(client, response.json()["id"], "abandon").status_code == 200
    return response


def refused_as_too_many_games(response) -> bool:
    error = response.json()["error"]
    return (
        response.status_code == 429
        and error["code"] == "too_many_games"
        and int(response["Retry-After"]) > 0
        and error["message"]
    )


def test_game_starts_beyond_the_rate_per_minute_are_429_with_retry_after(
    settings, token_client, puzzle9
):
    settings.GAME_STARTS_PER_MINUTE = 3
    statuses = [start_and_give_up(token_client, puzzle9).status_code for _ in range(3)]
    assert statuses == [201, 201, 201]
    response = start_and_give_up(token_client, puzzle9)
    assert refused_as_too_many_games(response)
    assert Game.objects.count() == 3


def test_game_starts_beyond_the_rate_per_day_are_429(settings, token_client, puzzle9):
    settings.GAME_STARTS_PER_DAY = 2
    assert [start_and_give_up(token_client, puzzle9).status_code for _ in range(2)] == [201] * 2
    assert refused_as_too_many_games(start_and_give_up(token_client, puzzle9))


def test_asking_again_for_the_game_one_plays_does_not_count_as_a_start(
    settings, token_client, puzzle9
):
    settings.GAME_STARTS_PER_MINUTE = 1
    game = start(token_client, puzzle9)
    for _ in range(5):
        again = token_client.post("/api/v1/games/", {"puzzle": puzzle9.pk}, format="json")
        assert again.status_code == 200 and again.json()["id"] == game["id"]


def test_a_guest_cannot_reset_the_start_count_with_a_fresh_session(settings, puzzle9):
    settings.GAME_STARTS_PER_MINUTE = 2
    statuses = [start_and_give_up(browser(), puzzle9).status_code for _ in range(3)]
    assert statuses[:2] == [201, 201]
    assert statuses[2] == 429


def test_the_lobby_form_refuses_a_start_beyond_the_rate_with_a_message(settings, client, user):
    settings.GAME_STARTS_PER_MINUTE = 1
    puzzle_create(NINE, difficulty="easy")
    puzzle_create(NINE.replace("5", ".", 1), difficulty="easy")
    client.force_login(user)
    first = client.post("/play/new/", {"difficulty": "easy", "size": 9}, follow=True)
    assert first.status_code == 200 and Game.objects.count() == 1
    second = client.post("/play/new/", {"difficulty": "easy", "size": 9}, follow=True)
    assert Game.objects.count() == 1
    assert "Too many games started: at most 1 in a minute" in second.content.decode()


def test_starts_go_through_when_the_cache_is_down(cache_down, settings, token_client, puzzle9):  # noqa: F811
    settings.GAME_STARTS_PER_MINUTE = 1
    assert [start_and_give_up(token_client, puzzle9).status_code for _ in range(3)] == [201] * 3


def test_a_game_takes_moves_up_to_its_bound_then_only_a_give_up(settings, token_client, puzzle4):
    settings.GAME_MOVES_PER_CELL = 2  # a 4x4 game: 32 writes
    game = start(token_client, puzzle4)
    cell = empty_cells(puzzle4)[0]
    statuses = [move(token_client, game["id"], cell, 2, kind="note").status_code for _ in range(32)]
    assert statuses == [200] * 32
    response = move(token_client, game["id"], cell, 2, kind="note")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "too_many_moves" and error["moves_allowed"] == 32
    assert action(token_client, game["id"], "pause").status_code == 409
    assert action(token_client, game["id"], "abandon").json()["status"] == "abandoned"


def test_the_move_bound_scales_with_the_grid(settings, token_client, puzzle9):
    settings.GAME_MOVES_PER_CELL = 2  # a 9x9 game: 162 writes
    game = start(token_client, puzzle9)
    cell = empty_cells(puzzle9)[0]
    for _ in range(162):
        assert move(token_client, game["id"], cell, 2, kind="note").status_code == 200
    assert move(token_client, game["id"], cell, 2, kind="note").status_code == 409


def test_games_ended_beyond_the_analysis_rate_are_not_analysed(settings, token_client, puzzle9):
    settings.ANALYSES_PER_HOUR = 1
    first = start_and_give_up(token_client, puzzle9).json()
    second = start_and_give_up(token_client, puzzle9).json()
    replay = token_client.get(f"/api/v1/games/{first['id']}/replay/").json()
    assert replay["analysis"] == {"status": "pending", "data": None}
    replay = token_client.get(f"/api/v1/games/{second['id']}/replay/").json()
    assert replay["analysis"] == {"status": "skipped", "data": None}


def test_the_analysis_rate_is_per_player(settings, puzzle9):
    settings.ANALYSES_PER_HOUR = 1
    for client in (client_for(UserFactory()), client_for(UserFactory())):
        game = start_and_give_up(client, puzzle9).json()
        replay = client.get(f"/api/v1/games/{game['id']}/replay/").json()
        assert replay["analysis"]["status"] == "pending"
