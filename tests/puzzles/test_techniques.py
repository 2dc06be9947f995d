"""The bank knows techniques: rows per stored puzzle, practice packs, the practice top-up."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from django.db import connection

from puzzles import packs, practice
from puzzles.models import Puzzle, PuzzlePack, PuzzleTechnique
from solver.generation.practice import practice_techniques

pytestmark = pytest.mark.django_db


def test_a_stored_puzzle_keeps_a_row_per_technique_of_its_grade(make_puzzle):
    puzzle = make_puzzle(9, "hard", seed="kept")
    rows = {r.technique: r.count for r in PuzzleTechnique.objects.filter(puzzle=puzzle)}
    assert rows == puzzle.techniques
    assert rows  # a hard puzzle used at least one technique
    assert set(PuzzleTechnique.objects.filter(puzzle=puzzle).values_list("size", flat=True)) == {9}


def test_a_practice_pack_fills_with_puzzles_that_need_the_technique(run_pack):
    pack = run_pack(size=9, difficulty="medium", technique="x_wing", count=2, seed="xw")
    assert pack.status == "done"
    assert pack.technique == "x_wing"
    for puzzle in Puzzle.objects.filter(packs=pack):
        assert puzzle.techniques.get("x_wing", 0) >= 1
        assert puzzle.difficulty == "medium"
    assert PuzzleTechnique.objects.filter(technique="x_wing", puzzle__packs=pack).count() == 2


@pytest.mark.parametrize(
    ("technique", "difficulty", "size", "field", "says"),
    [
        ("no_such_wing", "hard", 9, "technique", "'no_such_wing' is not a technique"),
        ("x_wing", "medium", 6, "technique", "X-Wing is not practised on 6x6"),
        ("x_wing", "easy", 9, "difficulty", "X-Wing puzzles are medium, not easy"),
    ],
)
def test_a_bad_practice_pack_is_refused_naming_the_field(
    no_enqueue, technique, difficulty, size, field, says
):
    with pytest.raises(packs.PackRequestInvalid) as caught:
        packs.pack_create(
            name="bad", size=size, difficulty=difficulty, count=3, technique=technique
        )
    assert caught.value.field_name == field
    assert says in caught.value.message


def test_a_technique_grown_from_seeds_is_packed_only_without_symmetry(no_enqueue):
    with pytest.raises(packs.PackRequestInvalid) as caught:
        packs.pack_create(
            name="ur5 rotational",
            size=9,
            difficulty="hard",
            count=3,
            technique="unique_rectangle_5",
            symmetry="rotational",
        )
    assert caught.value.field_name == "symmetry"
    assert "Unique Rectangle Type 5 puzzles are made only without symmetry" in caught.value.message
    pack = packs.pack_create(
        name="ur5", size=9, difficulty="hard", count=3, technique="unique_rectangle_5"
    )
    assert pack.technique == "unique_rectangle_5"


def test_the_pack_api_takes_a_technique(staff_client, no_enqueue):
    answer = staff_client.post(
        "/api/v1/packs/",
        {"name": "kites", "size": 9, "difficulty": "medium", "count": 3, "technique": "x_wing"},
        format="json",
    )
    assert answer.status_code == 202, answer.json()
    assert answer.json()["technique"] == "x_wing"
    assert PuzzlePack.objects.get(name="kites").technique == "x_wing"
    bad = staff_client.post(
        "/api/v1/packs/",
        {"name": "bad", "size": 9, "difficulty": "hard", "count": 3, "technique": "zzz"},
        format="json",
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "invalid_technique"


def test_the_practice_top_up_queues_a_pack_per_short_technique_once(no_enqueue):
    queued = practice.practice_top_up(minimum=1, sizes=(6,))
    assert {p.technique for p in queued} == {t.slug for t in practice_techniques(6)}
    assert all(p.size == 6 and p.difficulty in ("easy", "medium") for p in queued)
    assert practice.practice_top_up(minimum=1, sizes=(6,)) == []  # already on their way


def test_the_backfill_writes_rows_from_the_stored_grades(make_puzzle):
    puzzle = make_puzzle(9, "medium", seed="backfill")
    PuzzleTechnique.objects.all().delete()
    migration = importlib.import_module("puzzles.migrations.0005_puzzle_technique")
    migration.backfill(django_apps, connection.schema_editor())
    rows = {r.technique: r.count for r in PuzzleTechnique.objects.filter(puzzle=puzzle)}
    assert rows == puzzle.techniques


def test_the_top_up_queues_nothing_for_techniques_the_generator_does_not_reach(
    no_enqueue, monkeypatch
):
    monkeypatch.setattr(practice, "generator_reaches", lambda slug: slug != "jellyfish")
    queued = practice.practice_top_up(minimum=1, sizes=(9,))
    made = {p.technique for p in queued}
    assert "x_wing" in made
    assert "jellyfish" not in made


def test_the_top_up_queues_techniques_grown_from_seeds(no_enqueue):
    made = {p.technique for p in practice.practice_top_up(minimum=1, sizes=(9,))}
    assert {"unique_rectangle_5", "hidden_quad", "jellyfish"} <= made
