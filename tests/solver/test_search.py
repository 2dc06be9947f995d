"""The exact engine: solutions, counts, random grids, the node budget, every shape."""

import random

import pytest

from solver import (
    DEFAULT_NODE_BUDGET,
    BudgetExceeded,
    Grid,
    Shape,
    count_solutions,
    is_solution,
    parse,
    random_solution,
    solutions,
    solve,
)
from solver.search.dlx import dlx_count

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
# Built against naive backtracking: the first row's solution is 987654321.
NAIVE_WORST = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5), (3, 4), (4, 3), (4, 4), (5, 5)]


def blank(grid: Grid, share: float, seed: int) -> Grid:
    """``grid`` with about ``share`` of its cells emptied, chosen by ``seed``."""
    rng = random.Random(seed)
    cells = list(grid.cells)
    for i in rng.sample(range(len(cells)), int(len(cells) * share)):
        cells[i] = 0
    return grid.with_cells(cells)


def test_solve_finds_the_solution():
    assert solve(parse(PUZZLE)) == parse(SOLVED)


def test_the_naive_backtracking_worst_case_is_solved():
    grid = parse(NAIVE_WORST)
    solution = solve(grid)
    assert solution is not None and is_solution(grid, solution)
    assert solution.cells[:9] == (9, 8, 7, 6, 5, 4, 3, 2, 1)
    assert count_solutions(grid, limit=2) == 1


def test_a_complete_valid_grid_is_its_own_solution():
    assert solve(parse(SOLVED)) == parse(SOLVED)
    assert count_solutions(parse(SOLVED)) == 1


def test_clashing_givens_have_no_solution():
    clash = "55" + "." * 79
    assert solve(parse(clash)) is None
    assert count_solutions(parse(clash), limit=5) == 0
    assert solutions(parse(clash), limit=5) == []


def test_a_hidden_contradiction_has_no_solution():
    # r1c9 can hold nothing: 1-8 in its row, 9 in its column.
    grid = parse("12345678." + "." * 8 + "9" + "." * 63)
    assert solve(grid) is None
    assert count_solutions(grid) == 0


def test_count_stops_at_the_limit():
    empty = Grid.empty(Shape(3, 3))
    assert count_solutions(empty, limit=1) == 1
    assert count_solutions(empty, limit=2) == 2
    assert count_solutions(empty, limit=50) == 50
    assert count_solutions(empty, limit=0) == 0


def test_solutions_are_distinct_valid_and_in_a_fixed_order():
    grid = blank(parse(SOLVED), 0.7, seed=1)
    found = solutions(grid, limit=20)
    assert len(found) == 20
    assert len(set(found)) == 20
    assert all(is_solution(grid, s) for s in found)
    assert solutions(grid, limit=20) == found


def test_every_4x4_grid_is_found_exactly_once():
    # There are 288 complete 4x4 grids.
    found = solutions(Grid.empty(Shape(2, 2)), limit=1000)
    assert len(found) == 288
    assert len(set(found)) == 288
    assert all(is_solution(Grid.empty(Shape(2, 2)), s) for s in found)


@pytest.mark.parametrize("box", SHAPES, ids=[f"{r}x{c}" for r, c in SHAPES])
def test_every_shape_solves_and_counts_like_the_dlx_oracle(box):
    shape = Shape(*box)
    full = random_solution(shape, random.Random(7))
    assert is_solution(Grid.empty(shape), full)
    # The oracle is slow on a mostly empty 25x25 grid, so that one keeps more givens.
    shares = (0.2, 0.3, 0.4) if shape.size == 25 else (0.4, 0.55, 0.7)
    for seed, share in enumerate(shares, start=1):
        puzzle = blank(full, share, seed)
        found = solutions(puzzle, limit=3)
        assert found and all(is_solution(puzzle, s) for s in found)
        assert count_solutions(puzzle, limit=3) == len(found) == dlx_count(puzzle, limit=3)


def test_an_empty_25x25_grid_is_solved_without_recursion_trouble():
    empty = Grid.empty(Shape(5, 5))
    solution = solve(empty)
    assert solution is not None and is_solution(empty, solution)
    assert count_solutions(empty, limit=2) == 2


def test_random_solution_is_reproducible_and_varies_with_the_rng():
    shape = Shape(3, 3)
    first = random_solution(shape, random.Random(42))
    assert random_solution(shape, random.Random(42)) == first
    others = {random_solution(shape, random.Random(seed)) for seed in range(10)}
    assert len(others) == 10
    assert all(is_solution(Grid.empty(shape), g) for g in others)


def test_budget_too_small_raises():
    with pytest.raises(BudgetExceeded):
        count_solutions(Grid.empty(Shape(3, 3)), limit=10_000, budget=100)


def test_budget_large_enough_gives_the_answer():
    grid = parse(NAIVE_WORST)
    assert count_solutions(grid, limit=2, budget=DEFAULT_NODE_BUDGET) == 1


def test_default_budget_stops_an_endless_search_on_25x25():
    nearly_empty = Grid.empty(Shape(5, 5)).with_cells([1, 2, 3] + [0] * 622)
    with pytest.raises(BudgetExceeded):
        count_solutions(nearly_empty, limit=10**9, budget=DEFAULT_NODE_BUDGET)


# A 16x16 grid that defeats the search: 85 givens of a random solution, one of them then
# changed to a value none of its peers holds. Found by trying random grids until one used up
# DEFAULT_NODE_BUDGET; propagation cannot see its contradiction, so only search could.
HOSTILE_16 = (
    ".8E.7...G..B......6...194..DF7....F.D4.........9...D25..E.A........B....3...9..E.4..B.G."
    "...6......3.5..F8.....7..E2..A.7........B6...F..2G.47..DDA............ECG9C.472..DEA3..."
    "E..4........2..8..B.A....C.3..F.F....E.......DB.6...1B..D.F.8A32C.G.......1....."
)


def test_default_budget_stops_a_16x16_built_against_the_search():
    grid = parse(HOSTILE_16)
    assert grid.size == 16
    with pytest.raises(BudgetExceeded, match="budget of 10000 nodes"):
        count_solutions(grid, limit=2, budget=DEFAULT_NODE_BUDGET)
    with pytest.raises(BudgetExceeded):
        solve(grid, budget=DEFAULT_NODE_BUDGET)
