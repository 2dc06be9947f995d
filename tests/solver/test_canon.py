"""The canonical key: equal exactly for puzzles that are the same up to the Sudoku symmetries."""

from __future__ import annotations

import itertools
import random

import pytest

from solver.generation.classic import generate
from solver.grid import Grid, Shape, parse
from solver.rules.canon import canonical_form, canonical_key, relabelled, transpose
from solver.search.exact import random_solution
from tests.solver.datasets import load


def _block_orders(n: int, k: int) -> list[list[int]]:
    """Every order of 0..n-1 that permutes blocks of k and the lines within each block."""
    out = []
    for blocks in itertools.permutations(range(n // k)):
        inner = [list(itertools.permutations(range(b * k, (b + 1) * k))) for b in blocks]
        for choice in itertools.product(*inner):
            out.append([line for part in choice for line in part])
    return out


def _brute_force_form(grid: Grid) -> tuple[int, ...]:
    """The smallest relabelled grid over the whole group, by trying every transformation."""
    shape = grid.shape
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    variants = [grid.cells]
    if br == bc:
        variants.append(tuple(grid.cells[c * n + r] for r in range(n) for c in range(n)))
    best = None
    for cells in variants:
        for rows in _block_orders(n, br):
            for cols in _block_orders(n, bc):
                labels: dict[int, int] = {}
                out = []
                for r in rows:
                    for c in cols:
                        v = cells[r * n + c]
                        if v and v not in labels:
                            labels[v] = len(labels) + 1
                        out.append(labels[v] if v else 0)
                form = tuple(out)
                if best is None or form < best:
                    best = form
    assert best is not None
    return best


def _permute(grid: Grid, rows: list[int], cols: list[int], labels: list[int]) -> Grid:
    n = grid.size
    cells = grid.cells
    return Grid(
        grid.shape,
        tuple(labels[cells[r * n + c]] if cells[r * n + c] else 0 for r in rows for c in cols),
    )


TOP95 = [parse(line) for line in load("norvig_top95")[:12]]
IDENTITY9 = list(range(9))
LABELS9 = [0, 4, 7, 1, 9, 2, 8, 3, 6, 5]


@pytest.mark.parametrize(
    "grid",
    [generate(4, seed=s).puzzle for s in range(4)]
    + [parse(line) for line in load("gen_4x4_unique")[:6]]
    + [generate(6, seed=s).puzzle for s in range(2)]
    + [generate(6, seed=0).solution],
)
def test_form_is_the_smallest_over_every_transformation(grid):
    assert canonical_form(grid).cells == _brute_force_form(grid)


@pytest.mark.parametrize(
    ("rows", "cols"),
    [
        ([1, 0, 2, 3, 4, 5, 6, 7, 8], IDENTITY9),  # rows within a band
        ([6, 7, 8, 0, 1, 2, 3, 4, 5], IDENTITY9),  # bands
        (IDENTITY9, [0, 2, 1, 3, 4, 5, 8, 7, 6]),  # columns within stacks
        (IDENTITY9, [3, 4, 5, 6, 7, 8, 0, 1, 2]),  # stacks
        ([5, 3, 4, 8, 6, 7, 1, 2, 0], [7, 8, 6, 2, 0, 1, 4, 3, 5]),  # all at once
    ],
)
def test_each_symmetry_keeps_the_key(rows, cols):
    for grid in TOP95:
        moved = _permute(grid, rows, cols, LABELS9)
        assert moved != grid
        assert canonical_key(moved) == canonical_key(grid)


def test_transposition_and_relabelling_keep_the_key():
    for grid in TOP95:
        assert canonical_key(transpose(grid)) == canonical_key(grid)
        assert canonical_key(relabelled(grid)) == canonical_key(grid)
        assert canonical_key(_permute(grid, IDENTITY9, IDENTITY9, LABELS9)) == canonical_key(grid)


def test_non_equivalent_puzzles_get_different_keys():
    # Gordon Royle's 17-clue puzzles are pairwise essentially different.
    grids = [parse(line) for line in load("royle_17clue_first1000")[:300]]
    keys = {canonical_key(g) for g in grids}
    assert len(keys) == len(grids)


def test_moving_one_clue_changes_the_key():
    grid = TOP95[0]
    cells = list(grid.cells)
    given = next(c for c, v in enumerate(cells) if v)
    empty = next(c for c, v in enumerate(cells) if not v and c // 9 != given // 9)
    cells[empty], cells[given] = cells[given], 0
    assert canonical_key(Grid(grid.shape, tuple(cells))) != canonical_key(grid)


def test_key_is_stable_across_calls():
    for grid in TOP95[:5]:
        assert (
            canonical_key(grid)
            == canonical_key(grid)
            == canonical_key(Grid(grid.shape, grid.cells))
        )


def test_key_names_the_box_shape_and_is_a_readable_puzzle():
    grid = TOP95[0]
    key = canonical_key(grid)
    assert key.startswith("3x3:")
    form = parse(key[4:])
    assert form == canonical_form(grid)
    assert form.clues == grid.clues
    assert canonical_key(form) == key


def test_form_is_a_fixed_point():
    for grid in [*TOP95[:5], generate(6, seed=1).puzzle]:
        form = canonical_form(grid)
        assert canonical_form(form) == form


def test_transposed_box_shapes_share_a_key():
    grid = generate(6, seed=2).puzzle  # 2x3 boxes
    flipped = transpose(grid)  # 3x2 boxes
    assert flipped.shape == Shape(3, 2)
    assert canonical_key(flipped) == canonical_key(grid)
    assert canonical_key(grid).startswith("2x3:")


def test_complete_grids_are_keyed_too():
    solution = generate(9, level="easy", seed=3).solution
    moved = _permute(transpose(solution), [2, 0, 1, 3, 4, 5, 8, 6, 7], IDENTITY9, LABELS9)
    assert canonical_key(moved) == canonical_key(solution)
    assert canonical_key(solution)[4:13] == "123456789"


def test_big_grids_are_keyed_exactly_within_the_bound():
    grid = parse(load("gen_16x16_unique")[0])
    n = 16
    rows = [4, 5, 6, 7, 0, 1, 2, 3, 8, 9, 10, 11, 15, 14, 13, 12]
    cols = list(range(n))[::-1]
    labels = [0, *range(16, 0, -1)]
    key = canonical_key(grid)
    assert key.startswith("4x4:")
    assert canonical_key(_permute(grid, rows, cols, labels)) == key


def test_past_the_bound_the_weaker_key_is_still_sound():
    grid = parse(load("gen_16x16_unique")[1])
    weak = canonical_key(grid, max_states=1)
    assert weak.startswith("4x4~")
    assert canonical_form(grid, max_states=1) is None
    # Relabelling is still seen through; a different puzzle still differs.
    labels = [0, *range(16, 0, -1)]
    assert (
        canonical_key(_permute(grid, list(range(16)), list(range(16)), labels), max_states=1)
        == weak
    )
    other = parse(load("gen_16x16_unique")[2])
    assert canonical_key(other, max_states=1) != weak


def test_9x9_keys_are_never_bounded():
    grid = TOP95[1]
    assert canonical_key(grid, max_states=1) == canonical_key(grid)


def test_complete_big_grid_gets_the_weaker_key_at_once():
    solution = random_solution(Shape(4, 4), random.Random("canon"))
    key = canonical_key(solution)
    assert key.startswith("4x4~")
    assert key == canonical_key(relabelled(solution))
