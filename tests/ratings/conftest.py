"""Fixtures for rating tests: real puzzles and players."""

from __future__ import annotations

import pytest

from tests.play.factories import FOUR, FOUR_B, puzzle_create


@pytest.fixture
def puzzle4(db: None):
    return puzzle_create(FOUR, difficulty="easy")


@pytest.fixture
def puzzle4b(db: None):
    return puzzle_create(FOUR_B, difficulty="easy")
