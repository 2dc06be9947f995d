"""A held player's game ending while staff clear them: rated once, whichever goes first."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from accounts.factories import UserFactory
from integrity.decisions import player_review_decide
from integrity.models import PlayerReview
from integrity.player_signals import MIN_GAMES
from integrity.players import player_held
from ratings.models import RatingChange
from tests.integrity.players import START, logical_order
from tests.integrity.test_players import hard_puzzle, play_engine_order
from tests.integrity.test_review import client_for
from tests.play.helpers import move, start
from tests.together import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_game_ending_while_staff_clear_the_player_is_rated_once(user):
    client = client_for(user)
    for i in range(MIN_GAMES):
        play_engine_order(client, hard_puzzle(i), hour=i)
    review = PlayerReview.objects.get(user=user, held=True)
    staff = UserFactory(is_staff=True)
    puzzle = hard_puzzle(MIN_GAMES)
    order = logical_order(puzzle.givens)
    with time_machine.travel(START + timedelta(hours=MIN_GAMES), tick=False) as clock:
        game_id = start(client, puzzle)["id"]
        for cell in order[:-1]:
            clock.shift(timedelta(seconds=3))
            move(client, game_id, cell, int(puzzle.solution[cell]))
        clock.shift(timedelta(seconds=3))
        last = order[-1]

        def work(i: int):
            if i == 0:
                return move(client, game_id, last, int(puzzle.solution[last])).json()
            return player_review_decide(review_id=review.pk, staff=staff, cleared=True)

        finished, _ = run_together(2, work)
    assert finished["completed"] is True
    assert not player_held(user_id=user.pk)
    assert RatingChange.objects.filter(game_id=game_id).count() == 1
