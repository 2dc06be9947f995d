"""The generator: one solution, the asked level and symmetry, reproducible, minimal on request."""

from __future__ import annotations

import pytest

from solver.generation.classic import (
    SYMMETRIES,
    generate,
    is_symmetric,
    supported_levels,
)
from solver.grid import Grid, Shape
from solver.logic.grade import LEVELS, grade
from solver.rules.checks import conflicts, is_solution
from solver.search.dlx import dlx_count
from solver.search.exact import count_solutions

FAST_SIZES = (4, 6, 9, 12)
CASES = [(size, level) for size in FAST_SIZES for level in supported_levels(size)]


def _check_puzzle(made, size: int) -> None:
    """One solution, the stored solution is it, and the givens agree with it."""
    puzzle, solution = made.puzzle, made.solution
    assert puzzle.size == size
    assert count_solutions(puzzle, limit=2) == 1
    assert is_solution(puzzle, solution)
    assert conflicts(puzzle) == []
    assert 0 < puzzle.clues < puzzle.shape.ncells


def _mirror_cell(n: int, cell: int, symmetry: str) -> int:
    """Where ``symmetry`` sends ``cell``, written out independently of the generator."""
    r, c = divmod(cell, n)
    if symmetry == "rotational":
        return (n - 1 - r) * n + (n - 1 - c)
    if symmetry == "mirror":
        return r * n + (n - 1 - c)
    if symmetry == "diagonal":
        return c * n + r
    return cell


@pytest.mark.parametrize(("size", "level"), CASES)
def test_generated_puzzle_has_one_solution_and_the_asked_level(size, level):
    made = generate(size, level=level, seed=7)
    _check_puzzle(made, size)
    rated = grade(made.puzzle)
    assert rated.level == level
    assert made.grade == rated


def test_generated_16x16_puzzle_has_one_solution_and_is_easy():
    made = generate(16, level="easy", seed=1)
    _check_puzzle(made, 16)
    assert grade(made.puzzle).level == "easy"


@pytest.mark.slow
@pytest.mark.parametrize("level", [lv for lv in supported_levels(16) if lv != "easy"])
def test_generated_16x16_puzzle_reaches_its_harder_levels(level):
    made = generate(16, level=level, seed=2)
    _check_puzzle(made, 16)
    assert grade(made.puzzle).level == level


@pytest.mark.slow
def test_generated_25x25_puzzle_has_one_solution():
    made = generate(25, level="easy", seed=1)
    _check_puzzle(made, 25)


@pytest.mark.parametrize("size", [4, 6, 9, 12, 16])
def test_generated_puzzles_agree_with_the_independent_dlx_count(size):
    for seed in range(2):
        made = generate(size, level="easy", seed=seed)
        assert dlx_count(made.puzzle, limit=2) == 1


@pytest.mark.parametrize("seed", [0, 1])
def test_any_level_puzzle_has_one_solution_and_a_supported_level(seed):
    made = generate(9, seed=seed)
    _check_puzzle(made, 9)
    assert made.grade.level in supported_levels(9)


@pytest.mark.parametrize("symmetry", [s for s in SYMMETRIES if s != "none"])
@pytest.mark.parametrize(("size", "level"), [(6, "easy"), (9, "medium"), (12, "easy")])
def test_givens_follow_the_asked_symmetry(symmetry, size, level):
    made = generate(size, level=level, symmetry=symmetry, seed=3)
    _check_puzzle(made, size)
    cells = made.puzzle.cells
    for cell in range(size * size):
        assert bool(cells[cell]) == bool(cells[_mirror_cell(size, cell, symmetry)])
    assert is_symmetric(made.puzzle, symmetry)
    assert made.symmetry == symmetry
    assert grade(made.puzzle).level == level


def test_is_symmetric_spots_a_broken_pattern():
    made = generate(9, level="easy", symmetry="rotational", seed=4)
    cells = list(made.puzzle.cells)
    lone = next(c for c in range(81) if cells[c] and c != 40)
    cells[lone] = 0
    assert not is_symmetric(Grid(made.puzzle.shape, tuple(cells)), "rotational")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"shape": 9, "level": "hard"},
        {"shape": 6, "level": "easy", "symmetry": "mirror"},
        {"shape": 9, "minimal": True},
        {"shape": 12, "level": "medium"},
    ],
)
def test_same_arguments_give_the_same_puzzle_and_another_seed_another(kwargs):
    first = generate(**kwargs, seed="abc")
    again = generate(**kwargs, seed="abc")
    other = generate(**kwargs, seed="abd")
    assert first.puzzle == again.puzzle
    assert first.solution == again.solution
    assert first.grade == again.grade
    assert other.puzzle != first.puzzle


def test_int_and_str_seeds_are_both_accepted_and_recorded():
    assert generate(4, seed=5).seed == 5
    assert generate(4, seed="5").seed == "5"


def _removable(puzzle: Grid) -> list[int]:
    """The givens whose removal leaves exactly one solution."""
    out = []
    for cell, v in enumerate(puzzle.cells):
        if v:
            cells = list(puzzle.cells)
            cells[cell] = 0
            if count_solutions(Grid(puzzle.shape, tuple(cells)), limit=2) == 1:
                out.append(cell)
    return out


@pytest.mark.parametrize(("size", "level", "seed"), [(6, None, 1), (9, None, 2), (9, "easy", 3)])
def test_minimal_puzzle_has_no_removable_clue(size, level, seed):
    made = generate(size, level=level, minimal=True, seed=seed)
    _check_puzzle(made, size)
    assert _removable(made.puzzle) == []
    if level is not None:
        assert grade(made.puzzle).level == level


def test_minimal_symmetric_puzzle_has_no_removable_pair():
    made = generate(9, symmetry="rotational", minimal=True, seed=1)
    _check_puzzle(made, 9)
    cells = made.puzzle.cells
    for cell in range(41):  # each pair once (the centre alone)
        if cells[cell]:
            trial = list(cells)
            trial[cell] = trial[80 - cell] = 0
            assert count_solutions(Grid(made.puzzle.shape, tuple(trial)), limit=2) == 2


def test_supported_levels_per_size():
    assert supported_levels(4) == ("easy",)
    assert supported_levels(9) == LEVELS
    assert supported_levels(Shape(3, 3)) == LEVELS
    for size in (4, 6, 8, 9, 12, 16, 25):
        levels = supported_levels(size)
        assert levels[0] == "easy"
        assert list(levels) == sorted(levels, key=LEVELS.index)


def test_unsupported_level_is_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="4x4 puzzles reach only easy"):
        generate(4, level="hard")
    with pytest.raises(ValueError, match="unknown level"):
        generate(9, level="fiendish")


def test_unknown_symmetry_is_refused():
    with pytest.raises(ValueError, match="unknown symmetry 'spiral'"):
        generate(9, symmetry="spiral")


def test_minimal_is_refused_for_big_grids():
    with pytest.raises(ValueError, match="minimal puzzles are offered up to 12x12"):
        generate(16, minimal=True)


@pytest.mark.parametrize("symmetry", [s for s in SYMMETRIES if s != "none"])
@pytest.mark.parametrize("size", [4, 16])
def test_4x4_and_16x16_puzzles_keep_the_asked_symmetry_level_and_seed(symmetry, size):
    made = generate(size, level="easy", symmetry=symmetry, seed=5)
    _check_puzzle(made, size)
    cells = made.puzzle.cells
    for cell in range(size * size):
        assert bool(cells[cell]) == bool(cells[_mirror_cell(size, cell, symmetry)])
    assert made.symmetry == symmetry
    assert grade(made.puzzle).level == "easy"
    again = generate(size, level="easy", symmetry=symmetry, seed=5)
    assert (again.puzzle, again.solution) == (made.puzzle, made.solution)
