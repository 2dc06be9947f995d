"""Every generated puzzle the bank stores has one solution, by the independent engine,
and the grade of its level."""

from __future__ import annotations

import pytest

from puzzles.models import PackStatus, Puzzle
from solver import is_solution
from solver.generation.classic import is_symmetric
from solver.logic.grade import grade
from solver.search.dlx import dlx_count

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("size", "level"),
    [
        (4, "easy"),
        (6, "easy"),
        (6, "medium"),
        (9, "easy"),
        (9, "medium"),
        (9, "hard"),
        (9, "expert"),
        (9, "master"),
        (16, "easy"),
    ],
)
def test_every_stored_puzzle_of_a_pack_has_one_solution_and_its_level(run_pack, size, level):
    pack = run_pack(size=size, difficulty=level, count=3, chunk_size=2, seed=f"q-{size}-{level}")
    assert pack.status == PackStatus.DONE
    puzzles = Puzzle.objects.filter(pack_entries__pack=pack)
    assert puzzles.count() == 3
    for puzzle in puzzles:
        grid = puzzle.grid()
        assert dlx_count(grid, limit=2) == 1
        assert is_solution(grid, puzzle.solution_grid())
        assert grade(grid).level == puzzle.difficulty == level
        assert puzzle.clue_count == grid.clues


def test_a_symmetric_pack_stores_symmetric_puzzles(run_pack):
    pack = run_pack(size=9, difficulty="easy", count=3, symmetry="rotational", seed="sym")
    assert pack.status == PackStatus.DONE
    puzzles = list(Puzzle.objects.filter(pack_entries__pack=pack))
    assert len(puzzles) == 3
    for puzzle in puzzles:
        assert puzzle.symmetry == "rotational"
        assert is_symmetric(puzzle.grid(), "rotational")
