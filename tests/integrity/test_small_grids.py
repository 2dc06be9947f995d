"""Every size is judged: short games are pooled into the evidence across games.

Path covered, through the API: the issue's bot, easy 4x4 games at a steady 0.8 s a move
(each passes the per-game review), is held by the evidence across its games, and what its
games had moved of ratings is taken back; a simulated person's 4x4 games are not held.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine

from accounts.factories import UserFactory
from integrity.models import GameReview, PlayerReview
from ratings.models import RatingChange
from solver import format_line
from solver.generation.classic import generate
from tests.integrity.players import START
from tests.integrity.test_review import client_for
from tests.play.factories import empty_cells, puzzle_create, value_at
from tests.play.helpers import move, start

pytestmark = pytest.mark.django_db

GAMES = 14


def _fours():
    return [
        puzzle_create(format_line(generate(4, seed=i, level="easy").puzzle)) for i in range(GAMES)
    ]


def _play(client, puzzle, *, hour: int, gaps) -> int:
    with time_machine.travel(START + timedelta(hours=hour), tick=False) as clock:
        game_id = start(client, puzzle)["id"]
        for cell in empty_cells(puzzle):
            clock.shift(timedelta(milliseconds=next(gaps)))
            assert move(client, game_id, cell, value_at(puzzle, cell)).status_code == 200
    return game_id


def test_a_4x4_bot_at_a_steady_0_8_s_is_held_by_its_pooled_games():
    user = UserFactory()
    client = client_for(user)
    steady = iter(lambda: 800, None)
    games = []
    for i, puzzle in enumerate(_fours()):
        games.append(_play(client, puzzle, hour=i, gaps=steady))
        if PlayerReview.objects.filter(user=user, held=True).exists():
            break
    assert not GameReview.objects.filter(game_id__in=games, flagged=True).exists()
    review = PlayerReview.objects.get(user=user, held=True)
    assert any("steady pauses" in reason for reason in review.reasons)
    assert len(games) <= 12, len(games)
    assert not RatingChange.objects.filter(user=user, reversed=False).exists()


def test_a_persons_4x4_games_are_not_held():
    user = UserFactory()
    client = client_for(user)
    rng = random.Random(4)
    person = iter(lambda: round(rng.lognormvariate(8.0, 0.6)), None)  # about 3 s a cell
    games = [_play(client, p, hour=i, gaps=person) for i, p in enumerate(_fours())]
    assert not PlayerReview.objects.filter(user=user).exists()
    assert RatingChange.objects.filter(game_id__in=games, reversed=False).count() == len(games)
