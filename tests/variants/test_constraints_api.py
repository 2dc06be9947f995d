"""A puzzle with constraints through the API: imported from f-puzzles, its constraints in
the puzzle JSON, played with server-checked moves, a constraint's clash reported."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from puzzles.models import Puzzle, Source
from puzzles.variants import variant_key
from solver.formats.fpuzzles import to_fpuzzles
from solver.generation.constrained import make_constrained
from solver.grid import Shape
from solver.rules.constraints import Thermometer
from solver.rules.ruleset import Rules

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"
ANALYSE = "/api/v1/solver/analyse/"
SIX = Shape.for_size(6)


@pytest.fixture
def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def _move(client, game_id: int, cell: int, value: int):
    return client.post(
        f"{GAMES}{game_id}/moves/",
        {"client_move_id": str(uuid.uuid4()), "cell": cell, "value": value},
        format="json",
    )


def _thermo_puzzle():
    for seed in range(20):
        made = make_constrained("thermometer", SIX, seed)
        open_thermo = [
            c
            for c in made.rules.constraints
            if isinstance(c, Thermometer) and not any(made.puzzle.cells[x] for x in c.line[:2])
        ]
        if open_thermo:
            return made, open_thermo[0]
    raise AssertionError("no thermometer with two open cells")


def test_an_fpuzzles_thermometer_puzzle_plays_to_the_end_with_its_constraints(client):
    made, _ = _thermo_puzzle()
    answer = client.post(GAMES, {"fpuzzles": to_fpuzzles(made.rules, made.puzzle)}, format="json")
    assert answer.status_code == 201, answer.json()
    got = answer.json()["puzzle"]
    assert got["constraints"] == [c.to_dict() for c in made.rules.constraints]
    assert Puzzle.objects.get(pk=got["id"]).source == Source.TYPED
    game_id = answer.json()["id"]
    last = None
    for cell in range(36):
        if not made.puzzle.cells[cell]:
            last = _move(client, game_id, cell, made.solution.cells[cell])
            assert last.json()["correct"] is True and last.json()["conflicts"] == []
    assert last is not None and last.json()["completed"] is True


def test_a_value_that_breaks_a_thermometer_is_a_clash(client):
    made, thermo = _thermo_puzzle()
    answer = client.post(GAMES, {"fpuzzles": to_fpuzzles(made.rules, made.puzzle)}, format="json")
    game_id = answer.json()["id"]
    bulb, step = thermo.line[:2]
    assert _move(client, game_id, step, 1).status_code == 200
    clash = _move(client, game_id, bulb, 2).json()
    assert step in clash["conflicts"]


def test_the_analysis_counts_under_the_constraints_and_lists_them(client):
    made, _ = _thermo_puzzle()
    data = to_fpuzzles(made.rules, made.puzzle)
    analysis = client.post(ANALYSE, {"fpuzzles": data}, format="json").json()
    assert analysis["solutions"] == 1
    assert analysis["constraints"] == [c.to_dict() for c in made.rules.constraints]


def test_the_same_givens_with_other_constraints_have_another_key():
    made, thermo = _thermo_puzzle()
    fewer = Rules.make(SIX, constraints=[c for c in made.rules.constraints if c != thermo])
    assert variant_key(made.puzzle, made.rules) != variant_key(made.puzzle, fewer)


@pytest.mark.parametrize(
    "extra, says",
    [
        ({"thermometer": [{"lines": [["R1C1"]]}]}, "thermometer 1"),
        ({"ratio": [{"cells": ["R1C1", "R3C3"]}]}, "neighbours"),
        ({"clone": [{"cells": ["R1C1"], "cloneCells": ["R2C2"]}]}, "clone"),
    ],
)
def test_a_bad_or_unknown_constraint_is_a_400_naming_it(client, extra, says):
    data = {"size": 6, "grid": [[{} for _ in range(6)] for _ in range(6)], **extra}
    answer = client.post(GAMES, {"fpuzzles": data}, format="json")
    assert answer.status_code == 400
    assert says in str(answer.json())


def test_hints_on_a_thermometer_game_follow_its_constraints(client):
    made, _ = _thermo_puzzle()
    answer = client.post(GAMES, {"fpuzzles": to_fpuzzles(made.rules, made.puzzle)}, format="json")
    url = f"{GAMES}{answer.json()['id']}/hint/"
    techniques = set()
    for _ in range(4):
        applied = client.post(url, {"level": 3}, format="json")
        assert applied.status_code == 200, applied.json()
        hint = applied.json()["hint"]
        techniques.add(hint.get("technique"))
        for pair in hint.get("placements", []):
            assert made.solution.cells[pair["cell"]] == pair["value"]
        for pair in hint.get("eliminations", []):
            assert made.solution.cells[pair["cell"]] != pair["value"]
        assert hint.get("placements") or hint.get("eliminations")
    assert "constraint" in techniques


def test_a_constrained_game_exports_back_to_the_same_f_puzzles_constraints(client):
    from solver.formats.fpuzzles import from_fpuzzles, read_share_link

    made, _ = _thermo_puzzle()
    answer = client.post(GAMES, {"fpuzzles": to_fpuzzles(made.rules, made.puzzle)}, format="json")
    export = client.get(f"{GAMES}{answer.json()['id']}/export/")
    assert export.status_code == 200, export.json()
    body = export.json()
    assert from_fpuzzles(body["fpuzzles"]).rules == made.rules
    assert read_share_link(body["sudokupad_url"]).rules == made.rules


def test_the_game_page_of_a_constrained_puzzle_carries_its_words_translated(client, user):
    made, _ = _thermo_puzzle()
    answer = client.post(GAMES, {"fpuzzles": to_fpuzzles(made.rules, made.puzzle)}, format="json")
    client.force_login(user)
    page = client.get(f"/play/{answer.json()['id']}/", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    text = page.content.decode()
    assert page.status_code == 200 and "game-data" in text, text[:300]
    assert "constraint_words" in text and "css/variants.css" in text
    assert "\\u5728\\u6e29\\u5ea6\\u8ba1\\u4e0a" in text or "在温度计上" in text


def test_the_puzzle_bank_api_lists_a_puzzles_constraints_beside_its_cages(client):
    made, _ = _thermo_puzzle()
    answer = client.post(GAMES, {"fpuzzles": to_fpuzzles(made.rules, made.puzzle)}, format="json")
    puzzle_id = answer.json()["puzzle"]["id"]
    detail = client.get(f"/api/v1/puzzles/{puzzle_id}/")
    assert detail.status_code == 200, detail.json()
    assert detail.json()["constraints"] == [c.to_dict() for c in made.rules.constraints]
    assert "cages" in detail.json()
