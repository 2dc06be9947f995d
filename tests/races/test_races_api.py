"""Races through the REST API: making, joining, starting, the start, the end, the results."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from play.models import Game, Status
from races.models import MAX_RACERS, Outcome, Race, RaceStatus
from tests.play.factories import empty_cells, value_at, wrong_value_at
from tests.races.helpers import after_start, move, player, race_create

pytestmark = pytest.mark.django_db


def _start(host, code: str) -> dict:
    response = host.post(f"/api/v1/races/{code}/start/")
    assert response.status_code == 200, response.content
    return response.json()


def _game_of(client, code: str) -> int:
    body = client.get(f"/api/v1/races/{code}/").json()
    assert body["you"]["game"] is not None
    return body["you"]["game"]


def test_a_player_creates_a_race_and_is_its_first_racer(puzzle4):
    host = player()
    body = race_create(host)
    assert body["race"]["status"] == "lobby"
    assert [r["name"] for r in body["race"]["racers"]] == [host.user.username]
    assert body["you"] == {"player": host.user.pk, "racer": True, "host": True, "game": None}


def test_making_a_race_needs_a_sign_in(api_client, puzzle4):
    response = api_client.post("/api/v1/races/", {"size": 4, "difficulty": "easy"}, format="json")
    assert response.status_code in (401, 403)


def test_a_race_with_both_a_level_and_the_daily_is_a_400(puzzle4):
    response = player().post(
        "/api/v1/races/", {"size": 4, "difficulty": "easy", "daily": True}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"


def test_an_unknown_race_is_a_404(api_client, db):
    response = api_client.get("/api/v1/races/nope/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "race_not_found"


def test_a_host_may_not_keep_more_open_races_than_the_limit(puzzle4, settings):
    settings.RACE_OPEN_LIMIT = 2
    host = player()
    race_create(host)
    race_create(host)
    response = host.post("/api/v1/races/", {"size": 4, "difficulty": "easy"}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "too_many_races"


def test_joining_a_full_race_is_a_409(puzzle4):
    code = race_create(player())["race"]["code"]
    for _ in range(MAX_RACERS - 1):
        assert player().post(f"/api/v1/races/{code}/join/").status_code == 200
    response = player().post(f"/api/v1/races/{code}/join/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "race_full"
    assert Race.objects.get(code=code).racers.count() == MAX_RACERS


def test_joining_twice_keeps_one_seat(puzzle4):
    code = race_create(player())["race"]["code"]
    guest = player()
    guest.post(f"/api/v1/races/{code}/join/")
    body = guest.post(f"/api/v1/races/{code}/join/").json()
    assert len(body["race"]["racers"]) == 2
    assert body["you"]["racer"] is True


def test_joining_a_started_race_is_a_409(puzzle4):
    host = player()
    code = race_create(host)["race"]["code"]
    _start(host, code)
    response = player().post(f"/api/v1/races/{code}/join/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "race_started"


def test_only_the_host_starts_the_race(puzzle4):
    code = race_create(player())["race"]["code"]
    guest = player()
    guest.post(f"/api/v1/races/{code}/join/")
    response = guest.post(f"/api/v1/races/{code}/start/")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_host"


def test_the_puzzle_is_shown_to_nobody_before_the_start(puzzle4):
    host = player()
    code = race_create(host)["race"]["code"]
    body = _start(host, code)
    assert body["race"]["status"] == "countdown"
    assert body["race"]["starts_in_ms"] > 0
    assert body["race"]["cells"] is None
    assert body["you"]["game"] is None
    assert not Game.objects.filter(user=host.user).exists()
    assert host.get("/api/v1/games/").json()["count"] == 0


def test_every_racer_gets_the_same_puzzle_with_the_clock_from_the_start(puzzle4):
    host, guest = player(), player()
    code = race_create(host)["race"]["code"]
    guest.post(f"/api/v1/races/{code}/join/")
    _start(host, code)
    with after_start(code, seconds=2):
        games = [Game.objects.get(pk=_game_of(c, code)) for c in (host, guest)]
    race = Race.objects.get(code=code)
    assert race.status == RaceStatus.RUNNING
    assert {g.puzzle_id for g in games} == {puzzle4.pk}
    assert all(g.race_id == race.pk and g.running_since == race.starts_at for g in games)


def test_a_move_on_a_race_game_costs_no_more_queries_than_any_move(puzzle4):
    host = player()
    code = race_create(host)["race"]["code"]
    _start(host, code)
    with after_start(code):
        game_id = _game_of(host, code)
        cell = empty_cells(puzzle4)[0]
        host.get(f"/api/v1/games/{game_id}/")  # the token's expiry refresh happens here
        with CaptureQueriesContext(connection) as captured:
            response = move(host, game_id, cell, value_at(puzzle4, cell))
    assert response.status_code == 200
    work = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].upper() not in ("BEGIN", "COMMIT")
        and not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]
    assert len(work) == (3 if connection.vendor == "postgresql" else 4), work


def test_hints_and_auto_notes_are_off_in_a_race(puzzle4):
    host = player()
    code = race_create(host)["race"]["code"]
    _start(host, code)
    with after_start(code):
        game_id = _game_of(host, code)
        hint = host.post(f"/api/v1/games/{game_id}/hint/", {"level": 1}, format="json")
        notes = host.post(f"/api/v1/games/{game_id}/auto-notes/", {}, format="json")
    assert hint.status_code == 409
    assert hint.json()["error"]["code"] == "hints_off_in_race"
    assert notes.status_code == 409
    assert notes.json()["error"]["code"] == "aids_off_in_race"


def _solve(client, game_id: int, puzzle) -> None:
    for cell in empty_cells(puzzle):
        assert move(client, game_id, cell, value_at(puzzle, cell)).status_code == 200


def test_the_first_to_complete_is_first_and_the_results_link_the_replays(puzzle4):
    host, guest, third = player(), player(), player()
    code = race_create(host)["race"]["code"]
    for client in (guest, third):
        client.post(f"/api/v1/races/{code}/join/")
    _start(host, code)
    with after_start(code, seconds=1):
        games = {c: _game_of(c, code) for c in (host, guest, third)}
        assert host.get(f"/api/v1/races/{code}/results/").status_code == 409
        cell = empty_cells(puzzle4)[0]
        move(third, games[third], cell, wrong_value_at(puzzle4, cell))
        _solve(guest, games[guest], puzzle4)
    with after_start(code, seconds=5):
        _solve(host, games[host], puzzle4)
        assert third.post(f"/api/v1/games/{games[third]}/abandon/", {}).status_code == 200
        body = player().get(f"/api/v1/races/{code}/results/").json()
    race = body["race"]
    assert race["status"] == "finished"
    by_name = {r["name"]: r for r in race["racers"]}
    assert [r["name"] for r in race["racers"]][:2] == [guest.user.username, host.user.username]
    assert by_name[guest.user.username]["place"] == 1
    assert by_name[guest.user.username]["time_ms"] == 1000
    assert by_name[host.user.username]["place"] == 2
    assert by_name[third.user.username]["outcome"] == Outcome.GAVE_UP
    assert by_name[third.user.username]["mistakes"] == 1
    assert by_name[third.user.username]["place"] is None
    assert all(r["replay"].startswith("/r/") for r in race["racers"])
    shared = player().get(race["racers"][0]["replay"])
    assert shared.status_code == 200


def test_the_time_limit_ends_the_race_and_the_games_still_running(puzzle4):
    host, guest = player(), player()
    code = race_create(host, time_limit_minutes=1)["race"]["code"]
    guest.post(f"/api/v1/races/{code}/join/")
    _start(host, code)
    with after_start(code):
        host_game, guest_game = _game_of(host, code), _game_of(guest, code)
        _solve(host, host_game, Game.objects.get(pk=host_game).puzzle)
    with after_start(code, seconds=61):
        body = guest.get(f"/api/v1/races/{code}/").json()
    assert body["race"]["status"] == "finished"
    outcomes = {r["name"]: r["outcome"] for r in body["race"]["racers"]}
    assert outcomes == {host.user.username: "completed", guest.user.username: "timed_out"}
    assert Game.objects.get(pk=guest_game).status == Status.ABANDONED


def test_the_beat_sweep_starts_a_race_nobody_watches(puzzle4):
    from races.services import race_advance_due

    host = player()
    code = race_create(host)["race"]["code"]
    _start(host, code)
    race_advance_due()
    assert Race.objects.get(code=code).status == RaceStatus.COUNTDOWN
    with after_start(code):
        race_advance_due()
    assert Race.objects.get(code=code).status == RaceStatus.RUNNING


def test_leaving_before_the_start_frees_the_seat_but_the_host_stays(puzzle4):
    host, guest = player(), player()
    code = race_create(host)["race"]["code"]
    guest.post(f"/api/v1/races/{code}/join/")
    assert len(guest.post(f"/api/v1/races/{code}/leave/").json()["race"]["racers"]) == 1
    response = host.post(f"/api/v1/races/{code}/leave/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "host_cannot_leave"


def test_a_race_with_no_puzzle_to_be_had_cannot_start(db, monkeypatch):
    """None stored and none made (puzzles.stock makes one where it can: here it cannot)."""
    monkeypatch.setattr("races.services.bank_puzzle_make", lambda **kwargs: None)
    host = player()
    code = race_create(host)["race"]["code"]
    response = host.post(f"/api/v1/races/{code}/start/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "no_puzzle_available"
    assert Race.objects.get(code=code).status == RaceStatus.LOBBY


def test_a_game_completed_just_before_the_time_limit_still_counts(puzzle4):
    host, guest = player(), player()
    code = race_create(host, time_limit_minutes=1)["race"]["code"]
    guest.post(f"/api/v1/races/{code}/join/")
    _start(host, code)
    with after_start(code, seconds=30):
        host_game = _game_of(host, code)
        _game_of(guest, code)
    # The last move landed, but its race update had not been recorded yet.
    race = Race.objects.get(code=code)
    Game.objects.filter(pk=host_game).update(
        status=Status.COMPLETED, finished=race.starts_at + timedelta(seconds=59)
    )
    with after_start(code, seconds=61):
        body = guest.get(f"/api/v1/races/{code}/").json()
    rows = {r["name"]: r for r in body["race"]["racers"]}
    assert rows[host.user.username]["outcome"] == "completed"
    assert rows[host.user.username]["place"] == 1
    assert rows[host.user.username]["time_ms"] == 59_000
    assert rows[guest.user.username]["outcome"] == "timed_out"
