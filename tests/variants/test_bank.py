"""Variant puzzles in the bank: made unique under their rules, stored once, picked apart."""

from __future__ import annotations

import pytest

from puzzles.models import Puzzle
from puzzles.selectors import puzzle_pick
from puzzles.variant_bank import variant_bank_seed, variant_techniques_backfill
from puzzles.variants import rules_of, variant_puzzle_make
from solver import Shape, count_solutions
from solver.logic.general import variant_logic_solve
from solver.logic.variant_grade import variant_grade
from solver.rules.checks import is_variant_solution
from tests.play.factories import NINE, puzzle_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("size", [6, 9])
@pytest.mark.parametrize(
    ("variant", "level"),
    [("diagonal", "hard"), ("jigsaw", "medium"), ("killer", "medium"), ("killer", "hard")],
)
def test_made_variant_puzzles_have_one_solution_under_their_rules(variant, level, size):
    grid, solution, rules, _hardest = variant_puzzle_make(
        variant=variant, shape=Shape.for_size(size), level=level, seed="bank"
    )
    assert rules.variant == variant
    assert count_solutions(grid, limit=2, rules=rules) == 1
    assert is_variant_solution(rules, grid, solution)
    if variant == "killer" and level == "hard":
        assert grid.clues == 0  # Killers from hard up: the cages alone


def test_a_stored_variant_puzzle_keeps_its_rules_and_is_stored_once(make_variant):
    puzzle = make_variant("jigsaw")
    again = make_variant("jigsaw")
    assert again.pk == puzzle.pk
    assert puzzle.variant == "jigsaw"
    assert "regions" in puzzle.rules and "cages" not in puzzle.rules
    rules = rules_of(Puzzle.objects.get(pk=puzzle.pk))
    assert is_variant_solution(rules, puzzle.grid(), puzzle.solution_grid())


def test_two_killers_without_givens_are_both_stored(make_variant):
    first = make_variant("killer", level="hard", seed="a")
    second = make_variant("killer", level="hard", seed="b")
    assert first.pk != second.pk
    assert first.givens == second.givens == "." * 81


def test_the_pick_by_level_keeps_variants_apart(make_variant):
    puzzle9 = puzzle_create(NINE, difficulty="easy")
    killer = make_variant("killer")
    assert puzzle_pick(size=9, difficulty="easy") == puzzle9
    assert puzzle_pick(size=9, difficulty="easy", variant="killer") == killer
    assert puzzle_pick(size=9, difficulty="easy", variant="diagonal") is None


def test_seeding_makes_each_variant_level_it_reaches_in_its_attempts_once(monkeypatch):
    # one attempt per level (the first is always made): the levels made are the seeds',
    # whatever the machine; the rest is left to the workers' top-up
    monkeypatch.setattr("puzzles.variant_bank.SEED_ATTEMPTS", 1)
    added = variant_bank_seed(sizes=(9,), count=1)
    assert 3 <= added == Puzzle.objects.exclude(variant="classic").count() <= 15
    levels = set(Puzzle.objects.values_list("variant", "difficulty"))
    assert {("diagonal", "easy"), ("killer", "easy")} <= levels
    for puzzle in Puzzle.objects.exclude(variant="classic"):  # each at its graded level
        assert variant_grade(rules_of(puzzle), puzzle.grid()).level == puzzle.difficulty
    assert variant_bank_seed(sizes=(9,), count=1) == 0  # the same seeds again


def test_a_killer_pack_is_made_in_chunks_under_fresh_cages():
    from puzzles.chunks import pack_chunk_generate
    from puzzles.packs import pack_create

    pack = pack_create(
        name="killers",
        size=6,
        difficulty="hard",
        count=3,
        variant="killer",
        chunk_size=2,
        enqueue=False,
    )
    for number in range(pack.chunk_count):
        pack_chunk_generate(pack_id=pack.pk, number=number)
    puzzles = [e.puzzle for e in pack.entries.select_related("puzzle")]
    assert len(puzzles) == 3
    for puzzle in puzzles:
        assert puzzle.variant == "killer" and puzzle.givens == "." * 36
        assert count_solutions(puzzle.grid(), limit=2, rules=rules_of(puzzle)) == 1
    # A rerun of a chunk adds nothing.
    assert pack_chunk_generate(pack_id=pack.pk, number=0) == 0


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"size": 16}, "size"),
        ({"difficulty": "legendary"}, "difficulty"),
        ({"technique": "x_wing"}, "variant"),
        ({"variant": "windoku"}, "variant"),
    ],
)
def test_a_bad_variant_pack_request_names_the_field(fields, field):
    from puzzles.packs import PackRequestInvalid, pack_request_validate

    request = {"name": "p", "size": 9, "difficulty": "easy", "count": 5, "variant": "jigsaw"}
    with pytest.raises(PackRequestInvalid) as raised:
        pack_request_validate(**{**request, **fields})
    assert raised.value.extra.get("field") == field or field in str(raised.value)


def test_a_stored_variant_puzzle_records_the_techniques_its_logic_uses(make_variant):
    puzzle = make_variant("killer", size=6, level="medium")
    grid = puzzle.grid()
    used = variant_logic_solve(rules_of(puzzle), grid, explain=False).techniques
    assert puzzle.techniques == used
    assert "cage_combination" in used


def test_variant_puzzles_stored_without_techniques_get_them_once(make_variant):
    puzzle = make_variant("jigsaw", size=6, level="easy")
    recorded = dict(puzzle.techniques)
    Puzzle.objects.filter(pk=puzzle.pk).update(techniques={})
    assert variant_techniques_backfill() == 1
    puzzle.refresh_from_db()
    assert puzzle.techniques == recorded
    assert variant_techniques_backfill() == 0
