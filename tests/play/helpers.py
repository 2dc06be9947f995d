"""API helpers for game tests."""

from __future__ import annotations

import uuid
from typing import Any


def start(client, puzzle, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games/", {"puzzle": puzzle.pk, **extra}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def move(client, game_id: int, cell: int, value: int, kind: str = "value", **extra: Any):
    body = {"client_move_id": str(uuid.uuid4()), "cell": cell, "value": value, "kind": kind}
    body.update(extra)
    return client.post(f"/api/v1/games/{game_id}/moves/", body, format="json")


def action(client, game_id: int, name: str, **body: Any):
    return client.post(f"/api/v1/games/{game_id}/{name}/", body, format="json")
