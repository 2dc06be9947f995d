"""The hint as an oracle, tried as an attacker would: notes written to leave out one
candidate at a time, then a cheap hint asked to say which notes are wrong."""

from __future__ import annotations

import pytest

from play.models import Game
from tests.play.factories import empty_cells, puzzle_create, value_at
from tests.play.helpers import action, start
from tests.solver.datasets import load

pytestmark = pytest.mark.django_db

STAGE_THREE = 3  # hint stages a fully revealed hint costs


def hint(client, gid: int, level: int) -> dict:
    response = action(client, gid, "hint", level=level)
    assert response.status_code == 200, response.content
    return response.json()


def write_notes(gid: int, notes: dict[int, list[int]]) -> None:
    """The notes a player can write with note moves, written at once to keep the test fast
    (a hint reads the game's notes, however they were written)."""
    Game.objects.filter(pk=gid).update(notes={str(c): sorted(v) for c, v in notes.items()})


def named_by_a_note_warning(answer: dict) -> list[int]:
    shown = answer["hint"]
    if shown.get("technique") == "incorrect_note" or "notes" in shown["message"].lower():
        return list(shown["cells"])
    return []


def test_learning_every_value_through_hints_costs_at_least_stage_three_hints(token_client):
    puzzle = puzzle_create(load("qqwing_expert")[0], difficulty="hard")
    gid = start(token_client, puzzle)["id"]
    empties = empty_cells(puzzle)
    known: dict[int, int] = {}
    # Notes in every unknown cell leaving out k: a warning names the cells holding k.
    progress = True
    while progress and len(known) < len(empties):
        progress = False
        for k in range(1, 10):
            unknown = [c for c in empties if c not in known]
            write_notes(gid, {c: set(range(1, 10)) - {k} for c in unknown})
            for cell in named_by_a_note_warning(hint(token_client, gid, 1)):
                if cell not in known:
                    known[cell], progress = k, True
    # What the warnings did not give away, stage-three hints place.
    write_notes(gid, {})
    game = Game.objects.get(pk=gid)
    while game.status == "in_progress" and len(known) < len(empties):
        for pair in hint(token_client, gid, 3)["hint"]["placements"]:
            known.setdefault(pair["cell"], pair["value"])
        game.refresh_from_db()
    assert known == {c: value_at(puzzle, c) for c in empties}
    paid = Game.objects.get(pk=gid).hints_used
    assert paid >= STAGE_THREE * len(empties), (
        f"every value of the puzzle learned for {paid} hint stages"
    )


def test_a_hint_says_the_same_whatever_the_notes(token_client):
    puzzle = puzzle_create(load("qqwing_expert")[0], difficulty="hard")
    gid = start(token_client, puzzle)["id"]
    empties = empty_cells(puzzle)
    answers = []
    for notes in (
        {},
        {c: [value_at(puzzle, c)] for c in empties},  # every note right
        {c: set(range(1, 10)) - {value_at(puzzle, c)} for c in empties[:5]},  # some wrong
    ):
        write_notes(gid, notes)
        answers.append([hint(token_client, gid, level)["hint"] for level in (1, 2)])
    assert answers[0] == answers[1] == answers[2]
