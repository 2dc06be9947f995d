"""Fixtures for the puzzle bank: staff and player clients, stored puzzles, packs that
queue nothing (their chunks are run in the test)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from puzzles import bank, packs
from puzzles.models import Puzzle, Source
from solver.generation.classic import generate


@pytest.fixture
def staff(db: None):
    return UserFactory(username="staffer", is_staff=True, is_superuser=True)


@pytest.fixture
def staff_client(staff) -> APIClient:
    client = APIClient()
    client.force_authenticate(staff)
    return client


@pytest.fixture
def make_puzzle(db: None) -> Callable[..., Puzzle]:
    """Store a generated puzzle of ``size`` and ``level`` (seeded, so repeatable)."""

    def make(size: int = 9, level: str = "easy", seed: str = "fixture") -> Puzzle:
        for extra in range(50):
            made = generate(size, level=level, seed=f"{seed}:{extra}")
            puzzle, created = bank.puzzle_get_or_create_from_grid(
                grid=made.puzzle, source=Source.GENERATED
            )
            if created:
                return puzzle
        raise AssertionError("no new puzzle in 50 seeds")

    return make


@pytest.fixture
def run_pack(no_enqueue) -> Callable[..., object]:
    """Create a pack and run every chunk in this process, as workers would."""

    def run(**kwargs):
        kwargs.setdefault("size", 9)
        kwargs.setdefault("difficulty", "easy")
        kwargs.setdefault("count", 6)
        kwargs.setdefault(
            "name", f"pack-{kwargs['size']}-{kwargs['difficulty']}-{kwargs.get('seed', '')}"
        )
        pack = packs.pack_create(**kwargs)
        return packs.pack_run_sync(pack=pack)

    return run


@pytest.fixture
def only_easy_4x4(monkeypatch) -> None:
    """A fixed table of levels per size (4x4: easy; 6x6: easy, medium; others: all), so
    the request checks are tested apart from what the generator offers today."""
    from solver.logic.grade import LEVELS

    table = {4: ("easy",), 6: ("easy", "medium")}

    def levels(shape):
        return table.get(getattr(shape, "size", shape), LEVELS)

    monkeypatch.setattr(bank, "supported_levels", levels)
    monkeypatch.setattr(packs, "supported_levels", levels)
