"""Helpers for race tests: players with API clients, a stored 4x4 puzzle, the clock."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import time_machine
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from accounts.services import token_create
from races.models import Race


def player(*, exempt: bool = True) -> APIClient:
    """A signed-in player's API client (token auth); ``client.user``, ``client.token``.

    ``exempt``: the player may play at machine speed (integrity's scripted-player
    permission, as the browser tests' player), as these tests do; a reviewed player's
    game at that speed is flagged and not ranked (tests/integrity/test_boards.py)."""
    user = UserFactory()
    if exempt:
        user.user_permissions.add(Permission.objects.get(codename="exempt_from_review"))
    _, key = token_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    client.user = user  # type: ignore[attr-defined]
    client.token = key  # type: ignore[attr-defined]
    return client


def race_create(client: APIClient, **body: Any) -> dict[str, Any]:
    response = client.post(
        "/api/v1/races/", {"size": 4, "difficulty": "easy", **body}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def after_start(code: str, seconds: float = 1) -> time_machine.travel:
    """The clock just past the race's start (``seconds`` later)."""
    race = Race.objects.get(code=code)
    return time_machine.travel(race.starts_at + timedelta(seconds=seconds), tick=False)


def move(client: APIClient, game_id: int, cell: int, value: int, kind: str = "value") -> Any:
    body = {"client_move_id": str(uuid.uuid4()), "cell": cell, "value": value, "kind": kind}
    return client.post(f"/api/v1/games/{game_id}/moves/", body, format="json")
