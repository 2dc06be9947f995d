"""Fixtures for rating tests: real puzzles and players."""

from __future__ import annotations

import math

import pytest

from ratings.prior import FITTED
from tests.play.factories import FOUR, FOUR_B, puzzle_create


def _graded(givens: str):
    """The puzzle as the bank's typical easy 4x4: the median score of the prior's fit, so
    its rating starts at the level's target (the test grids are unusually easy)."""
    return puzzle_create(givens, difficulty="easy", score=round(math.exp(FITTED[4]["easy"][0])))


@pytest.fixture
def puzzle4(db: None):
    return _graded(FOUR)


@pytest.fixture
def puzzle4b(db: None):
    return _graded(FOUR_B)
