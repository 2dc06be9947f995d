"""The database keeps the bank's promises even when the services are bypassed."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from puzzles.models import Difficulty, PackEntry, Puzzle, PuzzlePack, Symmetry
from solver.generation.classic import SYMMETRIES
from solver.logic.grade import LEVELS

pytestmark = pytest.mark.django_db


def _copy(puzzle: Puzzle, **changes) -> Puzzle:
    fields = {
        f.name: getattr(puzzle, f.name)
        for f in Puzzle._meta.concrete_fields
        if f.name not in ("id", "created")
    }
    fields.update(changes)
    return Puzzle(**fields)


def test_it_offers_the_graders_levels_and_the_generators_symmetries():
    assert tuple(Difficulty.values) == LEVELS
    assert tuple(Symmetry.values) == SYMMETRIES


def test_the_same_givens_cannot_be_stored_twice_for_a_size(make_puzzle):
    puzzle = make_puzzle()
    with pytest.raises(IntegrityError), transaction.atomic():
        _copy(puzzle, canonical_key="0" * 64).save()


def test_two_puzzles_with_one_canonical_key_cannot_both_be_stored(make_puzzle):
    puzzle = make_puzzle()
    other = puzzle.givens.replace("1", "x").replace("2", "1").replace("x", "2")
    with pytest.raises(IntegrityError), transaction.atomic():
        _copy(puzzle, givens=other).save()


def test_size_must_match_the_box_shape(make_puzzle):
    puzzle = make_puzzle()
    with pytest.raises(IntegrityError), transaction.atomic():
        _copy(puzzle, givens="x", canonical_key="1" * 64, box_rows=2).save()


def test_a_pack_position_and_a_pack_puzzle_are_each_taken_once(make_puzzle):
    first, second = make_puzzle(seed="a"), make_puzzle(seed="b")
    pack = PuzzlePack.objects.create(
        name="p", size=9, box_rows=3, box_cols=3, difficulty="easy", count=2, seed="s"
    )
    PackEntry.objects.create(pack=pack, puzzle=first, position=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        PackEntry.objects.create(pack=pack, puzzle=second, position=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        PackEntry.objects.create(pack=pack, puzzle=first, position=1)


def test_a_pack_of_no_puzzles_is_refused_by_the_database():
    with pytest.raises(IntegrityError), transaction.atomic():
        PuzzlePack.objects.create(
            name="p", size=9, box_rows=3, box_cols=3, difficulty="easy", count=0, seed="s"
        )


def test_puzzle_gives_its_grids_back(make_puzzle):
    puzzle = make_puzzle(size=6)
    assert puzzle.shape.size == 6
    assert puzzle.grid().clues == puzzle.clue_count
    assert puzzle.solution_grid().is_complete()
