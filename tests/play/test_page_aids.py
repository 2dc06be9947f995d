"""The game API additions the browser page needs: auto notes, restart, and the cells the
server judged wrong (so a reloaded page can still mark its mistakes)."""

from __future__ import annotations

from play.models import Game
from play.scoring import game_score
from solver import parse, tables
from tests.play.factories import empty_cells, value_at, wrong_value_at
from tests.play.helpers import action, move, start


def test_auto_notes_pencils_every_candidate_and_counts_an_aid(token_client, puzzle9):
    game = start(token_client, puzzle9)
    response = action(token_client, game["id"], "auto-notes")
    assert response.status_code == 200, response.content
    body = response.json()
    grid = parse(puzzle9.givens)
    t = tables(grid.shape)
    for cell in empty_cells(puzzle9):
        taken = {grid.cells[p] for p in t.peers[cell]}
        assert body["notes"][str(cell)] == [v for v in range(1, 10) if v not in taken]
    assert Game.objects.get(pk=game["id"]).aids == 1
    assert body["can_undo"] is True


def test_auto_notes_again_without_a_change_costs_nothing(token_client, puzzle9):
    game = start(token_client, puzzle9)
    action(token_client, game["id"], "auto-notes")
    again = action(token_client, game["id"], "auto-notes")
    assert again.status_code == 200
    assert Game.objects.get(pk=game["id"]).aids == 1


def test_undo_takes_auto_notes_back_but_keeps_the_aid(token_client, puzzle9):
    game = start(token_client, puzzle9)
    action(token_client, game["id"], "auto-notes")
    undone = action(token_client, game["id"], "undo").json()
    assert undone["notes"] == {}
    assert Game.objects.get(pk=game["id"]).aids == 1


def test_a_game_finished_with_auto_notes_is_scored_with_the_aid(token_client, puzzle4):
    game = start(token_client, puzzle4)
    action(token_client, game["id"], "auto-notes")
    for cell in empty_cells(puzzle4):
        body = move(token_client, game["id"], cell, value_at(puzzle4, cell)).json()
    assert body["completed"] is True
    done = Game.objects.get(pk=game["id"])
    expected = game_score(
        difficulty="easy", size=4, elapsed_ms=done.elapsed_ms, mistakes=0, hint_stages=0, aids=1
    )
    assert done.score == expected
    assert expected < game_score(
        difficulty="easy", size=4, elapsed_ms=done.elapsed_ms, mistakes=0, hint_stages=0
    )


def test_restart_clears_entries_and_notes_but_keeps_clock_and_counts(token_client, puzzle4):
    game = start(token_client, puzzle4)
    first, second = empty_cells(puzzle4)[:2]
    move(token_client, game["id"], first, wrong_value_at(puzzle4, first))
    move(token_client, game["id"], second, 1, kind="note")
    before = Game.objects.get(pk=game["id"])
    response = action(token_client, game["id"], "restart")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["entries"] == puzzle4.givens
    assert body["notes"] == {}
    assert body["mistakes"] == 1
    assert body["elapsed_ms"] >= before.elapsed_ms
    assert body["status"] == "in_progress"
    # One undoable move: undo brings the board back.
    undone = action(token_client, game["id"], "undo").json()
    assert undone["entries"] == before.entries
    assert undone["notes"] == before.notes


def test_restart_of_a_finished_game_is_refused(token_client, puzzle4):
    game = start(token_client, puzzle4)
    action(token_client, game["id"], "abandon")
    response = action(token_client, game["id"], "restart")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "game_finished"


def test_the_game_lists_the_cells_judged_wrong(token_client, puzzle4):
    game = start(token_client, puzzle4)
    wrong, right = empty_cells(puzzle4)[:2]
    move(token_client, game["id"], wrong, wrong_value_at(puzzle4, wrong))
    body = move(token_client, game["id"], right, value_at(puzzle4, right)).json()
    assert body["game"]["mistake_cells"] == [wrong]
    fixed = move(token_client, game["id"], wrong, value_at(puzzle4, wrong)).json()
    assert fixed["game"]["mistake_cells"] == []


def test_a_paused_game_hides_its_mistake_cells(token_client, puzzle4):
    game = start(token_client, puzzle4)
    cell = empty_cells(puzzle4)[0]
    move(token_client, game["id"], cell, wrong_value_at(puzzle4, cell))
    paused = action(token_client, game["id"], "pause").json()
    assert paused["mistake_cells"] is None
    assert paused["entries"] is None


def test_a_game_starts_on_a_typed_in_grid(token_client, db):
    pretty = "1 . | 3 .\n3 4 | . 2\n----+----\n2 . | 4 .\n. 3 | . 1\n"
    response = token_client.post("/api/v1/games/", {"grid": pretty}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["puzzle"]["givens"] == "1.3.34.22.4..3.1"
    assert body["puzzle"]["size"] == 4
    game = Game.objects.select_related("puzzle").get(pk=body["id"])
    assert game.puzzle.solution == "1234341221434321"


def test_a_typed_in_grid_with_several_solutions_is_a_400(token_client, db):
    response = token_client.post("/api/v1/games/", {"grid": "1" + "." * 15}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "multiple_solutions"
    assert not Game.objects.exists()


def test_an_unreadable_grid_is_a_400_naming_the_field(token_client, db):
    response = token_client.post("/api/v1/games/", {"grid": "12345"}, format="json")
    assert response.status_code == 400
    assert "grid" in response.json()["error"]["fields"]


def test_grid_goes_alone(token_client, db):
    both = {"grid": "1.3.34.22.4..3.1", "difficulty": "easy"}
    assert token_client.post("/api/v1/games/", both, format="json").status_code == 400
    sized = {"grid": "1.3.34.22.4..3.1", "size": 4}
    assert token_client.post("/api/v1/games/", sized, format="json").status_code == 400
