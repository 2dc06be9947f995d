"""Provisional players: a new account's games wait for the evidence across games.

Paths covered, through the API: a new account's first games (a simulated person's) count
for nothing and say ``provisional`` until the evidence has judged ``PROVISIONAL_GAMES``
of them, then count together, rated oldest first; the issue's throwaway account (the
engine's order at a steady 1.2 s) never reaches a board or a rating change.
"""

from __future__ import annotations

import itertools
import random

import pytest

from accounts.factories import UserFactory
from bench import players as sim
from integrity.models import PlayerReview, PlayerStanding
from integrity.players import PROVISIONAL_GAMES
from ratings.models import PlayerRating, RatingChange
from tests.integrity.test_players import (
    board_names,
    hard_puzzle,
    play_engine_order,
    play_events,
)
from tests.integrity.test_review import client_for

pytestmark = pytest.mark.django_db


def _person_games(client, games: range, rng: random.Random, style) -> list[tuple[int, object]]:
    """A simulated person's games (bench.players) of the hard puzzles ``games``."""
    out = []
    for i in games:
        puzzle = hard_puzzle(i)
        digits = puzzle.givens.replace(".", "0")
        p = next(q for q in sim.pool() if "".join(map(str, q.givens)) == digits)
        events, _ = sim.play(style, p, rng)
        out.append((play_events(client, puzzle, events, hour=i), puzzle))
    return out


def test_a_new_players_games_wait_then_count_together_oldest_first():
    rng = random.Random("provisional")
    style = sim.Style("random", 4000, 0.7, 0.6, floor_ms=500)
    user = UserFactory(established=False)
    client = client_for(user)
    games = _person_games(client, range(PROVISIONAL_GAMES - 1), rng, style)
    for game_id, puzzle in games:
        body = client.get(f"/api/v1/games/{game_id}/").json()
        assert body["counts"] is False
        assert body["unranked_reason"]["code"] == "provisional"
        assert "Provisional" in body["unranked_reason"]["message"]
        assert board_names(puzzle) == []
    assert not RatingChange.objects.filter(user=user).exists()
    zh = client.get(f"/api/v1/games/{games[0][0]}/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert "临时" in zh["unranked_reason"]["message"]

    [(last, _)] = _person_games(client, range(PROVISIONAL_GAMES - 1, PROVISIONAL_GAMES), rng, style)
    assert not PlayerReview.objects.filter(user=user).exists()
    assert PlayerStanding.objects.get(user=user).by == "evidence"
    ids = [g for g, _ in games] + [last]
    rated = list(RatingChange.objects.filter(user=user).order_by("id"))
    assert [c.game_id for c in rated] == ids  # oldest first, the last game last
    assert all(a.player_after == b.player_before for a, b in itertools.pairwise(rated))
    assert client.get(f"/api/v1/games/{ids[0]}/").json()["counts"] is True
    assert all(board_names(p) == [user.username] for _, p in games)


def test_a_throwaway_account_scripting_the_engines_order_reaches_no_board_or_rating():
    user = UserFactory(established=False)
    client = client_for(user)
    for i in range(PROVISIONAL_GAMES):
        play_engine_order(client, hard_puzzle(i), hour=i)
    assert PlayerReview.objects.get(user=user).held
    assert not RatingChange.objects.filter(user=user).exists()
    assert not PlayerRating.objects.filter(user=user).exists()
    assert not PlayerStanding.objects.filter(user=user).exists()
    assert all(board_names(hard_puzzle(i)) == [] for i in range(PROVISIONAL_GAMES))
