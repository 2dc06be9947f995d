from __future__ import annotations

import pytest

from tests.e2e.asgi import one_connection_a_request  # noqa: F401 - a fixture
from tests.play.factories import FOUR, puzzle_create


@pytest.fixture
def puzzle4(db: None):
    return puzzle_create(FOUR, difficulty="easy")


@pytest.fixture(autouse=True)
def _short_connections(one_connection_a_request: None) -> None:  # noqa: F811
    """The socket tests' consumers run Django's sync code in threads of their own: their
    connections close after each call (see tests/e2e/asgi.py)."""
