"""Fixtures for game tests: stored real puzzles (helpers are in helpers.py)."""

from __future__ import annotations

import pytest

from tests.play.factories import FOUR, NINE, puzzle_create


@pytest.fixture
def puzzle4(db: None):
    return puzzle_create(FOUR, difficulty="easy")


@pytest.fixture
def puzzle9(db: None):
    return puzzle_create(NINE, difficulty="easy")
