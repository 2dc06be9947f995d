from __future__ import annotations

import pytest

from tests.play.factories import FOUR, puzzle_create


@pytest.fixture
def puzzle4(db: None):
    return puzzle_create(FOUR, difficulty="easy")
