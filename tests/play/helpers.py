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


def think(clock, *, game_id: int, player, seconds: int) -> None:
    """Let ``seconds`` pass with the game on screen: the page's heartbeat every 20 s (well
    within the clock's gap), so the whole stretch counts on the clock."""
    from datetime import timedelta

    from play.lifecycle import game_heartbeat

    left = seconds
    while left > 0:
        step = min(left, 20)
        clock.shift(timedelta(seconds=step))
        game_heartbeat(game_id=game_id, player=player)
        left -= step
