"""A variant puzzle's starting rating: its level's target, nudged by its hardest technique."""

from __future__ import annotations

import itertools

import pytest

from ratings.prior import LEVELS, TARGETS, VARIANT_NUDGE, variant_prior_rating
from solver.logic.general import ORDER


def test_a_variant_puzzle_starts_within_a_nudge_of_its_levels_target():
    for technique in ORDER:
        start = variant_prior_rating(level=technique.level, hardest=technique.slug)
        assert abs(start - TARGETS[technique.level]) <= VARIANT_NUDGE


def test_a_harder_technique_never_starts_lower():
    starts = [variant_prior_rating(level=t.level, hardest=t.slug) for t in ORDER]
    assert starts == sorted(starts)
    assert starts[0] == TARGETS["easy"] - VARIANT_NUDGE
    assert starts[-1] == TARGETS[ORDER[-1].level] + VARIANT_NUDGE


def test_the_levels_bands_do_not_overlap():
    for lower, upper in itertools.pairwise(LEVELS):
        assert TARGETS[lower] + VARIANT_NUDGE < TARGETS[upper] - VARIANT_NUDGE


@pytest.mark.parametrize(
    ("level", "hardest"),
    [
        ("expert", "x_wing"),  # a Diagonal or Jigsaw beyond the variant logic
        ("expert", "cage_combination"),  # a Killer with no givens
        ("hard", ""),  # stored without its hardest technique
        ("medium", "no_such_technique"),
    ],
)
def test_a_hardest_technique_of_another_level_leaves_the_target(level, hardest):
    assert variant_prior_rating(level=level, hardest=hardest) == TARGETS[level]
