"""Property tests: a Sudoku symmetry changes neither the count, the level nor the canonical key."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.grid import Grid, parse
from solver.logic.grade import grade
from solver.rules.canon import canonical_key
from solver.search.exact import count_solutions
from tests.solver.datasets import load

PUZZLES_9 = [
    parse(line)
    for name in ("qqwing_simple", "qqwing_intermediate", "qqwing_expert", "norvig_easy50")
    for line in load(name)[:8]
]
PUZZLES_4 = [parse(line) for line in load("gen_4x4_unique")[:20]]
PUZZLES_16 = [parse(line) for line in load("gen_16x16_unique")[:6]]
MULTI_9 = [parse(line) for line in load("serg_multisolution_1000")[:10]]


@st.composite
def transformed(draw, puzzles: list[Grid]) -> tuple[Grid, Grid]:
    """A puzzle and a random image of it: bands, rows in bands, stacks, columns in stacks,
    a quarter turn or a transposition (square boxes), and a relabelling."""
    grid = draw(st.sampled_from(puzzles))
    shape = grid.shape
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    rows = [
        band * br + r
        for band in draw(st.permutations(range(n // br)))
        for r in draw(st.permutations(range(br)))
    ]
    cols = [
        stack * bc + c
        for stack in draw(st.permutations(range(n // bc)))
        for c in draw(st.permutations(range(bc)))
    ]
    labels = [0, *draw(st.permutations(range(1, n + 1)))]
    cells = [labels[grid.cells[r * n + c]] for r in rows for c in cols]
    if br == bc:
        turns = draw(st.integers(0, 3))
        for _ in range(turns):  # a quarter turn clockwise: new (r, c) = old (n-1-c, r)
            cells = [cells[(n - 1 - c) * n + r] for r in range(n) for c in range(n)]
        if draw(st.booleans()):
            cells = [cells[c * n + r] for r in range(n) for c in range(n)]
    return grid, Grid(shape, tuple(cells))


FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(transformed(PUZZLES_9))
def test_symmetry_keeps_count_level_and_key_of_9x9_puzzles(pair):
    grid, image = pair
    assert count_solutions(image, limit=2) == count_solutions(grid, limit=2) == 1
    assert grade(image).level == grade(grid).level
    assert canonical_key(image) == canonical_key(grid)


@FAST
@given(transformed(MULTI_9))
def test_symmetry_keeps_count_and_key_of_puzzles_with_several_solutions(pair):
    grid, image = pair
    assert count_solutions(image, limit=2) == count_solutions(grid, limit=2) == 2
    assert canonical_key(image) == canonical_key(grid)


@FAST
@given(transformed(PUZZLES_4))
def test_symmetry_keeps_count_level_and_key_of_4x4_puzzles(pair):
    grid, image = pair
    assert count_solutions(image, limit=2) == count_solutions(grid, limit=2) == 1
    assert grade(image).level == grade(grid).level
    assert canonical_key(image) == canonical_key(grid)


@settings(max_examples=10, deadline=None)
@given(transformed(PUZZLES_16))
def test_symmetry_keeps_the_key_of_16x16_puzzles(pair):
    grid, image = pair
    assert canonical_key(image) == canonical_key(grid)


def _profile(grid: Grid) -> tuple[tuple[int, ...], ...]:
    """Clue counts per row and per column, sorted: unchanged by every symmetry."""
    n = grid.size
    rows = tuple(sorted(sum(1 for c in range(n) if grid.cells[r * n + c]) for r in range(n)))
    cols = tuple(sorted(sum(1 for r in range(n) if grid.cells[r * n + c]) for c in range(n)))
    return tuple(sorted([rows, cols]))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(PUZZLES_9), st.sampled_from(PUZZLES_9))
def test_different_puzzles_get_different_keys(first, second):
    if first == second:
        assert canonical_key(first) == canonical_key(second)
    elif _profile(first) != _profile(second):  # provably not equivalent
        assert canonical_key(first) != canonical_key(second)


@settings(max_examples=15, deadline=None)
@given(transformed(PUZZLES_9))
def test_canonical_key_is_stable_across_calls(pair):
    _, image = pair
    assert canonical_key(image) == canonical_key(image)
