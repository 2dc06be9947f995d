"""Variant games pass the same gate as classic ones: reviewed on time per placement (the
classic-logic blind signal aside), so a script never reaches a variant's board."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine

from integrity.models import GameReview, Verdict
from play.models import Game
from tests.integrity.players import START
from tests.play.factories import empty_cells, value_at
from tests.play.helpers import move, start

pytestmark = pytest.mark.django_db

BOARDS = "/api/v1/leaderboards/"


@pytest.fixture
def client(user):
    from rest_framework.test import APIClient

    c = APIClient()
    c.force_authenticate(user)
    return c


def _play(client, puzzle, gaps_ms) -> tuple[int, dict]:
    """Fill every empty cell in reading order, the server's clock moved by each gap."""
    with time_machine.travel(START, tick=False) as clock:
        game_id = start(client, puzzle)["id"]
        last: dict = {}
        for cell, gap in zip(empty_cells(puzzle), gaps_ms, strict=False):
            clock.shift(timedelta(milliseconds=gap))
            last = move(client, game_id, cell, value_at(puzzle, cell)).json()
    return game_id, last


def _board(client, puzzle) -> list[str]:
    query = {"variant": puzzle.variant, "size": puzzle.size, "difficulty": puzzle.difficulty}
    answer = client.get(BOARDS, query)
    assert answer.status_code == 200
    return [row["username"] for row in answer.json()["results"]]


@pytest.mark.parametrize(("variant", "size"), [("killer", 9), ("diagonal", 6), ("jigsaw", 9)])
def test_a_variant_game_placed_by_script_at_machine_speed_is_kept_off_its_board(
    client, make_variant, user, variant, size
):
    puzzle = make_variant(variant, size=size)
    game_id, last = _play(client, puzzle, [50] * puzzle.size**2)
    assert last["completed"] is True
    review = GameReview.objects.get(game_id=game_id)
    assert review.verdict == Verdict.FLAGGED
    game = Game.objects.get(pk=game_id)
    assert (game.counts, game.standing) == (False, "flagged")
    assert _board(client, puzzle) == []


def test_a_variant_game_at_a_persons_pace_is_reviewed_and_on_its_board(client, make_variant, user):
    puzzle = make_variant("killer", size=9)
    rng = random.Random(3)
    gaps = [rng.randint(4000, 12000) if i % 4 == 0 else rng.randint(1500, 4000) for i in range(81)]
    game_id, last = _play(client, puzzle, gaps)
    assert last["completed"] is True
    review = GameReview.objects.get(game_id=game_id)
    assert review.verdict == Verdict.PLAUSIBLE, review.reasons
    assert review.signals["blind_quick"] == 0  # classic logic does not judge a variant
    assert _board(client, puzzle) == [user.username]
