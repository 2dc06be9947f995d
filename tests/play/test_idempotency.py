"""A phone on a flaky network retries a move safely: one client move id, one move."""

from __future__ import annotations

import uuid

import pytest

from play.models import Game, Move
from tests.play.factories import FOUR_B, empty_cells, puzzle_create, value_at, wrong_value_at
from tests.play.helpers import start

pytestmark = pytest.mark.django_db


def post_move(client, gid: int, body: dict):
    return client.post(f"/api/v1/games/{gid}/moves/", body, format="json")


def test_the_same_client_move_id_twice_is_one_move(token_client, puzzle4):
    game = start(token_client, puzzle4)
    gid = game["id"]
    cell = empty_cells(puzzle4)[0]
    body = {
        "client_move_id": str(uuid.uuid4()),
        "cell": cell,
        "value": wrong_value_at(puzzle4, cell),
        "version": 1,
    }
    first = post_move(token_client, gid, body)
    retry = post_move(token_client, gid, body)
    assert first.status_code == retry.status_code == 200
    assert retry.json()["replayed"] is True and first.json()["replayed"] is False
    for key in ("correct", "conflicts", "completed"):
        assert retry.json()[key] == first.json()[key]
    assert Move.objects.filter(game_id=gid).count() == 1
    stored = Game.objects.get(pk=gid)
    assert stored.mistakes == 1  # counted once
    assert stored.version == 2  # the retry wrote nothing, despite its old version


def test_the_same_id_with_a_different_body_is_a_422(token_client, puzzle4):
    game = start(token_client, puzzle4)
    gid = game["id"]
    cell = empty_cells(puzzle4)[0]
    move_id = str(uuid.uuid4())
    post_move(token_client, gid, {"client_move_id": move_id, "cell": cell, "value": 1})
    other = post_move(token_client, gid, {"client_move_id": move_id, "cell": cell, "value": 2})
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_conflict"
    as_note = post_move(
        token_client, gid, {"client_move_id": move_id, "cell": cell, "value": 1, "kind": "note"}
    )
    assert as_note.status_code == 422
    assert Move.objects.filter(game_id=gid).count() == 1


def test_a_retried_winning_move_answers_completed_not_game_over(token_client, puzzle4):
    game = start(token_client, puzzle4)
    gid = game["id"]
    cells = empty_cells(puzzle4)
    for cell in cells[:-1]:
        post_move(
            token_client,
            gid,
            {"client_move_id": str(uuid.uuid4()), "cell": cell, "value": value_at(puzzle4, cell)},
        )
    last = {
        "client_move_id": str(uuid.uuid4()),
        "cell": cells[-1],
        "value": value_at(puzzle4, cells[-1]),
    }
    first = post_move(token_client, gid, last).json()
    retry = post_move(token_client, gid, last)
    assert retry.status_code == 200
    assert retry.json()["completed"] is True and first["completed"] is True
    assert retry.json()["game"]["score"] == first["game"]["score"]


def test_client_move_ids_are_per_game(token_client, puzzle4):
    one = start(token_client, puzzle4)
    two = start(token_client, puzzle_create(FOUR_B))
    cell = next(c for c in empty_cells(puzzle4) if FOUR_B[c] == ".")
    body = {"client_move_id": str(uuid.uuid4()), "cell": cell, "value": 1, "kind": "note"}
    assert post_move(token_client, one["id"], body).json()["replayed"] is False
    assert post_move(token_client, two["id"], body).json()["replayed"] is False
