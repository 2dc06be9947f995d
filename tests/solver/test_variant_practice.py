"""Killer practice puzzles: made from a seed, they need the technique asked for."""

from __future__ import annotations

import pytest

from solver.generation.general_practice import (
    generate_variant_requiring,
    technique_variant,
    variant_practice_levels,
    variant_techniques,
)
from solver.logic.general import variant_logic_solve
from solver.search.exact import count_solutions


@pytest.mark.parametrize("slug", ["cage_combination", "innies_outies", "cage_house"])
def test_a_killer_puzzle_made_for_a_technique_needs_it_and_has_one_solution(slug: str) -> None:
    made = generate_variant_requiring("killer", 9, slug, seed="test")
    assert made.rules.cages
    assert slug in variant_logic_solve(made.rules, made.puzzle).techniques
    assert count_solutions(made.puzzle, limit=2, rules=made.rules) == 1
    again = generate_variant_requiring("killer", 9, slug, seed="test")
    assert again.puzzle == made.puzzle and again.rules == made.rules  # same seed, same puzzle


def test_classic_techniques_are_not_variant_ones() -> None:
    slugs = [t.slug for t in variant_techniques()]
    assert "naked_single" not in slugs and "x_wing" not in slugs
    assert technique_variant("x_wing") is None
    assert technique_variant("no_such_technique") is None


def test_a_technique_is_asked_at_its_level_first_and_never_without_givens() -> None:
    assert variant_practice_levels("killer", 9, "cage_combination")[0] == "easy"
    assert variant_practice_levels("killer", 9, "cage_house") == ("medium", "hard")


def test_a_technique_on_the_wrong_variant_or_size_is_refused() -> None:
    with pytest.raises(ValueError):
        generate_variant_requiring("diagonal", 9, "cage_combination")
    with pytest.raises(ValueError):
        generate_variant_requiring("killer", 6, "cage_combination")
    with pytest.raises(ValueError):
        generate_variant_requiring("killer", 9, "x_wing")
