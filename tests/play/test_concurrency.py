"""Two devices, one game: the row lock and the version make every write count once.

These run on PostgreSQL with real connections (one per thread) and a barrier so the
requests reach the lock together.
"""

from __future__ import annotations

import uuid
from collections import Counter

import pytest
from rest_framework.test import APIClient

from accounts.services import token_create
from play.models import Game, Move
from tests.play.factories import empty_cells, value_at
from tests.play.helpers import move, start
from tests.together import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def device(user) -> APIClient:
    _, key = token_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_two_devices_with_the_same_version_one_wins_one_gets_409(user, puzzle4):
    phone, tablet = device(user), device(user)
    game = start(phone, puzzle4)
    a, b = empty_cells(puzzle4)[:2]
    bodies = [(phone, a, value_at(puzzle4, a)), (tablet, b, value_at(puzzle4, b))]

    def play(i: int):
        client, cell, value = bodies[i]
        response = move(client, game["id"], cell, value, version=game["version"])
        return response.status_code, response.json()

    results = run_together(2, play)
    statuses = sorted(status for status, _ in results)
    assert statuses == [200, 409]
    (winner,) = [body for status, body in results if status == 200]
    (loser,) = [body for status, body in results if status == 409]
    assert loser["error"]["code"] == "stale_version"
    assert loser["error"]["game"]["version"] == winner["game"]["version"] == 2
    stored = Game.objects.get(pk=game["id"])
    assert stored.version == 2
    assert Move.objects.filter(game_id=game["id"]).count() == 1
    # No lost update: the board holds the winner's move and only it.
    assert stored.entries == winner["game"]["entries"] == loser["error"]["game"]["entries"]


def test_without_versions_concurrent_moves_all_land(user, puzzle9):
    clients = [device(user) for _ in range(4)]
    game = start(clients[0], puzzle9)
    cells = empty_cells(puzzle9)[:4]

    def play(i: int):
        return move(clients[i], game["id"], cells[i], value_at(puzzle9, cells[i])).status_code

    assert run_together(4, play) == [200] * 4
    stored = Game.objects.get(pk=game["id"])
    assert stored.version == 5
    assert all(stored.entries[c] == str(value_at(puzzle9, c)) for c in cells)


def test_ten_concurrent_completions_write_one_score(user, puzzle4):
    clients = [device(user) for _ in range(10)]
    game = start(clients[0], puzzle4)
    cells = empty_cells(puzzle4)
    for cell in cells[:-1]:
        assert move(clients[0], game["id"], cell, value_at(puzzle4, cell)).status_code == 200
    last = cells[-1]

    def finish(i: int):
        response = move(clients[i], game["id"], last, value_at(puzzle4, last))
        return response.status_code, response.json()

    results = run_together(10, finish)
    statuses = Counter(status for status, _ in results)
    assert statuses == {200: 1, 409: 9}
    (won,) = [body for status, body in results if status == 200]
    assert won["completed"] is True
    assert {body["error"]["code"] for status, body in results if status == 409} == {"game_finished"}
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == "completed" and stored.score == won["game"]["score"]
    assert Move.objects.filter(game_id=game["id"], cell=last).count() == 1


def test_the_same_move_retried_concurrently_is_applied_once(user, puzzle4):
    clients = [device(user) for _ in range(5)]
    game = start(clients[0], puzzle4)
    cell = empty_cells(puzzle4)[0]
    body = {"client_move_id": str(uuid.uuid4()), "cell": cell, "value": 1, "kind": "note"}

    def send(i: int):
        response = clients[i].post(f"/api/v1/games/{game['id']}/moves/", body, format="json")
        return response.status_code, response.json()["replayed"]

    results = run_together(5, send)
    assert sorted(results) == [(200, False)] + [(200, True)] * 4
    assert Move.objects.filter(game_id=game["id"]).count() == 1
    assert Game.objects.get(pk=game["id"]).notes == {str(cell): [1]}


def test_two_starts_of_one_puzzle_at_once_make_one_game(user, puzzle4):
    phone, tablet = device(user), device(user)
    clients = [phone, tablet]
    answers = run_together(
        2, lambda i: clients[i].post("/api/v1/games/", {"puzzle": puzzle4.pk}, format="json")
    )
    assert sorted(a.status_code for a in answers) == [200, 201]
    assert answers[0].json()["id"] == answers[1].json()["id"]
    assert Game.objects.filter(user=user).count() == 1


def test_two_racing_completions_end_the_game_once(monkeypatch, user, puzzle4):
    from play import ending

    ended: list[int] = []
    monkeypatch.setattr(ending, "game_ended", lambda game: ended.append(game.pk))
    phone, tablet = device(user), device(user)
    game = start(phone, puzzle4)
    *rest, last = empty_cells(puzzle4)
    for cell in rest:
        assert move(phone, game["id"], cell, value_at(puzzle4, cell)).status_code == 200
    clients = [phone, tablet]

    def finish(i: int):
        response = move(clients[i], game["id"], last, value_at(puzzle4, last))
        return response.status_code, response.json()

    results = run_together(2, finish)
    statuses = sorted(status for status, _ in results)
    assert statuses == [200, 409], results
    assert ended == [game["id"]]
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == "completed" and stored.score is not None
    assert Move.objects.filter(game_id=game["id"], cell=last).count() == 1


def test_a_completion_retried_at_once_ends_the_game_once(monkeypatch, user, puzzle4):
    from play import ending

    ended: list[int] = []
    monkeypatch.setattr(ending, "game_ended", lambda game: ended.append(game.pk))
    phone, tablet = device(user), device(user)
    game = start(phone, puzzle4)
    *rest, last = empty_cells(puzzle4)
    for cell in rest:
        assert move(phone, game["id"], cell, value_at(puzzle4, cell)).status_code == 200
    client_move_id = str(uuid.uuid4())
    clients = [phone, tablet]

    def finish(i: int):
        response = move(
            clients[i], game["id"], last, value_at(puzzle4, last), client_move_id=client_move_id
        )
        return response.status_code, response.json()

    results = run_together(2, finish)
    assert [status for status, _ in results] == [200, 200], results
    assert all(body["completed"] for _, body in results)
    assert ended == [game["id"]]
