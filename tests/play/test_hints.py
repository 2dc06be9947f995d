"""Hints from the solver's logic engine, revealed in stages that each cost score."""

from __future__ import annotations

import pytest

from play.models import Game, Move
from tests.play.factories import empty_cells, value_at, wrong_value_at
from tests.play.helpers import action, move, start

pytestmark = pytest.mark.django_db


def hint(client, gid: int, level: int, **extra):
    response = action(client, gid, "hint", level=level, **extra)
    assert response.status_code == 200, response.content
    return response.json()


def test_stages_reveal_more_and_are_paid_once(token_client, puzzle9):
    gid = start(token_client, puzzle9)["id"]
    one = hint(token_client, gid, 1)
    assert set(one["hint"]) >= {"message", "units", "cells"}
    assert "technique" not in one["hint"] and "placements" not in one["hint"]
    assert one["game"]["hints_used"] == 1
    assert one["game"]["hint"]["level"] == 1  # shown with the game, e.g. after a reload
    again = hint(token_client, gid, 1)
    assert again["game"]["hints_used"] == 1  # asking again costs nothing
    assert again["hint"] == one["hint"]
    two = hint(token_client, gid, 2)
    assert two["hint"]["technique"] and two["hint"]["name"] and two["hint"]["message"]
    assert two["game"]["hints_used"] == 2
    three = hint(token_client, gid, 3)
    assert three["game"]["hints_used"] == 3
    assert three["hint"]["placements"] or three["hint"]["eliminations"]
    assert three["game"]["hint"] is None
    # On this puzzle the first step places a value, so the loop below checks something.
    assert three["hint"]["placements"]
    for pair in three["hint"]["placements"]:
        assert three["game"]["entries"][pair["cell"]] == str(pair["value"])
        assert value_at(puzzle9, pair["cell"]) == pair["value"]


def test_jumping_to_level_two_pays_for_both_stages(token_client, puzzle9):
    gid = start(token_client, puzzle9)["id"]
    assert hint(token_client, gid, 2)["game"]["hints_used"] == 2


def test_a_move_makes_the_pending_hint_stale(token_client, puzzle9):
    gid = start(token_client, puzzle9)["id"]
    hint(token_client, gid, 1)
    cell = empty_cells(puzzle9)[-1]
    after = move(token_client, gid, cell, 2, kind="note").json()["game"]
    assert after["hint"] is None
    assert hint(token_client, gid, 1)["game"]["hints_used"] == 2


def test_the_hint_says_first_that_a_value_is_wrong(token_client, puzzle9):
    gid = start(token_client, puzzle9)["id"]
    cell = empty_cells(puzzle9)[5]
    move(token_client, gid, cell, wrong_value_at(puzzle9, cell))
    one = hint(token_client, gid, 1)
    assert "wrong" in one["hint"]["message"]
    assert one["hint"]["cells"] == [cell]
    two = hint(token_client, gid, 2)
    assert two["hint"]["technique"] == "incorrect_entry"
    three = hint(token_client, gid, 3)
    assert three["game"]["entries"][cell] == "."
    assert three["game"]["mistakes"] == 1


def test_an_applied_hint_is_an_undoable_move(token_client, puzzle9):
    gid = start(token_client, puzzle9)["id"]
    three = hint(token_client, gid, 3)
    assert three["game"]["can_undo"] is True
    undone = action(token_client, gid, "undo").json()
    assert undone["entries"] == puzzle9.givens
    assert undone["hints_used"] == 3
    assert Move.objects.filter(game_id=gid, kind="hint").count() == 1


def test_eliminations_show_up_as_notes(token_client, puzzle9):
    """A hint that only eliminates writes the candidates in, less the eliminated values."""
    from play.board import Board
    from play.hints import _apply_step

    game = Game.objects.get(pk=start(token_client, puzzle9)["id"])
    board = Board.of(puzzle9.shape, game.entries, {})
    cell = empty_cells(puzzle9)[0]
    candidates = board.candidates(cell)
    eliminated = sorted(candidates - {value_at(puzzle9, cell)})[0]
    _apply_step(
        board,
        {
            "technique": "x_wing",
            "placements": [],
            "eliminations": [{"cell": cell, "value": eliminated}],
        },
    )
    assert board.notes == {str(cell): sorted(candidates - {eliminated})}


def test_a_bad_level_is_a_400(token_client, puzzle9):
    gid = start(token_client, puzzle9)["id"]
    for level in (0, 4, "1.5", None):
        response = action(token_client, gid, "hint", level=level)
        assert response.status_code == 400
        assert "level" in response.json()["error"]["fields"]
    assert action(token_client, gid, "hint").status_code == 400


def test_hints_cost_score(token_client, puzzle4):
    scores = []
    for hint_level in (None, 2):  # one game after the other: a player has one at a time
        gid = start(token_client, puzzle4)["id"]
        if hint_level:
            hint(token_client, gid, hint_level)
        for cell in empty_cells(puzzle4):
            last = move(token_client, gid, cell, value_at(puzzle4, cell)).json()
        assert last["completed"]
        scores.append(Game.objects.get(pk=gid).score)
    plain, helped = scores
    assert helped < plain


def test_a_hint_uses_the_stored_solution_instead_of_searching(token_client, puzzle9, monkeypatch):
    gid = start(token_client, puzzle9)["id"]

    def no_search(*args, **kwargs):
        raise AssertionError("a hint searched for the solution the puzzle already stores")

    monkeypatch.setattr("solver.logic.classic.solutions", no_search)
    assert hint(token_client, gid, 2)["hint"]["technique"]
