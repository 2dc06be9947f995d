"""Fixtures for the lessons: practice puzzles stored in the bank, packs that queue nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from puzzles import bank
from puzzles.models import Puzzle, Source
from solver.generation.classic import generate


@pytest.fixture
def practice_puzzle(db: None) -> Callable[..., Puzzle]:
    """Store a puzzle whose logic solution needs ``technique`` (seeded, so repeatable)."""

    def make(technique: str = "x_wing", size: int = 9, seed: str = "fixture") -> Puzzle:
        made = generate(size, require=technique, seed=seed)
        puzzle, _ = bank.puzzle_get_or_create_from_grid(
            grid=made.puzzle, source=Source.GENERATED, solution=made.solution
        )
        return puzzle

    return make
