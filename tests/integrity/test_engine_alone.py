"""Evidence that stands alone: the engine's next cell at nearly every choice holds a player.

Path covered, through the API: the issue's bot (the engine's next cell on every choice,
pauses a person's, grown with the step's difficulty: no second signal) is held at its
first judgement; a simulated person's games with the same pauses in their own order are
not (tests/integrity/test_players.py has more people).
"""

from __future__ import annotations

import random

import pytest

from accounts.factories import UserFactory
from bench import players as sim
from integrity.models import PlayerReview
from integrity.player_signals import ENGINE_ALONE, MIN_GAMES
from tests.integrity.test_players import hard_puzzle, play_events
from tests.integrity.test_review import client_for

pytestmark = pytest.mark.django_db


def _play(client, style, rng, games: int) -> None:
    for i in range(games):
        puzzle = hard_puzzle(i)
        digits = puzzle.givens.replace(".", "0")
        p = next(q for q in sim.pool() if "".join(map(str, q.givens)) == digits)
        events, _ = sim.play(style, p, rng)
        play_events(client, puzzle, events, hour=i)


def test_the_engines_next_cell_with_a_persons_pauses_is_held_on_that_alone():
    user = UserFactory()
    _play(client_for(user), sim.Style("live", 2000, 0.7, 0.5), random.Random(5), MIN_GAMES)
    review = PlayerReview.objects.get(user=user, held=True)
    assert review.signals["engine_share"] >= ENGINE_ALONE
    assert review.signals["pause_cv"] > 0.5 and review.signals["difficulty_corr"] > 0.3
    assert [r for r in review.reasons if "on its own" in r] == review.reasons


def test_the_same_pauses_in_a_persons_order_are_not_held():
    user = UserFactory()
    _play(client_for(user), sim.Style("random", 2000, 0.7, 0.5), random.Random(5), MIN_GAMES)
    assert not PlayerReview.objects.filter(user=user).exists()
