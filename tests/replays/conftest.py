"""Fixtures for replay tests: a player, and their games of stored puzzles."""

from __future__ import annotations

import pytest

from accounts.factories import UserFactory
from play.lifecycle import Player, game_start
from tests.play.factories import NINE, puzzle_create
from tests.replays.factories import ANALYSED


@pytest.fixture
def player(db: None) -> Player:
    return Player(user=UserFactory())


@pytest.fixture
def game9(player: Player):
    puzzle = puzzle_create(NINE)
    game, _ = game_start(player=player, puzzle_id=puzzle.pk)
    return game


@pytest.fixture
def analysed_puzzle(db: None):
    return puzzle_create(ANALYSED, difficulty="expert")


@pytest.fixture
def puzzle9(db: None):
    return puzzle_create(NINE, difficulty="easy")
