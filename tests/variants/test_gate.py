"""Variant games pass the same gate as classic ones: reviewed on time per placement and on
blind placements judged by the variant's own logic, so a script never reaches a variant's
board and a copied solution is held."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine

from integrity.models import GameReview, Verdict
from integrity.signals import BLIND_MIN
from play.models import Game
from tests.integrity.players import START
from tests.play.factories import empty_cells, logical_order, value_at
from tests.play.helpers import move, start

pytestmark = pytest.mark.django_db

BOARDS = "/api/v1/leaderboards/"


@pytest.fixture
def client(user):
    from rest_framework.test import APIClient

    c = APIClient()
    c.force_authenticate(user)
    return c


def _play(client, puzzle, gaps_ms, cells=None) -> tuple[int, dict]:
    """Fill every empty cell (in reading order unless ``cells`` says), the server's clock
    moved by each gap."""
    with time_machine.travel(START, tick=False) as clock:
        game_id = start(client, puzzle)["id"]
        last: dict = {}
        for cell, gap in zip(cells or empty_cells(puzzle), gaps_ms, strict=False):
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


@pytest.mark.parametrize(("variant", "level"), [("killer", "easy"), ("jigsaw", "medium")])
def test_a_variant_game_at_a_persons_pace_is_reviewed_and_on_its_board(
    client, make_variant, user, variant, level
):
    puzzle = make_variant(variant, size=9, level=level)
    rng = random.Random(3)
    gaps = [rng.randint(4000, 12000) if i % 4 == 0 else rng.randint(1500, 4000) for i in range(81)]
    game_id, last = _play(client, puzzle, gaps, logical_order(puzzle))
    assert last["completed"] is True
    review = GameReview.objects.get(game_id=game_id)
    assert review.verdict == Verdict.PLAUSIBLE, review.reasons
    assert review.signals["blind_quick"] == 0  # every placement was the variant logic's
    assert len(review.trace["gaps"]) == puzzle.givens.count(".")
    assert _board(client, puzzle) == [user.username]


@pytest.mark.parametrize(("variant", "level"), [("killer", "hard"), ("jigsaw", "hard")])
def test_a_copied_variant_solution_at_a_persons_pace_is_flagged_as_blind(
    client, make_variant, user, variant, level
):
    puzzle = make_variant(variant, size=9, level=level)
    cells = list(empty_cells(puzzle))
    random.Random(1).shuffle(cells)  # copied from a solution, in no logical order
    game_id, last = _play(client, puzzle, [1800] * len(cells), cells)
    assert last["completed"] is True
    review = GameReview.objects.get(game_id=game_id)
    assert review.verdict == Verdict.FLAGGED
    assert review.signals["blind_quick"] >= BLIND_MIN
    assert review.signals["ms_per_placement"] > review.signals["level_floor_ms"]
    assert any("no technique could yet place" in reason for reason in review.reasons)
    assert _board(client, puzzle) == []
