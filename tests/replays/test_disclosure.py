"""A held solution stays held on every replay surface (issue #34, item 4): the owner's
replay, its page, a shared link's page and API, and the analysis, tried as a client would:
give up today's daily (or a puzzle another player plays ranked), then ask each surface."""

from __future__ import annotations

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.factories import UserFactory
from puzzles.models import DailyPuzzle
from replays.services import analysis_compute
from tests.play.factories import empty_cells, value_at
from tests.play.helpers import action, move, start
from tests.play.test_solution_disclosure import MONDAY, bank_puzzle, client_for

pytestmark = pytest.mark.django_db

NEXT_DAY = "2026-11-24 00:00:01+00:00"
NEXT_WEEK = "2026-11-30 00:00:01+00:00"


def _wrong_value(puzzle, cell: int) -> int:
    return value_at(puzzle, cell) % 9 + 1


def _give_up_daily(client, puzzle) -> dict:
    """Today's daily: one right value, one wrong value, then give up."""
    DailyPuzzle.objects.create(date=timezone.localdate(), size=9, puzzle=puzzle)
    game = client.post("/api/v1/games/", {"daily": True}, format="json").json()
    assert game["puzzle"]["id"] == puzzle.pk
    right, wrong = empty_cells(puzzle)[:2]
    assert move(client, game["id"], right, value_at(puzzle, right)).json()["correct"] is True
    assert move(client, game["id"], wrong, _wrong_value(puzzle, wrong)).json()["correct"] is False
    given_up = action(client, game["id"], "abandon").json()
    assert given_up["status"] == "abandoned" and given_up["solution"] is None
    analysis_compute(game_id=game["id"])
    return game


def _share(client, game_id: int) -> str:
    response = client.post(f"/api/v1/games/{game_id}/replay/share/", {}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["url"]


def _token(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def _value_events(body: dict) -> list[dict]:
    return [e for e in body["events"] if e["kind"] == "value"]


def test_the_replay_of_a_given_up_daily_holds_the_solution_until_the_day_ends():
    client = client_for(UserFactory())
    puzzle = bank_puzzle()
    with time_machine.travel(MONDAY, tick=False):
        game = _give_up_daily(client, puzzle)
        body = client.get(f"/api/v1/games/{game['id']}/replay/").json()
        assert body["puzzle"]["solution"] is None
        # The player was told each verdict as they played: their own replay keeps them.
        assert [e["correct"] for e in _value_events(body)] == [True, False]
        assert body["analysis"]["status"] == "ready"
        assert puzzle.solution not in str(body)
    with time_machine.travel(NEXT_DAY, tick=False):
        body = client.get(f"/api/v1/games/{game['id']}/replay/").json()
    assert body["puzzle"]["solution"] == puzzle.solution


def test_a_shared_replay_of_a_given_up_daily_shows_no_solution_nor_verdicts_to_anyone():
    owner = client_for(UserFactory())
    puzzle = bank_puzzle()
    with time_machine.travel(MONDAY, tick=False):
        game = _give_up_daily(owner, puzzle)
        url = _share(owner, game["id"])
        stranger = Client()
        page = stranger.get(url)
        assert page.status_code == 200
        assert puzzle.solution not in page.content.decode()
        body = stranger.get(f"/api/v1/replays/{_token(url)}/").json()
        assert body["puzzle"]["solution"] is None
        assert [e["correct"] for e in _value_events(body)] == [None, None]
        assert body["analysis"] == {"status": "held", "data": None}
        owner_page = owner.get(f"/play/{game['id']}/replay/")
        assert puzzle.solution not in owner_page.content.decode()
    with time_machine.travel(NEXT_DAY, tick=False):
        page = Client().get(url)
        body = Client().get(f"/api/v1/replays/{_token(url)}/").json()
    assert puzzle.solution in page.content.decode()
    assert body["puzzle"]["solution"] == puzzle.solution
    assert [e["correct"] for e in _value_events(body)] == [True, False]
    assert body["analysis"]["status"] == "ready"


def test_a_shared_replay_of_a_give_up_beside_another_players_ranked_game_is_held():
    puzzle = bank_puzzle()
    first, second = client_for(UserFactory()), client_for(UserFactory())
    with time_machine.travel(MONDAY, tick=False):
        ranked = start(first, puzzle)
        cell = empty_cells(puzzle)[0]
        assert move(first, ranked["id"], cell, value_at(puzzle, cell)).status_code == 200
        decoy = start(second, puzzle)
        assert action(second, decoy["id"], "abandon").json()["solution"] is None
        replay = second.get(f"/api/v1/games/{decoy['id']}/replay/").json()
        assert replay["puzzle"]["solution"] is None
        url = _share(second, decoy["id"])
        shared = Client().get(f"/api/v1/replays/{_token(url)}/").json()
        assert shared["puzzle"]["solution"] is None
        assert puzzle.solution not in Client().get(url).content.decode()
        # The first player gives up too: the hold lasts until the week is over.
        assert action(first, ranked["id"], "abandon").status_code == 200
    with time_machine.travel(NEXT_WEEK, tick=False):
        shared = Client().get(f"/api/v1/replays/{_token(url)}/").json()
    assert shared["puzzle"]["solution"] == puzzle.solution


def test_a_completed_games_shared_replay_shows_everything():
    owner = client_for(UserFactory())
    puzzle = bank_puzzle()
    game = start(owner, puzzle)
    for cell in empty_cells(puzzle):
        move(owner, game["id"], cell, value_at(puzzle, cell))
    analysis_compute(game_id=game["id"])
    url = _share(owner, game["id"])
    body = Client().get(f"/api/v1/replays/{_token(url)}/").json()
    assert body["puzzle"]["solution"] == puzzle.solution
    assert body["analysis"]["status"] == "ready"
    assert all(e["correct"] is True for e in _value_events(body))
