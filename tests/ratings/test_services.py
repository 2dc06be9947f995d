"""Rating games through the play services: who is rated, and how often."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from play.errors import GameFinished
from play.lifecycle import Player, game_start
from play.models import Game
from ratings.models import PlayerRating, PuzzleRating, RatingChange
from ratings.prior import PRIOR_DEVIATION, prior_rating
from ratings.services import rating_record_game
from tests.ratings.helpers import last_move, play_through, solve

pytestmark = pytest.mark.django_db


def test_a_ranked_fast_solve_raises_the_player_and_lowers_the_puzzle(user, puzzle4):
    game = play_through(Player(user=user), puzzle4)
    change = RatingChange.objects.get(game=game)
    player = PlayerRating.objects.get(user=user, size=4)
    puzzle = PuzzleRating.objects.get(puzzle=puzzle4)
    assert change.outcome > 0.9  # a 4x4 in well under its minute
    assert player.rating == change.player_after > change.player_before == 1500
    assert player.deviation < 350 and player.games == 1
    assert change.puzzle_before == prior_rating(size=4, score=puzzle4.score)
    assert puzzle.rating == change.puzzle_after < change.puzzle_before
    assert puzzle.deviation < PRIOR_DEVIATION and puzzle.plays == 1


def test_the_finishing_answer_shows_both_sides_change(user, puzzle4):
    game = play_through(Player(user=user), puzzle4)
    from ratings.selectors import game_rating

    shown = game_rating(game)
    assert shown["change"]["player_delta"] > 0 > shown["change"]["puzzle_delta"]
    assert shown["puzzle"] == shown["change"]["puzzle_after"]


def test_abandoning_a_ranked_game_lowers_the_rating(user, puzzle4):
    game = play_through(Player(user=user), puzzle4, abandon=True)
    change = RatingChange.objects.get(game=game)
    assert change.outcome == 0
    assert PlayerRating.objects.get(user=user, size=4).rating < 1500
    assert PuzzleRating.objects.get(puzzle=puzzle4).rating > change.puzzle_before


def test_a_loss_at_the_mistake_limit_lowers_the_rating(user, puzzle4):
    player = Player(user=user)
    game, _ = game_start(player=player, puzzle_id=puzzle4.pk, mistake_limit=1)
    with pytest.raises(GameFinished):  # lost at the first mistake: the next move is refused
        solve(game, player, mistakes=1)
    game.refresh_from_db()
    assert game.status == "lost"
    assert RatingChange.objects.get(game=game).player_after < 1500


def test_an_unranked_replay_changes_nothing(user, puzzle4):
    player = Player(user=user)
    play_through(player, puzzle4)
    before = PlayerRating.objects.get(user=user, size=4)
    puzzle_before = PuzzleRating.objects.get(puzzle=puzzle4)
    replay = play_through(player, puzzle4)
    assert replay.ranked is False
    assert not RatingChange.objects.filter(game=replay).exists()
    after = PlayerRating.objects.get(user=user, size=4)
    assert (after.rating, after.games) == (before.rating, before.games)
    assert PuzzleRating.objects.get(puzzle=puzzle4).rating == puzzle_before.rating


def test_guests_are_never_rated(puzzle4):
    game = play_through(Player(guest_key="guest-1"), puzzle4)
    assert game.status == "completed"
    assert RatingChange.objects.count() == 0
    assert PlayerRating.objects.count() == 0
    assert not PuzzleRating.objects.filter(plays__gt=0).exists()


def test_recording_a_game_again_changes_nothing(user, puzzle4):
    game = play_through(Player(user=user), puzzle4)
    rating = PlayerRating.objects.get(user=user, size=4).rating
    assert rating_record_game(game=Game.objects.select_related("puzzle").get(pk=game.pk)) is None
    assert RatingChange.objects.filter(game=game).count() == 1
    player = PlayerRating.objects.get(user=user, size=4)
    assert (player.rating, player.games) == (rating, 1)
    assert PuzzleRating.objects.get(puzzle=puzzle4).plays == 1


def test_deviation_grows_with_the_days_between_games(user, puzzle4, puzzle4b):
    player = Player(user=user)
    play_through(player, puzzle4)
    rating = PlayerRating.objects.get(user=user, size=4)
    PlayerRating.objects.filter(pk=rating.pk).update(
        deviation=60, last_played=timezone.now() - timedelta(days=400)
    )
    game = play_through(player, puzzle4b)
    change = RatingChange.objects.get(game=game)
    # A year idle brought it back above where it was, even after a game.
    assert change.player_deviation > 60


def test_a_completion_costs_at_most_three_more_queries(user, puzzle4, puzzle4b, monkeypatch):
    # The ratings' share only: the plausible-play review and the evidence across games
    # have their own budgets (tests/integrity).
    monkeypatch.setattr("integrity.gate.game_review", lambda game: None)
    monkeypatch.setattr("integrity.gate.player_evaluate", lambda game, reviewed: False)
    monkeypatch.setattr("integrity.gate.player_held", lambda user_id: False)
    monkeypatch.setattr("integrity.gate.player_provisional", lambda game: False)

    def last_move_queries(player: Player, puzzle) -> int:
        game, _ = game_start(player=player, puzzle_id=puzzle.pk)
        solve(game, player, last=False)
        with CaptureQueriesContext(connection) as captured:
            assert last_move(game, player).completed
        return len([q for q in captured.captured_queries if "SAVEPOINT" not in q["sql"].upper()])

    guest = last_move_queries(Player(guest_key="guest-2"), puzzle4)
    ranked = last_move_queries(Player(user=user), puzzle4b)
    if connection.vendor == "postgresql":
        assert ranked - guest <= 3
    else:  # SQLite: the one write statement is three
        assert ranked - guest <= 5
