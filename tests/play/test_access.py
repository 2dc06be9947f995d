"""Only a game's player sees it, and nobody sees the solution before the game is over."""

from __future__ import annotations

import json
import uuid

import pytest
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from accounts.services import token_create
from play.models import Game, Move
from tests.play.factories import empty_cells, value_at, wrong_value_at
from tests.play.helpers import action, move, start

pytestmark = pytest.mark.django_db

GAME_ENDPOINTS = [
    ("get", ""),
    ("post", "moves/"),
    ("post", "undo/"),
    ("post", "redo/"),
    ("post", "pause/"),
    ("post", "resume/"),
    ("post", "hint/"),
    ("post", "abandon/"),
    ("post", "auto-notes/"),
    ("post", "restart/"),
]


def client_for(user) -> APIClient:
    _, key = token_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.mark.parametrize(("method", "path"), GAME_ENDPOINTS)
def test_another_users_game_is_a_404_on_every_endpoint(token_client, puzzle4, method, path):
    game = start(token_client, puzzle4)
    before = Game.objects.get(pk=game["id"])
    intruder = client_for(UserFactory())
    # Each endpoint refuses fields it does not take, so each gets only its own.
    body = {
        "moves/": {
            "client_move_id": str(uuid.uuid4()),
            "cell": empty_cells(puzzle4)[0],
            "value": 1,
        },
        "hint/": {"level": 1},
    }.get(path, {})
    response = getattr(intruder, method)(
        f"/api/v1/games/{game['id']}/{path}", body if method == "post" else None, format="json"
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    after = Game.objects.get(pk=game["id"])
    assert (after.version, after.status, after.entries) == (
        before.version,
        before.status,
        before.entries,
    )
    assert not Move.objects.exists()
    listed = intruder.get("/api/v1/games/").json()
    assert listed["count"] == 0


def test_an_unknown_or_malformed_game_id_is_a_404(token_client):
    for gid in ("999999", "abc", "9" * 40):
        assert token_client.get(f"/api/v1/games/{gid}/").status_code == 404
        assert action(token_client, gid, "undo").status_code == 404


def test_without_credentials_the_game_api_is_a_401(api_client, puzzle4):
    assert api_client.get("/api/v1/games/").status_code == 401
    assert api_client.post("/api/v1/games/", {"puzzle": puzzle4.pk}).status_code == 401
    assert api_client.get("/api/v1/me/stats/").status_code == 401


def test_the_solution_appears_in_no_response_before_completion(token_client, puzzle9):
    responses = []
    game = start(token_client, puzzle9)
    gid = game["id"]
    responses.append(game)
    cells = empty_cells(puzzle9)
    responses.append(move(token_client, gid, cells[0], wrong_value_at(puzzle9, cells[0])).json())
    responses.append(move(token_client, gid, cells[1], value_at(puzzle9, cells[1])).json())
    responses.append(move(token_client, gid, cells[2], 3, kind="note").json())
    responses.append(action(token_client, gid, "undo").json())
    responses.append(action(token_client, gid, "redo").json())
    for level in (1, 2, 3):
        responses.append(action(token_client, gid, "hint", level=level).json())
    responses.append(action(token_client, gid, "auto-notes").json())
    responses.append(action(token_client, gid, "restart").json())
    responses.append(action(token_client, gid, "pause").json())
    responses.append(action(token_client, gid, "resume").json())
    responses.append(move(token_client, gid, cells[1], 1, kind="note", version=1).json())
    responses.append(token_client.get(f"/api/v1/games/{gid}/").json())
    responses.append(token_client.get("/api/v1/games/").json())
    responses.append(token_client.get(f"/api/v1/puzzles/{puzzle9.pk}/leaderboard/").json())
    for body in responses:
        text = json.dumps(body)
        assert puzzle9.solution not in text
        assert '"solution": null' in text or "results" in text
    over = action(token_client, gid, "abandon").json()
    assert over["solution"] == puzzle9.solution
