"""Variant generation: one solution by both engines, the asked level, sound logic steps."""

from __future__ import annotations

import random

import pytest

from solver.generation.classic_dig import is_symmetric
from solver.generation.general import (
    GENERATED_LEVELS,
    draw_cages,
    generate_variant,
    random_regions,
    supported_variant_levels,
)
from solver.generation.general_dig import solutions_past_the_logic
from solver.grid import Grid, Shape
from solver.logic.general import variant_logic_solve
from solver.logic.variant_grade import variant_grade
from solver.rules.checks import is_variant_solution
from solver.rules.ruleset import Rules, layout
from solver.search.dlx import dlx_count
from solver.search.exact import count_solutions, random_solution

VARIANTS = ("diagonal", "jigsaw", "killer")


def check(made) -> None:
    """Exactly one solution by both engines, the stored one, and givens that agree."""
    rules, puzzle, solution = made.rules, made.puzzle, made.solution
    assert count_solutions(puzzle, limit=2, rules=rules) == 1
    assert dlx_count(puzzle, limit=2, rules=rules) == 1
    assert is_variant_solution(rules, puzzle, solution)


def check_steps_sound(made) -> None:
    """Every placement is the solution's value; no elimination removes it."""
    result = variant_logic_solve(made.rules, made.puzzle)
    sol = made.solution.cells
    for step in result.steps:
        assert all(sol[c] == v for c, v in step.placements), step.sentence
        assert all(sol[c] != v for c, v in step.eliminations), step.sentence
        assert step.sentence
    if result.solved:
        assert result.grid == made.solution


SLOW = {("killer", 9, "master")}  # 0.4-9.5 s of CPU a puzzle
CASES = [
    pytest.param(
        variant, size, level, marks=[pytest.mark.slow] if (variant, size, level) in SLOW else []
    )
    for variant in VARIANTS
    for size in (6, 9)
    for level in supported_variant_levels(variant, size)
]


@pytest.mark.parametrize(("variant", "size", "level"), CASES)
def test_a_generated_variant_regrades_at_the_asked_level(variant, size, level):
    for seed in (3, 4):
        made = generate_variant(variant, size, level=level, seed=seed)
        check(made)
        assert made.level == level
        assert variant_grade(made.rules, made.puzzle).level == level  # the bank's grade
        assert made.rules.variant == variant
        check_steps_sound(made)
        if level == "expert":  # expert: the techniques finish it, every hint explains
            assert variant_logic_solve(made.rules, made.puzzle).solved


@pytest.mark.parametrize("level", ["medium", "hard", "master"])
def test_killers_from_medium_up_have_no_one_cell_cage_and_from_hard_up_no_givens(level):
    made = generate_variant("killer", 9, level=level, seed=1)
    assert all(len(cage.cells) > 1 for cage in made.rules.cages)
    sizes = [len(cage.cells) for cage in made.rules.cages]
    assert sum(2 <= n <= 4 for n in sizes) >= 2 * len(sizes) / 3  # mostly 2 to 4 cells
    if level != "medium":
        assert made.puzzle.clues == 0
        if level == "master":  # from the empty grid: up to 20 s
            assert solutions_past_the_logic(made.rules, made.puzzle) == [made.solution]
        else:
            assert count_solutions(Grid.empty(made.rules.shape), limit=2, rules=made.rules) == 1


def test_an_easy_killer_has_few_one_cell_cages():
    for seed in range(3):
        made = generate_variant("killer", 9, level="easy", seed=seed)
        assert sum(len(cage.cells) == 1 for cage in made.rules.cages) <= 2


@pytest.mark.parametrize("variant", ["diagonal", "jigsaw"])
def test_diagonal_and_jigsaw_givens_follow_the_asked_symmetry(variant):
    made = generate_variant(variant, 9, level="medium", seed=2)
    assert made.symmetry == "rotational" and is_symmetric(made.puzzle, "rotational")
    mirror = generate_variant(variant, 9, level="medium", seed=2, symmetry="mirror")
    assert is_symmetric(mirror.puzzle, "mirror")
    with pytest.raises(ValueError, match="unknown symmetry"):
        generate_variant(variant, 9, symmetry="spiral")


def test_generation_is_a_function_of_its_arguments():
    assert generate_variant("jigsaw", 9, seed="x") == generate_variant("jigsaw", 9, seed="x")
    assert generate_variant("killer", 9, seed="x") != generate_variant("killer", 9, seed="y")


def test_random_regions_are_connected_n_cell_regions_unlike_the_boxes():
    rng = random.Random(4)
    for size in (6, 9):
        shape = Shape.for_size(size)
        regions = random_regions(shape, rng)
        rules = Rules.make(shape, regions=regions)  # checks size and connection
        assert rules.irregular


def test_a_jigsaw_whose_swaps_give_back_the_boxes_is_drawn_again():
    # seed 89's second attempt draws the boxes (1 draw in several thousand at 6x6)
    made = generate_variant("jigsaw", 6, level="easy", seed=89)
    assert made.rules.irregular and made.rules.variant == "jigsaw"


def test_drawn_cages_are_connected_small_and_repeat_no_value():
    rng = random.Random(5)
    shape = Shape.for_size(9)
    solution = random_solution(shape, rng)
    cages = draw_cages(solution, rng, (2, 3, 4, 5))
    assert sorted(c for cage in cages for c in cage.cells) == list(range(81))
    rules = Rules.make(shape, cages=cages)
    assert is_variant_solution(rules, solution.with_cells([0] * 81), solution)
    for cage in cages:
        assert 1 <= len(cage.cells) <= 5
        values = [solution.cells[c] for c in cage.cells]
        assert len(set(values)) == len(values)
        assert cage.total == sum(values)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="unknown variant"):
        generate_variant("samurai")
    with pytest.raises(ValueError, match="not 16"):
        generate_variant("killer", 16)
    with pytest.raises(ValueError, match="unknown level"):
        generate_variant("killer", level="legendary")
    with pytest.raises(ValueError, match="reach only easy, medium, hard"):
        generate_variant("killer", 6, level="expert")
    assert set(GENERATED_LEVELS) == set(supported_variant_levels("jigsaw", 9))


def test_steps_name_diagonals_and_cages_in_their_sentences():
    made = generate_variant("killer", 9, level="medium", seed=2)
    result = variant_logic_solve(made.rules, made.puzzle)
    assert any("cage of" in s.sentence or "The cage" in s.sentence for s in result.steps)
    diag = generate_variant("diagonal", 9, level="medium", seed=2)
    lay = layout(diag.rules)
    assert lay.names[27] == "diagonal 1"


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("size", [6, 9])
def test_hundreds_of_generated_variants_are_unique_by_both_engines_and_sound(variant, size):
    for i in range(100):
        made = generate_variant(variant, size, seed=f"many:{i}")
        check(made)
        check_steps_sound(made)


def test_the_logic_reasons_on_diagonals_and_irregular_regions():
    def units_used(variant: str) -> set[int]:
        used: set[int] = set()
        for i in range(6):
            made = generate_variant(variant, 9, level="medium", seed=f"houses:{i}")
            for step in variant_logic_solve(made.rules, made.puzzle).steps:
                if step.technique in ("pointing", "claiming", "hidden_single"):
                    used.update(step.units)
        return used

    assert {27, 28} & units_used("diagonal")  # diagonal 1 and 2 are units 3N and 3N+1
    assert any(18 <= u < 27 for u in units_used("jigsaw"))
