"""The Algorithm X oracle, checked against brute force and on every shape."""

import itertools
import random

import pytest

from solver import Grid, Shape, is_solution, parse, random_solution
from solver.search.dlx import dlx_count, dlx_solutions, dlx_solve

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def all_4x4_grids() -> list[tuple[int, ...]]:
    """Every complete 4x4 grid, by brute force over row permutations (no engine involved)."""
    perms = list(itertools.permutations((1, 2, 3, 4)))
    out = []
    for rows in itertools.product(perms, repeat=4):
        cols_ok = all(len({row[c] for row in rows}) == 4 for c in range(4))
        boxes_ok = all(
            len({rows[r][c] for r in (br, br + 1) for c in (bc, bc + 1)}) == 4
            for br in (0, 2)
            for bc in (0, 2)
        )
        if cols_ok and boxes_ok:
            out.append(tuple(v for row in rows for v in row))
    return out


FOUR = all_4x4_grids()


def test_brute_force_knows_the_288_grids_of_4x4():
    assert len(FOUR) == 288


def test_dlx_finds_all_288_grids_of_an_empty_4x4():
    found = dlx_solutions(Grid.empty(Shape(2, 2)), limit=1000)
    assert sorted(g.cells for g in found) == sorted(FOUR)


def test_dlx_counts_match_brute_force_on_random_4x4_puzzles():
    rng = random.Random(3)
    for _ in range(200):
        cells = [v if rng.random() < 0.3 else 0 for v in rng.choice(FOUR)]
        expected = sum(all(c in (0, g[i]) for i, c in enumerate(cells)) for g in FOUR)
        assert dlx_count(Grid(Shape(2, 2), tuple(cells)), limit=1000) == expected


def test_dlx_solves_a_9x9_puzzle():
    solution = dlx_solve(parse(PUZZLE))
    assert solution == parse(SOLVED)


def test_dlx_finds_no_solution_when_givens_clash():
    assert dlx_count(parse("1.1" + "." * 78)) == 0
    assert dlx_solve(parse("1" + "." * 8 + "1" + "." * 71)) is None


def test_dlx_finds_no_solution_for_a_hidden_contradiction():
    assert dlx_count(parse("12345678." + "." * 8 + "9" + "." * 63)) == 0


def test_dlx_stops_at_the_limit():
    assert dlx_count(Grid.empty(Shape(3, 3)), limit=7) == 7
    assert dlx_count(Grid.empty(Shape(3, 3)), limit=0) == 0


@pytest.mark.parametrize("box", [(2, 3), (3, 2), (2, 4), (4, 2), (3, 4), (4, 4)])
def test_dlx_solutions_are_valid_on_every_shape(box):
    shape = Shape(*box)
    full = random_solution(shape, random.Random(11))
    rng = random.Random(12)
    cells = [0 if rng.random() < (0.6 if shape.size < 16 else 0.45) else v for v in full.cells]
    puzzle = Grid(shape, tuple(cells))
    found = dlx_solutions(puzzle, limit=5)
    assert found and len(set(found)) == len(found)
    assert all(is_solution(puzzle, s) for s in found)
