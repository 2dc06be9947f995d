"""What one move costs the database through the API: three statements with a token on
PostgreSQL (the token's check with its user, the game's read, and the one write of game and
move), not counting BEGIN and COMMIT (a move has none there), and four on SQLite (which
writes the game and the move in two statements); two for a retried client move id."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.play.factories import empty_cells, value_at, wrong_value_at
from tests.play.helpers import start

pytestmark = pytest.mark.django_db


def _work(captured: CaptureQueriesContext) -> list[str]:
    """Statements that did work: not BEGIN, COMMIT or savepoints."""
    return [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].upper() not in ("BEGIN", "COMMIT")
        and not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]


def _post(client, game_id: int, body: dict) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = client.post(f"/api/v1/games/{game_id}/moves/", body, format="json")
    return response.status_code, _work(captured)


def test_a_move_request_with_a_token_costs_three_queries(token_client, puzzle9):
    game = start(token_client, puzzle9)
    token_client.get(f"/api/v1/games/{game['id']}/")  # the token's expiry refresh happens here
    cell = empty_cells(puzzle9)[0]
    bodies = [
        {"kind": "note", "cell": cell, "value": 3},
        {"kind": "value", "cell": cell, "value": wrong_value_at(puzzle9, cell)},
        {"kind": "value", "cell": cell, "value": 0},
        {"kind": "value", "cell": cell, "value": value_at(puzzle9, cell)},
    ]
    for body in bodies:
        status, work = _post(
            token_client, game["id"], {**body, "client_move_id": str(uuid.uuid4())}
        )
        assert status == 200
        assert len(work) == (3 if connection.vendor == "postgresql" else 4), work
        assert "knox_authtoken" in work[0]


def test_a_retried_move_costs_the_token_and_one_read_with_the_stored_answer(token_client, puzzle9):
    game = start(token_client, puzzle9)
    cell = empty_cells(puzzle9)[0]
    body = {"client_move_id": str(uuid.uuid4()), "kind": "note", "cell": cell, "value": 3}
    assert _post(token_client, game["id"], body)[0] == 200
    status, work = _post(token_client, game["id"], body)
    assert status == 200
    assert len(work) == 2, work
    assert not any(sql.upper().startswith(("INSERT", "UPDATE")) for sql in work)
