"""The clock is the server's: time comes from its own now(), never from a client."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from play.models import Game
from tests.play.factories import empty_cells
from tests.play.helpers import action, move, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock():
    with time_machine.travel(timezone.now().replace(microsecond=0), tick=False) as traveller:
        yield traveller


def test_a_game_paused_for_an_hour_shows_no_extra_time(token_client, puzzle4, clock):
    game = start(token_client, puzzle4)
    gid = game["id"]
    clock.shift(timedelta(seconds=42))
    assert action(token_client, gid, "pause").json()["elapsed_ms"] == 42_000
    clock.shift(timedelta(hours=1))
    paused = token_client.get(f"/api/v1/games/{gid}/").json()
    assert paused["elapsed_ms"] == 42_000 and paused["clock_running"] is False
    resumed = action(token_client, gid, "resume").json()
    assert resumed["elapsed_ms"] == 42_000 and resumed["clock_running"] is True
    clock.shift(timedelta(seconds=8))
    assert token_client.get(f"/api/v1/games/{gid}/").json()["elapsed_ms"] == 50_000


def test_the_running_clock_counts_between_reads_without_any_write(token_client, puzzle4, clock):
    game = start(token_client, puzzle4)
    assert game["elapsed_ms"] == 0
    clock.shift(timedelta(seconds=40))
    assert token_client.get(f"/api/v1/games/{game['id']}/").json()["elapsed_ms"] == 40_000


def test_nothing_a_client_sends_changes_elapsed_time(token_client, puzzle4, clock):
    game = start(token_client, puzzle4)
    gid = game["id"]
    cell = empty_cells(puzzle4)[0]
    clock.shift(timedelta(seconds=5))
    # A time sent by the client is refused, naming the field, and changes nothing.
    tampered = move(
        token_client, gid, cell, 1, kind="note", elapsed_ms=1, running_since="2000-01-01T00:00Z"
    )
    assert tampered.status_code == 400
    assert set(tampered.json()["error"]["fields"]) == {"elapsed_ms", "running_since"}
    assert move(token_client, gid, cell, 1, kind="note").json()["game"]["elapsed_ms"] == 5_000
    clock.shift(timedelta(seconds=5))
    for name in ("pause", "resume"):
        refused = action(token_client, gid, name, elapsed_ms=0, time=0)
        assert refused.status_code == 400
        assert action(token_client, gid, name).status_code == 200
    stored = Game.objects.get(pk=gid)
    assert stored.elapsed_ms == 10_000
    assert token_client.get(f"/api/v1/games/{gid}/").json()["elapsed_ms"] == 10_000


def test_the_clock_stops_when_the_game_completes(token_client, puzzle4, clock):
    game = start(token_client, puzzle4)
    gid = game["id"]
    from tests.play.factories import value_at

    clock.shift(timedelta(seconds=30))
    for cell in empty_cells(puzzle4):
        last = move(token_client, gid, cell, value_at(puzzle4, cell)).json()
    assert last["game"]["elapsed_ms"] == 30_000
    clock.shift(timedelta(days=2))
    assert token_client.get(f"/api/v1/games/{gid}/").json()["elapsed_ms"] == 30_000


def test_abandoning_stops_the_clock(token_client, puzzle4, clock):
    game = start(token_client, puzzle4)
    clock.shift(timedelta(seconds=12))
    over = action(token_client, game["id"], "abandon").json()
    clock.shift(timedelta(hours=5))
    assert over["elapsed_ms"] == 12_000
    assert token_client.get(f"/api/v1/games/{game['id']}/").json()["elapsed_ms"] == 12_000


def test_pausing_a_paused_game_or_resuming_a_running_one_changes_nothing(
    token_client, puzzle4, clock
):
    game = start(token_client, puzzle4)
    gid = game["id"]
    resumed = action(token_client, gid, "resume")
    assert resumed.status_code == 200
    assert resumed.json()["version"] == game["version"]
    paused = action(token_client, gid, "pause").json()
    assert paused["version"] == game["version"] + 1
    clock.shift(timedelta(seconds=30))
    again = action(token_client, gid, "pause")
    assert again.status_code == 200
    assert again.json()["version"] == paused["version"]
    assert again.json()["elapsed_ms"] == paused["elapsed_ms"]
