"""solver.logic.placement: the easiest technique that places one value in one cell."""

from __future__ import annotations

from solver import parse, solve
from solver.grid import Grid
from solver.logic.placement import easiest_placement, single_for
from solver.logic.techniques.base import Board

ANALYSED = "38.6.......9.......2..3.51......5....3..1..6....4......17.5..8.......9.......7.32"


def _with(grid: Grid, **placed: int) -> Grid:
    cells = list(grid.cells)
    for name, value in placed.items():
        cells[int(name[1:])] = value
    return Grid(grid.shape, tuple(cells))


def test_a_hidden_single_is_named_as_such():
    grid = parse(ANALYSED)
    assert easiest_placement(grid, 2, 5) == "hidden_single"


def test_a_value_reachable_after_a_naked_pair_is_a_naked_pair():
    grid = _with(parse(ANALYSED), c2=5)
    board = Board.from_grid(grid)
    assert single_for(board, 78, 1) is None  # no single places it directly
    assert easiest_placement(grid, 78, 1) == "naked_pair"


def test_a_value_no_technique_reaches_is_not_deducible():
    grid = _with(parse(ANALYSED), c2=5, c78=1)
    assert solve(grid).cells[4] == 2
    assert easiest_placement(grid, 4, 2, max_rounds=10_000) is None


def test_a_wrong_value_is_not_deducible():
    grid = parse(ANALYSED)
    assert solve(grid).cells[2] == 5
    assert easiest_placement(grid, 2, 6) is None


def test_the_last_cell_of_a_row_is_a_full_house():
    solution = solve(parse(ANALYSED))
    cells = list(solution.cells)
    cells[0] = 0
    assert easiest_placement(Grid(solution.shape, tuple(cells)), 0, solution.cells[0]) == (
        "full_house"
    )


def test_a_filled_cell_or_a_cell_off_the_grid_is_not_placed():
    grid = parse(ANALYSED)
    assert easiest_placement(grid, 0, 3) is None  # a given
    assert easiest_placement(grid, 81, 1) is None
