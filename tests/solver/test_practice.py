"""Practice puzzles: generate(require=slug) makes a puzzle whose logic solution needs slug."""

from __future__ import annotations

import random

import pytest

from solver.generation import practice_dig
from solver.generation.classic import GenerationFailed, generate, is_symmetric
from solver.generation.practice import UnknownTechnique, generate_requiring, practice_sizes
from solver.grid import Shape, tables
from solver.logic.classic import logic_solve
from solver.logic.techniques import LEVELS, ORDER
from solver.rules.checks import is_solution
from solver.search.exact import count_solutions

NINE = Shape.for_size(9)

CASES = [(size, t.slug) for t in ORDER for size in practice_sizes(t.slug)]


@pytest.mark.parametrize(("size", "slug"), CASES)
def test_required_technique_is_used_and_nothing_harder(size: int, slug: str) -> None:
    made = generate(size, require=slug, seed="sample")
    level = next(t.level for t in ORDER if t.slug == slug)
    assert count_solutions(made.puzzle, limit=2) == 1
    assert is_solution(made.puzzle, made.solution)
    solved = logic_solve(made.puzzle)
    assert solved.solved
    assert slug in {s.technique for s in solved.steps}
    assert made.grade.level == level
    hardest = max(LEVELS.index(t.level) for t in ORDER if t.slug in made.grade.techniques)
    assert hardest <= LEVELS.index(level)


def test_required_puzzle_is_reproducible_from_seed() -> None:
    first = generate(9, require="x_wing", seed=7)
    again = generate(9, require="x_wing", seed=7)
    other = generate(9, require="x_wing", seed=8)
    assert first.puzzle == again.puzzle
    assert first.puzzle != other.puzzle


def test_required_puzzle_keeps_the_asked_symmetry() -> None:
    made = generate(9, require="x_wing", symmetry="rotational", seed=0)
    assert made.attempts > practice_dig.DIG_FIRST  # found by a walk, which moves orbits
    assert is_symmetric(made.puzzle, "rotational")
    assert "x_wing" in made.grade.techniques


def test_unknown_technique_is_rejected_by_name() -> None:
    with pytest.raises(ValueError, match="no_such_wing"):
        generate(9, require="no_such_wing")
    with pytest.raises(UnknownTechnique, match="no_such_wing"):
        generate_requiring(9, "no_such_wing")


def test_technique_not_offered_on_size_is_rejected() -> None:
    with pytest.raises(ValueError, match="X-Wing is not offered on 6x6"):
        generate_requiring(6, "x_wing")


def test_level_that_contradicts_the_technique_is_rejected() -> None:
    with pytest.raises(ValueError, match="medium technique, not easy"):
        generate(9, require="x_wing", level="easy")


def test_attempts_run_out_with_a_clear_error() -> None:
    with pytest.raises(GenerationFailed, match="needing Unique Rectangle Type 5 in 1 attempts"):
        practice_dig.dig_requiring(NINE, "unique_rectangle_5", "none", 1, 1)


@pytest.mark.slow
@pytest.mark.parametrize("slug", ["naked_quad", "sue_de_coq"])
def test_a_technique_grown_from_seeds_is_also_dug_from_scratch(slug: str) -> None:
    made = practice_dig.dig_requiring(NINE, slug, "none", "sample", 1500)
    assert count_solutions(made.puzzle, limit=2) == 1
    assert slug in made.grade.techniques


def test_the_walk_keeps_the_cells_a_pattern_needs_open() -> None:
    made = practice_dig.dig_requiring(NINE, "naked_quad", "none", "open", 1500)
    units = [set(u) for u in tables(made.puzzle.shape).units]
    assert any(all(not made.puzzle.cells[c] for c in u) for u in units)


def test_single_value_patterns_are_made_with_cells_of_one_value_kept_open() -> None:
    shape = Shape.for_size(9)
    solution = generate(9, seed=0).solution.cells
    for slug in ("jellyfish", "empty_rectangle", "simple_colouring", "x_cycle"):
        kept = practice_dig._kept_open(shape, slug, solution, random.Random(0))
        assert len(kept) == 9
        assert len({solution[c] for c in kept}) == 1
    made = generate(9, require="empty_rectangle", seed="open")
    by_value = [[c for c in range(81) if made.solution.cells[c] == v] for v in range(1, 10)]
    assert any(all(not made.puzzle.cells[c] for c in cells) for cells in by_value)


def test_a_naked_pair_on_six_by_six_is_made_with_a_box_kept_open() -> None:
    shape = Shape.for_size(6)
    boxes = [set(u) for u in tables(shape).units[2 * shape.size :]]
    solution = generate(6, seed=0).solution.cells
    kept = practice_dig._kept_open(shape, "naked_pair", solution, random.Random(0))
    assert set(kept) in boxes
    assert not practice_dig._kept_open(Shape.for_size(9), "naked_pair", solution, random.Random(0))
    for seed in range(3):
        made = generate(6, require="naked_pair", seed=seed)
        assert any(all(not made.puzzle.cells[c] for c in box) for box in boxes)


def test_every_technique_is_offered_on_nine_by_nine() -> None:
    assert all(9 in practice_sizes(t.slug) for t in ORDER)


@pytest.mark.parametrize("slug", ["x_wing", "swordfish", "jellyfish"])
def test_a_stop_that_answers_yes_ends_the_search_after_one_attempt(slug: str) -> None:
    from solver.generation.practice import make_requiring

    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return True

    try:
        made = make_requiring(NINE, slug, "none", "stop-early", 500, stop)
    except GenerationFailed:
        made = None
    assert asked  # it was asked
    if made is not None:  # the first attempt may find one before it asks
        assert made.attempts == 1
    assert len(asked) <= 2


def test_a_stop_that_never_answers_yes_changes_nothing() -> None:
    from solver.generation.practice import make_requiring

    plain = make_requiring(NINE, "x_wing", "none", 11, 200)
    asked = make_requiring(NINE, "x_wing", "none", 11, 200, lambda: False)
    assert asked.puzzle == plain.puzzle
