"""What a move means: the server checks it, answers it and keeps the board."""

from __future__ import annotations

import uuid

import pytest

from play.models import Game, Move
from puzzles.models import Puzzle
from tests.play.factories import FOUR_B, empty_cells, puzzle_create, value_at, wrong_value_at
from tests.play.helpers import action, move, start

pytestmark = pytest.mark.django_db


def error_of(response, status: int) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]


def test_move_on_given_cell_is_rejected(token_client, puzzle4):
    game = start(token_client, puzzle4)
    error = error_of(move(token_client, game["id"], 0, 2), 409)
    assert error["code"] == "cell_is_given"
    assert "r1c1" in error["message"]
    assert Game.objects.get(pk=game["id"]).version == 1


@pytest.mark.parametrize(
    ("field", "body"),
    [
        ("cell", {"cell": 16, "value": 1}),  # a 4x4 has cells 0..15
        ("cell", {"cell": -1, "value": 1}),
        ("value", {"cell": 1, "value": 5}),  # a 4x4 takes 0..4
        ("value", {"cell": 1, "value": "two"}),
        ("value", {"cell": 1, "value": True}),
        ("cell", {"cell": 1.5, "value": 1}),
        ("kind", {"cell": 1, "value": 1, "kind": "pencil"}),
        ("client_move_id", {"cell": 1, "value": 1, "client_move_id": "not-a-uuid"}),
        ("version", {"cell": 1, "value": 1, "version": "x"}),
        ("clear_peer_notes", {"cell": 1, "value": 1, "clear_peer_notes": "no"}),
    ],
)
def test_bad_move_fields_are_a_400_naming_the_field(token_client, puzzle4, field, body):
    game = start(token_client, puzzle4)
    payload = {"client_move_id": "3f1b0c4e-8a57-4c55-9b1e-2a0f4f8a9d10", "kind": "value", **body}
    response = token_client.post(f"/api/v1/games/{game['id']}/moves/", payload, format="json")
    error = error_of(response, 400)
    assert error["code"] == "invalid"
    assert field in error["fields"]
    assert not Move.objects.exists()


def test_a_wrong_value_counts_a_mistake_and_names_its_conflicts(token_client, puzzle9):
    game = start(token_client, puzzle9)
    # r1c3 (cell 2) is empty; 5 is already in row 1 (r1c1) and 9 fails the solution.
    answer = move(token_client, game["id"], 2, 5).json()
    assert answer["correct"] is False
    assert answer["conflicts"] == [0]  # r1c1 holds the 5
    assert answer["game"]["mistakes"] == 1
    assert answer["game"]["entries"][2] == "5"  # kept, so the player sees it marked


def test_a_right_value_is_correct_and_clears_that_digit_from_peer_notes(token_client, puzzle9):
    game = start(token_client, puzzle9)
    gid = game["id"]
    right = value_at(puzzle9, 2)  # r1c3
    move(token_client, gid, 3, right, kind="note")  # r1c4: same row
    move(token_client, gid, 19, right, kind="note")  # r3c2: same box
    move(token_client, gid, 80 - 8, right, kind="note")  # r9c1: elsewhere
    answer = move(token_client, gid, 2, right).json()
    assert answer["correct"] is True and answer["conflicts"] == []
    assert answer["game"]["notes"] == {"72": [right]}
    assert answer["game"]["mistakes"] == 0


def test_with_the_aid_off_a_placed_value_stays_in_its_peers_notes(token_client, puzzle9):
    gid = start(token_client, puzzle9)["id"]
    right = value_at(puzzle9, 2)  # r1c3
    move(token_client, gid, 2, right, kind="note")  # the cell's own notes still go
    move(token_client, gid, 3, right, kind="note")  # r1c4: same row, kept
    answer = move(token_client, gid, 2, right, clear_peer_notes=False).json()
    assert answer["correct"] is True
    assert answer["game"]["notes"] == {"3": [right]}
    undone = action(token_client, gid, "undo").json()  # undo gives back exactly what went
    assert undone["notes"] == {"2": [right], "3": [right]}


def test_notes_toggle_and_value_zero_clears_them(token_client, puzzle4):
    game = start(token_client, puzzle4)
    gid = game["id"]
    cell = empty_cells(puzzle4)[0]
    move(token_client, gid, cell, 2, kind="note")
    notes = move(token_client, gid, cell, 4, kind="note").json()["game"]["notes"]
    assert notes == {str(cell): [2, 4]}
    notes = move(token_client, gid, cell, 2, kind="note").json()["game"]["notes"]
    assert notes == {str(cell): [4]}
    cleared = move(token_client, gid, cell, 0, kind="note").json()
    assert cleared["game"]["notes"] == {}
    assert cleared["correct"] is None


def test_a_note_in_a_cell_holding_a_value_is_rejected(token_client, puzzle4):
    game = start(token_client, puzzle4)
    cell = empty_cells(puzzle4)[0]
    move(token_client, game["id"], cell, value_at(puzzle4, cell))
    error = error_of(move(token_client, game["id"], cell, 1, kind="note"), 409)
    assert error["code"] == "cell_has_value"


def test_replacing_a_value_and_clearing_it(token_client, puzzle4):
    game = start(token_client, puzzle4)
    gid = game["id"]
    cell = empty_cells(puzzle4)[0]
    move(token_client, gid, cell, wrong_value_at(puzzle4, cell))
    fixed = move(token_client, gid, cell, value_at(puzzle4, cell)).json()
    assert fixed["correct"] is True
    assert fixed["game"]["mistakes"] == 1
    cleared = move(token_client, gid, cell, 0).json()
    assert cleared["correct"] is None
    assert cleared["game"]["entries"][cell] == "."


def test_placing_the_value_already_there_changes_nothing(token_client, puzzle4):
    game = start(token_client, puzzle4)
    cell = empty_cells(puzzle4)[0]
    wrong = wrong_value_at(puzzle4, cell)
    first = move(token_client, game["id"], cell, wrong).json()["game"]
    again = move(token_client, game["id"], cell, wrong).json()
    assert again["correct"] is False
    assert again["game"]["mistakes"] == first["mistakes"] == 1  # a double tap is one mistake
    assert again["game"]["can_undo"] is True
    undone = action(token_client, game["id"], "undo").json()
    assert undone["entries"][cell] == "."  # the no-op was not an undo step


@pytest.mark.parametrize("kind", ["same value", "clear an empty cell", "clear no notes"])
def test_a_move_that_changes_nothing_leaves_other_devices_current(token_client, puzzle4, kind):
    game = start(token_client, puzzle4)
    cell = empty_cells(puzzle4)[0]
    if kind == "same value":
        move(token_client, game["id"], cell, value_at(puzzle4, cell))
    seen = token_client.get(f"/api/v1/games/{game['id']}/").json()
    body = {"client_move_id": str(uuid.uuid4()), "cell": cell, "version": seen["version"]}
    if kind == "same value":
        body["value"] = value_at(puzzle4, cell)
    elif kind == "clear an empty cell":
        body["value"] = 0
    else:
        body.update(value=0, kind="note")
    # One device taps again what is already there ...
    noop = token_client.post(f"/api/v1/games/{game['id']}/moves/", body, format="json")
    assert noop.status_code == 200
    assert noop.json()["game"]["version"] == seen["version"]
    # ... and the other, which saw the game before that tap, still plays on.
    other = empty_cells(puzzle4)[1]
    later = {
        "client_move_id": str(uuid.uuid4()),
        "cell": other,
        "value": value_at(puzzle4, other),
        "version": seen["version"],
    }
    played = token_client.post(f"/api/v1/games/{game['id']}/moves/", later, format="json")
    assert played.status_code == 200, played.content
    assert played.json()["game"]["version"] == seen["version"] + 1
    # Both are in the log, once each, in order.
    logged = Move.objects.filter(game_id=game["id"]).order_by("seq")
    assert [str(m.client_move_id) for m in logged][-2:] == [
        body["client_move_id"],
        later["client_move_id"],
    ]


def test_undo_and_redo_walk_the_log_and_a_new_move_ends_redo(token_client, puzzle4):
    game = start(token_client, puzzle4)
    gid = game["id"]
    a, b = empty_cells(puzzle4)[:2]
    move(token_client, gid, a, value_at(puzzle4, a))
    move(token_client, gid, b, wrong_value_at(puzzle4, b))
    state = action(token_client, gid, "undo").json()
    assert state["entries"][b] == "." and state["entries"][a] != "."
    state = action(token_client, gid, "undo").json()
    assert state["entries"][a] == "." and state["can_undo"] is False
    error = error_of(action(token_client, gid, "undo"), 409)
    assert error["code"] == "nothing_to_undo"
    state = action(token_client, gid, "redo").json()
    assert state["entries"][a] == str(value_at(puzzle4, a))
    assert state["entries"][b] == "."
    assert state["mistakes"] == 1 and state["can_redo"] is True
    state = action(token_client, gid, "redo").json()
    assert state["entries"][b] == str(wrong_value_at(puzzle4, b))
    assert state["mistakes"] == 1  # redoing a mistake does not count it twice
    action(token_client, gid, "undo")
    move(token_client, gid, b, 0, kind="note")  # no change: redo stays
    assert action(token_client, gid, "redo").status_code == 200
    action(token_client, gid, "undo")
    move(token_client, gid, b, 3, kind="note")
    error = error_of(action(token_client, gid, "redo"), 409)
    assert error["code"] == "nothing_to_redo"


def test_undo_restores_the_notes_a_value_cleared(token_client, puzzle9):
    game = start(token_client, puzzle9)
    gid = game["id"]
    right = value_at(puzzle9, 2)
    move(token_client, gid, 3, right, kind="note")
    move(token_client, gid, 2, 4, kind="note")
    placed = move(token_client, gid, 2, right).json()["game"]
    assert placed["notes"] == {}
    restored = action(token_client, gid, "undo").json()
    assert restored["notes"] == {"3": [right], "2": [4]}


def test_a_redo_that_fills_the_board_completes_the_game(token_client, puzzle4):
    game = start(token_client, puzzle4)
    gid = game["id"]
    for cell in empty_cells(puzzle4):
        last = move(token_client, gid, cell, value_at(puzzle4, cell)).json()
    assert last["completed"] is True
    # A fresh game: fill all but the last, undo and redo it.
    game = start(token_client, puzzle4)
    gid = game["id"]
    for cell in empty_cells(puzzle4):
        last = move(token_client, gid, cell, value_at(puzzle4, cell)).json()
    assert last["completed"] is True
    assert action(token_client, gid, "undo").status_code == 409


def test_reaching_the_mistake_limit_ends_the_game_as_lost(token_client, puzzle4):
    game = start(token_client, puzzle4, mistake_limit=2)
    gid = game["id"]
    cell = empty_cells(puzzle4)[0]
    first = move(token_client, gid, cell, wrong_value_at(puzzle4, cell)).json()["game"]
    assert first["status"] == "in_progress"
    other = empty_cells(puzzle4)[1]
    lost = move(token_client, gid, other, wrong_value_at(puzzle4, other)).json()["game"]
    assert lost["status"] == "lost"
    assert lost["mistakes"] == 2 and lost["score"] is None
    assert lost["solution"] == puzzle4.solution
    error = error_of(move(token_client, gid, cell, 0), 409)
    assert error["code"] == "game_finished"


def test_a_paused_game_hides_the_board_and_refuses_moves(token_client, puzzle4):
    game = start(token_client, puzzle4)
    gid = game["id"]
    paused = action(token_client, gid, "pause").json()
    assert paused["entries"] is None and paused["notes"] is None
    assert paused["puzzle"]["givens"] is None
    fetched = token_client.get(f"/api/v1/games/{gid}/").json()
    assert fetched["entries"] is None and fetched["puzzle"]["givens"] is None
    listed = token_client.get("/api/v1/games/").json()["results"][0]
    assert listed["entries"] is None
    for response in (
        move(token_client, gid, empty_cells(puzzle4)[0], 1),
        action(token_client, gid, "undo"),
        action(token_client, gid, "redo"),
        action(token_client, gid, "hint", level=1),
    ):
        assert error_of(response, 409)["code"] == "game_paused"
    # Pausing again is harmless; resuming shows the board.
    assert action(token_client, gid, "pause").json()["version"] == paused["version"]
    resumed = action(token_client, gid, "resume").json()
    assert resumed["entries"] == puzzle4.givens


def test_an_abandoned_game_shows_the_solution_and_is_over(token_client, puzzle4):
    game = start(token_client, puzzle4)
    gid = game["id"]
    over = action(token_client, gid, "abandon").json()
    assert over["status"] == "abandoned" and over["solution"] == puzzle4.solution
    assert over["score"] is None
    for name in ("abandon", "pause", "resume", "undo", "redo"):
        assert error_of(action(token_client, gid, name), 409)["code"] == "game_finished"


def test_a_stale_version_is_a_409_with_the_current_game(token_client, puzzle4):
    game = start(token_client, puzzle4)
    gid = game["id"]
    a, b = empty_cells(puzzle4)[:2]
    ok = move(token_client, gid, a, 1, kind="note", version=1)
    assert ok.status_code == 200 and ok.json()["game"]["version"] == 2
    error = error_of(move(token_client, gid, b, 1, kind="note", version=1), 409)
    assert error["code"] == "stale_version"
    assert error["version"] == 2
    assert error["game"]["notes"] == {str(a): [1]}
    assert "solution" in error["game"] and error["game"]["solution"] is None
    assert error_of(action(token_client, gid, "undo", version=1), 409)["code"] == "stale_version"
    assert action(token_client, gid, "undo", version=2).status_code == 200


def test_list_filters_by_status_and_paginates(token_client, puzzle4, puzzle9):
    first = start(token_client, puzzle4)
    start(token_client, puzzle9)
    action(token_client, first["id"], "abandon")
    everything = token_client.get("/api/v1/games/").json()
    assert everything["count"] == 2
    abandoned = token_client.get("/api/v1/games/", {"status": "abandoned"}).json()
    assert [g["id"] for g in abandoned["results"]] == [first["id"]]
    page = token_client.get("/api/v1/games/", {"page_size": 1}).json()
    assert len(page["results"]) == 1 and page["next"]
    bad = token_client.get("/api/v1/games/", {"status": "won"})
    assert "status" in error_of(bad, 400)["fields"]


def test_start_requires_exactly_one_way_to_pick_a_puzzle(token_client, puzzle4):
    for body in ({}, {"puzzle": puzzle4.pk, "daily": True}, {"difficulty": "easy", "puzzle": 1}):
        response = token_client.post("/api/v1/games/", body, format="json")
        assert error_of(response, 400)["code"] == "invalid"
    missing = token_client.post("/api/v1/games/", {"puzzle": 999999}, format="json")
    assert "puzzle" in error_of(missing, 400)["fields"]
    limit = token_client.post(
        "/api/v1/games/", {"puzzle": puzzle4.pk, "mistake_limit": 0}, format="json"
    )
    assert "mistake_limit" in error_of(limit, 400)["fields"]


@pytest.mark.parametrize("size", [5, 7, 17, 26])
def test_start_with_a_size_that_has_no_boxes_is_a_400_naming_size(token_client, size):
    body = {"difficulty": "easy", "size": size}
    response = token_client.post("/api/v1/games/", body, format="json")
    assert "size" in error_of(response, 400)["fields"]
    daily = token_client.post("/api/v1/games/", {"daily": True, "size": size}, format="json")
    assert "size" in error_of(daily, 400)["fields"]


def test_start_by_difficulty_prefers_a_puzzle_not_played_yet(token_client, puzzle4, monkeypatch):
    other = puzzle_create(FOUR_B, difficulty="easy")
    body = {"difficulty": "easy", "size": 4}
    ids = {token_client.post("/api/v1/games/", body, format="json").json()["puzzle"]["id"]}
    ids.add(token_client.post("/api/v1/games/", body, format="json").json()["puzzle"]["id"])
    assert ids == {puzzle4.pk, other.pk}
    # Both being played: a new puzzle of the level is made on the spot, not refused.
    made = token_client.post("/api/v1/games/", body, format="json")
    assert made.status_code == 201, made.json()
    fresh = Puzzle.objects.get(pk=made.json()["puzzle"]["id"])
    assert fresh.pk not in ids
    assert (fresh.size, fresh.difficulty, fresh.source) == (4, "easy", "generated")
    # None can be made now: one played and over starts again, never one being played.
    monkeypatch.setattr("puzzles.stock.bank_puzzle_make", lambda **kwargs: None)
    busy = error_of(token_client.post("/api/v1/games/", body, format="json"), 404)
    assert busy["code"] == "no_puzzle_available"
    assert "is ready right now" in busy["message"] and "bank" not in busy["message"]
    game = Game.objects.get(puzzle=other)
    token_client.post(f"/api/v1/games/{game.pk}/abandon/", {}, format="json")
    again = token_client.post("/api/v1/games/", body, format="json")
    assert again.status_code == 201
    assert again.json()["puzzle"]["id"] == other.pk and again.json()["id"] != game.pk
    none = token_client.post("/api/v1/games/", {"difficulty": "master", "size": 4}, format="json")
    assert error_of(none, 404)["code"] == "no_puzzle_available"
    assert "4x4 puzzles are not made at master" in error_of(none, 404)["message"]


def test_a_daily_game_plays_the_puzzle_of_the_day(token_client, puzzle9):
    first = token_client.post("/api/v1/games/", {"daily": True}, format="json")
    assert first.status_code == 201, first.content
    assert first.json()["puzzle"]["id"] == puzzle9.pk
    # Asked again (a retry, another device): the same game goes on, no second one.
    again = token_client.post("/api/v1/games/", {"daily": True}, format="json")
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"]


def test_start_by_difficulty_keeps_the_daily_puzzles_for_the_daily_game(
    token_client, puzzle4, monkeypatch
):
    import random
    from datetime import timedelta

    from django.utils import timezone

    from puzzles.models import DailyPuzzle

    # The pick walks from its random start; start at the lowest id, the daily puzzle's, so
    # a pick that did not leave the daily puzzle out would take it every time.
    monkeypatch.setattr(random.SystemRandom, "randint", lambda self, low, high: low)
    monkeypatch.setattr("puzzles.stock.bank_puzzle_make", lambda **kwargs: None)
    other = puzzle_create(FOUR_B, difficulty="easy")
    today = timezone.localdate()
    DailyPuzzle.objects.create(date=today, size=4, puzzle=puzzle4)
    body = {"difficulty": "easy", "size": 4}
    # Twice: a fresh player, then one who has played (and abandoned) the other puzzle.
    for _ in range(2):
        started = token_client.post("/api/v1/games/", body, format="json")
        assert started.json()["puzzle"]["id"] == other.pk
        token_client.post(f"/api/v1/games/{started.json()['id']}/abandon/", {}, format="json")
    # When the level has nothing else to give (and none can be made), a daily puzzle is
    # better than nothing.
    DailyPuzzle.objects.create(date=today + timedelta(days=1), size=4, puzzle=other)
    last = token_client.post("/api/v1/games/", body, format="json")
    assert last.status_code == 201
    assert last.json()["puzzle"]["id"] in {puzzle4.pk, other.pk}
    # A daily puzzle of the past is an ordinary puzzle again.
    DailyPuzzle.objects.filter(puzzle=puzzle4).update(date=today - timedelta(days=1))
    token_client.post(f"/api/v1/games/{last.json()['id']}/abandon/", {}, format="json")
    again = token_client.post("/api/v1/games/", body, format="json")
    assert again.json()["puzzle"]["id"] == puzzle4.pk  # tomorrow's (other) is still kept
    # Where a puzzle can be made, a new one comes before any played or daily puzzle.
    token_client.post(f"/api/v1/games/{again.json()['id']}/abandon/", {}, format="json")
    monkeypatch.undo()
    made = token_client.post("/api/v1/games/", body, format="json")
    assert made.json()["puzzle"]["id"] not in {puzzle4.pk, other.pk}


def test_a_move_costs_at_most_three_queries(user, puzzle9):
    """The hot path: locked SELECT of game and puzzle (with the move id lookup in a
    subquery), INSERT, UPDATE."""
    import uuid

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from play import lifecycle, moves
    from play.lifecycle import Player

    player = Player(user=user)
    game, _ = lifecycle.game_start(player=player, puzzle_id=puzzle9.pk)
    cell = empty_cells(puzzle9)[0]
    for kind, value in (("note", 3), ("value", wrong_value_at(puzzle9, cell)), ("value", 0)):
        with CaptureQueriesContext(connection) as queries:
            moves.move_apply(
                game_id=game.pk,
                player=player,
                client_move_id=uuid.uuid4(),
                kind=kind,
                cell=cell,
                value=value,
            )
        work = [
            q["sql"]
            for q in queries.captured_queries
            if not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
        ]
        assert len(work) <= 3, work


def test_corner_marks_are_kept_apart_from_notes_and_undo_walks_them(token_client, puzzle9):
    gid = start(token_client, puzzle9)["id"]
    right = value_at(puzzle9, 2)  # r1c3
    move(token_client, gid, 3, right, kind="corner")  # r1c4: a peer
    move(token_client, gid, 2, 4, kind="corner")
    game = move(token_client, gid, 2, right, kind="note").json()["game"]
    assert game["corners"] == {"3": [right], "2": [4]} and game["notes"] == {"2": [right]}
    game = move(token_client, gid, 2, right).json()["game"]  # its own and its peers' go
    assert game["corners"] == {} and game["notes"] == {}
    assert action(token_client, gid, "undo").json()["corners"] == {"3": [right], "2": [4]}
    move(token_client, gid, 2, 0, kind="corner")  # 0 clears the cell's corner marks only
    assert Game.objects.get(pk=gid).corners == {"3": [right]}
    assert Game.objects.get(pk=gid).notes == {"2": [right]}
    error = error_of(move(token_client, gid, 0, 1, kind="corner"), 409)
    assert error["code"] == "cell_is_given"
    assert action(token_client, gid, "pause").json()["corners"] is None


def test_colours_go_on_any_cell_several_to_a_cell_and_undo_walks_them(token_client, puzzle4):
    gid = start(token_client, puzzle4)["id"]
    move(token_client, gid, 0, 9, kind="colour")  # a given, and a colour above the size
    game = move(token_client, gid, 0, 2, kind="colour").json()["game"]
    assert game["colours"] == {"0": [2, 9]} and game["entries"] == puzzle4.givens
    assert move(token_client, gid, 0, 9, kind="colour").json()["game"]["colours"] == {"0": [2]}
    assert action(token_client, gid, "undo").json()["colours"] == {"0": [2, 9]}
    assert move(token_client, gid, 0, 0, kind="colour").json()["game"]["colours"] == {}
    error = error_of(move(token_client, gid, 0, 10, kind="colour"), 400)
    assert "value" in error["fields"]
    assert action(token_client, gid, "restart").json()["colours"] == {}
