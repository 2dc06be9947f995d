"""Variant puzzles stored for the tests: one of each variant and size, made from seeds."""

from __future__ import annotations

import pytest

from puzzles.models import Source
from puzzles.variant_bank import variant_puzzle_store
from puzzles.variants import variant_puzzle_make
from solver import Shape


def variant_puzzle(variant: str, size: int = 9, level: str = "easy", seed: str = "t"):
    grid, solution, rules, _ = variant_puzzle_make(
        variant=variant, shape=Shape.for_size(size), level=level, seed=f"{seed}:{variant}:{size}"
    )
    puzzle, _ = variant_puzzle_store(
        grid=grid,
        rules=rules,
        solution=solution,
        source=Source.GENERATED,
    )
    return puzzle


@pytest.fixture
def make_variant(db: None):
    return variant_puzzle
