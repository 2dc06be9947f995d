"""A hold undoes what it holds (ratings.services.rating_changes_reverse), both ways.

Paths covered, through the API: an established player rated for four scripted games is
held at the fifth, and those games' rating changes are taken back on both sides (the
player's rating and games, each puzzle's rating and plays); staff clearing the player
gives them back and rates the held game after them. A second call moves nothing twice.
"""

from __future__ import annotations

import pytest

from accounts.factories import UserFactory
from integrity.decisions import player_review_decide
from integrity.models import PlayerReview
from integrity.player_signals import MIN_GAMES
from ratings.glicko2 import BASE_RATING
from ratings.models import PlayerRating, PuzzleRating, RatingChange
from ratings.services import rating_changes_reverse
from tests.integrity.test_players import hard_puzzle, play_engine_order
from tests.integrity.test_review import client_for

pytestmark = pytest.mark.django_db


def _puzzles(games: list[int]) -> dict[int, tuple[float, int]]:
    ids = RatingChange.objects.filter(game_id__in=games).values_list("puzzle_id", flat=True)
    rows = PuzzleRating.objects.filter(puzzle_id__in=ids)
    return {r.puzzle_id: (r.rating, r.plays) for r in rows}


def test_a_hold_takes_back_the_window_and_a_clearing_gives_it_again():
    user = UserFactory()
    client = client_for(user)
    games = [play_engine_order(client, hard_puzzle(i), hour=i) for i in range(MIN_GAMES - 1)]
    rated = PlayerRating.objects.get(user=user, size=9)
    assert rated.games == MIN_GAMES - 1 and abs(rated.rating - BASE_RATING) > 10
    before = {c.puzzle_id: c.puzzle_before for c in RatingChange.objects.filter(user=user)}
    after = _puzzles(games)

    games.append(play_engine_order(client, hard_puzzle(MIN_GAMES - 1), hour=MIN_GAMES))
    review = PlayerReview.objects.get(user=user, held=True)
    held = PlayerRating.objects.get(user=user, size=9)
    assert held.rating == pytest.approx(BASE_RATING) and held.games == 0
    for puzzle_id, (rating, plays) in _puzzles(games).items():
        assert rating == pytest.approx(before[puzzle_id]) and plays == 0
    assert set(RatingChange.objects.filter(user=user).values_list("reversed", flat=True)) == {True}
    body = client.get(f"/api/v1/games/{games[0]}/").json()
    assert body["rating"]["change"]["reversed"] is True

    player_review_decide(review_id=review.pk, staff=UserFactory(is_staff=True), cleared=True)
    restored = PlayerRating.objects.get(user=user, size=9)
    assert restored.games == MIN_GAMES  # the four given again, the held fifth rated after
    for puzzle_id, (rating, plays) in _puzzles(games[:-1]).items():
        assert (rating, plays) == (pytest.approx(after[puzzle_id][0]), 1)
    assert not RatingChange.objects.filter(user=user, reversed=True).exists()
    assert rating_changes_reverse(user_id=user.pk, game_ids=None, back=False) == 0


def test_taking_back_twice_moves_each_change_once():
    user = UserFactory()
    client = client_for(user)
    games = [play_engine_order(client, hard_puzzle(i), hour=i) for i in range(2)]
    assert rating_changes_reverse(user_id=user.pk, game_ids=games, back=True) == 2
    assert rating_changes_reverse(user_id=user.pk, game_ids=games, back=True) == 0
    rating = PlayerRating.objects.get(user=user, size=9)
    assert rating.rating == pytest.approx(BASE_RATING) and rating.games == 0
