"""A puzzle with constraints is named by them, in the reader's language, wherever it is
named: its label (lists, titles, replays, boards), the game page's title, and the API's
puzzle JSON (``label`` and ``constraint_kinds``)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from puzzles import imports
from puzzles.models import Puzzle
from solver.formats.fpuzzles import to_fpuzzles
from solver.generation.constrained import make_constrained
from solver.grid import Shape

SIX = Shape.for_size(6)


def _rules(*kinds: str, cages: bool = False) -> dict:
    out: dict = {"constraints": [{"type": kind} for kind in kinds]}
    if cages:
        out["cages"] = [{"cells": [0, 1], "sum": 3}]
    return out


def _puzzle(rules: dict, *, variant: str = "classic", level: str = "hard", size: int = 9):
    box = {9: (3, 3), 6: (2, 3), 4: (2, 2)}[size]
    return Puzzle(
        size=size, box_rows=box[0], box_cols=box[1], difficulty=level, variant=variant, rules=rules
    )


@pytest.mark.parametrize(
    ("rules", "variant", "level", "label"),
    [
        ({}, "classic", "hard", "Hard 9×9"),
        (_rules("thermometer", "thermometer"), "classic", "hard", "Thermometer · Hard 9×9"),
        (_rules("arrow", cages=True), "killer", "expert", "Killer, Arrow · Expert 9×9"),
        (
            _rules("antiknight", "kropki", "black_dots_negative", "kropki"),
            "classic",
            "medium",
            "Anti-Knight, Kropki · Medium 9×9",
        ),
        (
            _rules("thermometer", "arrow", "xv"),
            "classic",
            "easy",
            "Thermometer, Arrow, XV · Easy 9×9",
        ),
        (
            _rules("antiknight", "kropki", "xv", "sandwich", "odd", "even"),
            "classic",
            "master",
            "Anti-Knight, Kropki +3 · Master 9×9",
        ),
        (_rules("arrow", cages=True), "killer", "hard", "Killer, Arrow · Hard 9×9"),
        (
            _rules("xv", "sandwich", "arrow", cages=True),
            "killer",
            "hard",
            "Killer, XV +2 · Hard 9×9",
        ),
    ],
)
def test_a_label_names_the_variant_then_each_kind_of_constraint(rules, variant, level, label):
    assert _puzzle(rules, variant=variant, level=level).label == label


def test_a_label_names_the_constraints_in_chinese():
    with translation.override("zh-hans"):
        label = _puzzle(_rules("arrow", cages=True), variant="killer", level="easy").label
    assert label == "杀手数独、箭头 · 简单 9×9"


def test_the_kinds_are_each_type_once_in_the_order_they_first_appear():
    puzzle = _puzzle(_rules("kropki", "antiknight", "kropki", "black_dots_negative"))
    assert puzzle.constraint_kinds == ["kropki", "antiknight", "black_dots_negative"]
    assert _puzzle({}).constraint_kinds == []


@pytest.fixture
def thermo(db) -> Puzzle:
    made = make_constrained("thermometer", SIX, 1)
    line = json.dumps(to_fpuzzles(made.rules, made.puzzle))
    (result,) = imports.puzzle_import_text(text=line + "\n").lines
    return Puzzle.objects.get(pk=result.puzzle_id)


@pytest.fixture
def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def test_the_puzzle_json_names_its_rules(client, thermo):
    got = client.get(f"/api/v1/puzzles/{thermo.pk}/").json()
    assert got["constraint_kinds"] == ["thermometer"]
    assert got["label"] == "Thermometer · Easy 6×6"
    chinese = client.get(f"/api/v1/puzzles/{thermo.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert chinese["label"] == "温度计 · 简单 6×6"


def test_a_plain_puzzle_json_has_no_kinds(client, make_variant):
    killer = make_variant("killer", size=6)
    got = client.get(f"/api/v1/puzzles/{killer.pk}/").json()
    assert got["constraint_kinds"] == []
    assert got["label"] == f"Killer · {killer.get_difficulty_display()} 6×6"


def test_the_game_json_and_page_name_its_rules(client, thermo, user):
    answer = client.post("/api/v1/games/", {"puzzle": thermo.pk}, format="json")
    assert answer.status_code == 201, answer.json()
    puzzle = answer.json()["puzzle"]
    assert (puzzle["label"], puzzle["constraint_kinds"]) == (
        "Thermometer · Easy 6×6",
        ["thermometer"],
    )
    browser = Client()
    browser.force_login(user)
    page = browser.get(f"/play/{answer.json()['id']}/").content.decode()
    title = page.split("<title>")[1].split("</title>")[0]
    assert "Thermometer · Easy 6×6" in title
