"""The clock counts only while someone plays: the gap rule and the page's heartbeat.

Of the time between two signs of life (any write, or a heartbeat) at most
``GAME_CLOCK_GAP_SECONDS`` counts, so a client that vanishes (a killed browser, a dead
battery, a phone in a tunnel) stops the clock within the gap, and the heartbeat, which
only the server's own time moves, can neither add time nor take it away.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.factories import UserFactory
from play.models import Game, Move
from play.scoring import game_score
from tests.play.factories import empty_cells, value_at
from tests.play.helpers import action, move, start

pytestmark = pytest.mark.django_db

GAP_MS = 60_000  # the default GAME_CLOCK_GAP_SECONDS, in milliseconds


@pytest.fixture
def clock():
    with time_machine.travel(timezone.now().replace(microsecond=0), tick=False) as traveller:
        yield traveller


def beat(client, game_id: int):
    return client.post(f"/api/v1/games/{game_id}/heartbeat/", format="json")


def shown(client, game_id: int) -> int:
    return client.get(f"/api/v1/games/{game_id}/").json()["elapsed_ms"]


def test_a_stretch_without_a_sign_of_life_counts_only_the_gap(token_client, puzzle4, clock):
    gid = start(token_client, puzzle4)["id"]
    clock.shift(timedelta(hours=1))
    assert shown(token_client, gid) == GAP_MS
    clock.shift(timedelta(days=1))
    assert shown(token_client, gid) == GAP_MS


def test_heartbeats_keep_the_clock_counting_while_the_page_is_on_screen(
    token_client, puzzle4, clock
):
    gid = start(token_client, puzzle4)["id"]
    for _ in range(10):
        clock.shift(timedelta(seconds=20))
        answer = beat(token_client, gid)
        assert answer.status_code == 200
    assert answer.json()["elapsed_ms"] == 200_000
    assert answer.json()["clock_running"] is True
    assert answer.json()["clock_gap_ms"] == GAP_MS
    assert shown(token_client, gid) == 200_000


def test_a_client_that_vanishes_stops_the_clock_within_the_gap_and_a_late_move_adds_no_more(
    token_client, puzzle4, clock
):
    gid = start(token_client, puzzle4)["id"]
    clock.shift(timedelta(seconds=30))
    beat(token_client, gid)
    # The browser is killed here: no pause, no more heartbeats.
    clock.shift(timedelta(hours=3))
    assert shown(token_client, gid) == 30_000 + GAP_MS
    stored = Game.objects.get(pk=gid)
    assert stored.status == "in_progress"
    # The moves a phone queued offline arrive hours later: the stretch still counts the gap.
    cell = empty_cells(puzzle4)[0]
    late = move(token_client, gid, cell, value_at(puzzle4, cell)).json()
    assert late["game"]["elapsed_ms"] == 30_000 + GAP_MS
    # The log, which the replays and the integrity review read, has the same clock.
    assert Move.objects.get(game_id=gid, cell=cell).elapsed_ms == 30_000 + GAP_MS


def test_the_score_is_made_from_the_same_clock(token_client, puzzle4, clock):
    gid = start(token_client, puzzle4)["id"]
    cells = empty_cells(puzzle4)
    move(token_client, gid, cells[0], value_at(puzzle4, cells[0]))
    clock.shift(timedelta(hours=2))  # the phone slept between two moves
    for cell in cells[1:]:
        last = move(token_client, gid, cell, value_at(puzzle4, cell)).json()
    assert last["completed"] is True
    game = Game.objects.select_related("puzzle").get(pk=gid)
    assert game.elapsed_ms == GAP_MS
    assert game.score == game_score(
        difficulty=game.puzzle.difficulty,
        size=game.puzzle.size,
        elapsed_ms=GAP_MS,
        mistakes=0,
        hint_stages=0,
    )


def test_the_gap_is_a_setting(token_client, puzzle4, clock, settings):
    settings.GAME_CLOCK_GAP_SECONDS = 15
    gid = start(token_client, puzzle4)["id"]
    clock.shift(timedelta(minutes=5))
    assert shown(token_client, gid) == 15_000


def test_a_heartbeat_changes_neither_the_version_nor_the_log(token_client, puzzle4, clock):
    game = start(token_client, puzzle4)
    clock.shift(timedelta(seconds=25))
    answer = beat(token_client, game["id"]).json()
    assert answer["version"] == game["version"]
    stored = Game.objects.get(pk=game["id"])
    assert (stored.version, stored.move_count, stored.elapsed_ms) == (game["version"], 0, 25_000)
    assert not Move.objects.filter(game_id=game["id"]).exists()
    # A move sent with the version seen before the heartbeat is not stale.
    cell = empty_cells(puzzle4)[0]
    assert (
        move(token_client, game["id"], cell, 1, kind="note", version=game["version"]).status_code
        == 200
    )


def test_heartbeats_at_one_instant_add_nothing(token_client, puzzle4, clock):
    gid = start(token_client, puzzle4)["id"]
    clock.shift(timedelta(seconds=10))
    first = beat(token_client, gid).json()["elapsed_ms"]
    for _ in range(5):
        assert beat(token_client, gid).json()["elapsed_ms"] == first == 10_000
    assert Game.objects.get(pk=gid).elapsed_ms == 10_000


def test_a_heartbeat_soon_after_the_last_sign_of_life_writes_nothing(token_client, puzzle4, clock):
    gid = start(token_client, puzzle4)["id"]
    clock.shift(timedelta(seconds=3))
    token_client.get(f"/api/v1/games/{gid}/")  # the token's expiry refresh happens here
    with CaptureQueriesContext(connection) as captured:
        answer = beat(token_client, gid).json()
    assert answer["elapsed_ms"] == 3_000  # the clock is still shown to the moment
    assert not any(q["sql"].upper().startswith("UPDATE") for q in captured.captured_queries)
    assert Game.objects.get(pk=gid).elapsed_ms == 0


def test_a_heartbeat_takes_no_time_or_anything_else_from_the_client(token_client, puzzle4, clock):
    gid = start(token_client, puzzle4)["id"]
    clock.shift(timedelta(seconds=10))
    refused = token_client.post(
        f"/api/v1/games/{gid}/heartbeat/", {"elapsed_ms": 999_999}, format="json"
    )
    assert refused.status_code == 400
    assert set(refused.json()["error"]["fields"]) == {"elapsed_ms"}
    assert Game.objects.get(pk=gid).elapsed_ms == 0


def test_a_paused_or_finished_game_is_answered_as_it_is(token_client, puzzle4, clock):
    gid = start(token_client, puzzle4)["id"]
    clock.shift(timedelta(seconds=10))
    action(token_client, gid, "pause")
    clock.shift(timedelta(minutes=5))
    paused = beat(token_client, gid).json()
    assert (paused["status"], paused["elapsed_ms"], paused["clock_running"]) == (
        "paused",
        10_000,
        False,
    )
    action(token_client, gid, "abandon")
    clock.shift(timedelta(minutes=5))
    over = beat(token_client, gid)
    assert over.status_code == 200
    assert (over.json()["status"], over.json()["elapsed_ms"]) == ("abandoned", 10_000)


def test_another_players_game_is_a_404(token_client, api_client, puzzle4):
    gid = start(token_client, puzzle4)["id"]
    stranger = UserFactory()
    api_client.force_authenticate(stranger)
    answer = beat(api_client, gid)
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"


def test_a_heartbeat_costs_the_token_a_read_and_one_update(token_client, puzzle4, clock):
    gid = start(token_client, puzzle4)["id"]
    token_client.get(f"/api/v1/games/{gid}/")  # the token's expiry refresh happens here
    clock.shift(timedelta(seconds=20))
    with CaptureQueriesContext(connection) as captured:
        assert beat(token_client, gid).json()["elapsed_ms"] == 20_000
    work = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].upper() not in ("BEGIN", "COMMIT")
        and not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]
    assert len(work) == 3, work
    assert "knox_authtoken" in work[0] and work[2].upper().startswith("UPDATE")
