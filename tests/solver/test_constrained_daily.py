"""The daily puzzle with constraints' maker: every generated kind lands at its daily level,
unique, and the level is the grader's own measure of the puzzle."""

from __future__ import annotations

import pytest

from solver import Shape, count_solutions, is_variant_solution
from solver.generation.constrained import GENERATED
from solver.generation.constrained_daily import DAILY_LEVELS, generate_daily_constrained
from solver.logic.variant_grade import variant_grade

NINE = Shape.for_size(9)


def test_every_generated_kind_has_a_daily_level_below_master():
    assert set(DAILY_LEVELS) == set(GENERATED)
    assert all(entry.level != "master" for entry in DAILY_LEVELS.values())


@pytest.mark.parametrize("kind", GENERATED)
def test_each_kind_is_made_unique_at_its_daily_level_as_the_grader_measures_it(kind):
    made = generate_daily_constrained(kind, NINE, 740_000)
    assert made is not None
    assert made.level == DAILY_LEVELS[kind].level
    assert {c.kind for c in made.made.rules.constraints} >= {kind}
    assert count_solutions(made.made.puzzle, limit=2, rules=made.made.rules) == 1
    assert is_variant_solution(made.made.rules, made.made.puzzle, made.made.solution)
    assert variant_grade(made.made.rules, made.made.puzzle).level == made.level


def test_the_same_seed_makes_the_same_puzzle():
    one = generate_daily_constrained("arrow", NINE, 12)
    two = generate_daily_constrained("arrow", NINE, 12)
    assert one is not None and two is not None
    assert one.made == two.made


def test_a_stop_before_the_level_is_reached_gives_the_nearest_level_found_or_none():
    calls = []

    def stop() -> bool:
        calls.append(1)
        return True

    made = generate_daily_constrained("antiking", NINE, 740_000, stop=stop)
    assert len(calls) == 1  # asked once, after the first attempt
    assert made is None or made.level != "master"
