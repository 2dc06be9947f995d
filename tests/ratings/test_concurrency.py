"""Completions retried and raced on PostgreSQL: every side is rated exactly once.

Real connections, one per thread, released together by a barrier.
"""

from __future__ import annotations

import uuid

import pytest

from accounts.factories import UserFactory
from play.lifecycle import Player, game_abandon, game_start
from play.models import Game
from play.moves import move_apply
from ratings.models import PlayerRating, PuzzleRating, RatingChange
from tests.play.factories import empty_cells, logical_order, play_move, value_at
from tests.ratings.helpers import solve
from tests.together import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_completion_sent_many_times_at_once_rates_each_side_once(user, puzzle4):
    player = Player(user=user)
    game, _ = game_start(player=player, puzzle_id=puzzle4.pk)
    solve(game, player, last=False)
    cell = empty_cells(puzzle4)[-1]
    move_id = uuid.uuid4()

    def complete(i: int):
        # Half retry one move id, half are other devices' copies of the winning move.
        result = move_apply(
            game_id=game.pk,
            player=player,
            client_move_id=move_id if i % 2 else uuid.uuid4(),
            kind="value",
            cell=cell,
            value=value_at(puzzle4, cell),
        )
        return result.completed

    results = run_together(6, lambda i: _safely(complete, i))
    assert True in results
    assert RatingChange.objects.filter(game=game).count() == 1
    assert PlayerRating.objects.get(user=user, size=4).games == 1
    assert PuzzleRating.objects.get(puzzle=puzzle4).plays == 1
    assert Game.objects.get(pk=game.pk).status == "completed"


def test_complete_and_abandon_at_once_rate_the_game_once(user, puzzle4):
    player = Player(user=user)
    game, _ = game_start(player=player, puzzle_id=puzzle4.pk)
    solve(game, player, last=False)
    cell = empty_cells(puzzle4)[-1]

    def work(i: int):
        if i == 0:
            return game_abandon(game_id=game.pk, player=player).status
        return play_move(game, player, cell, value_at(puzzle4, cell)).game.status

    run_together(2, lambda i: _safely(work, i))
    stored = Game.objects.get(pk=game.pk)
    change = RatingChange.objects.get(game=game)
    assert (change.outcome == 0) == (stored.status == "abandoned")
    assert PlayerRating.objects.get(user=user, size=4).games == 1
    assert PuzzleRating.objects.get(puzzle=puzzle4).plays == 1


def test_two_players_finishing_one_puzzle_at_once_both_count(puzzle4):
    players = [Player(user=UserFactory()), Player(user=UserFactory())]
    games = []
    for player in players:
        game, _ = game_start(player=player, puzzle_id=puzzle4.pk)
        games.append(solve(game, player, last=False))
    cell = empty_cells(puzzle4)[-1]

    def complete(i: int):
        return play_move(games[i], players[i], cell, value_at(puzzle4, cell)).completed

    assert run_together(2, complete) == [True, True]
    changes = list(RatingChange.objects.filter(puzzle=puzzle4).order_by("id"))
    assert len(changes) == 2
    # The second update started from the first one's result: none was lost.
    assert changes[1].puzzle_before == pytest.approx(changes[0].puzzle_after)
    puzzle = PuzzleRating.objects.get(puzzle=puzzle4)
    assert puzzle.plays == 2
    assert puzzle.rating == pytest.approx(changes[1].puzzle_after)
    for player in players:
        assert PlayerRating.objects.get(user=player.user, size=4).games == 1


def test_one_player_finishing_a_classic_and_a_variant_game_at_once_rates_both(user, puzzle4):
    """Two first games at once of one player: each upsert makes its own (variant, size)
    row, and both count."""
    from tests.variants.conftest import variant_puzzle

    killer = variant_puzzle("killer", size=4)
    player = Player(user=user)
    games = []
    for puzzle in (puzzle4, killer):
        game, _ = game_start(player=player, puzzle_id=puzzle.pk)
        games.append(solve(game, player, last=False))

    def complete(i: int):
        puzzle = games[i].puzzle  # the cell solve() left, in the order it plays
        cell = (logical_order(puzzle) if puzzle.rules else empty_cells(puzzle))[-1]
        return play_move(games[i], player, cell, value_at(games[i].puzzle, cell)).completed

    assert run_together(2, complete) == [True, True]
    ratings = {(r.variant, r.size): r.games for r in PlayerRating.objects.filter(user=user)}
    assert ratings == {("classic", 4): 1, ("killer", 4): 1}
    assert {c.variant for c in RatingChange.objects.filter(user=user)} == {"classic", "killer"}
    assert PuzzleRating.objects.get(puzzle=killer).variant == "killer"


def _safely(work, i: int):
    """The losers of a race get a domain error (game finished, conflict): expected."""
    try:
        return work(i)
    except Exception as exc:
        return type(exc).__name__


def test_a_hold_taking_back_and_a_clearing_giving_again_at_once_move_each_change_once(
    user, puzzle4, puzzle4b
):
    from ratings.services import rating_changes_reverse

    player = Player(user=user)
    games = []
    for puzzle in (puzzle4, puzzle4b):
        game, _ = game_start(player=player, puzzle_id=puzzle.pk)
        solve(game, player)
        games.append(game.pk)
    rated = PlayerRating.objects.get(user=user, size=4)
    assert rated.games == 2

    def work(i: int):
        return rating_changes_reverse(user_id=user.pk, game_ids=games, back=i % 2 == 0)

    moved = run_together(6, lambda i: _safely(work, i))
    assert all(isinstance(m, int) for m in moved), moved
    # Whatever order they took turns in, the flags and the ratings agree.
    back = RatingChange.objects.filter(game_id__in=games, reversed=True).count()
    now = PlayerRating.objects.get(user=user, size=4)
    assert now.games == rated.games - back
    if back == 0:
        assert now.rating == pytest.approx(rated.rating)
