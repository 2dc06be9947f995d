"""A race seat never played is not rated (as Lichess aborts a game nobody moved in).

Paths covered, through the API: a racer who never placed a value, timed out or given up,
moves neither their rating nor the puzzle's (the game says ``race_not_played``); a racer
who placed one value and then gave up loses as any given-up game does.
"""

from __future__ import annotations

import pytest

from play.models import Game
from ratings.models import PlayerRating, PuzzleRating, RatingChange
from tests.play.factories import empty_cells, value_at
from tests.races.helpers import after_start, move, player, race_create

pytestmark = pytest.mark.django_db


def _race(*clients, minutes: int = 1) -> tuple[str, dict]:
    host = clients[0]
    code = race_create(host, time_limit_minutes=minutes)["race"]["code"]
    for client in clients[1:]:
        client.post(f"/api/v1/races/{code}/join/")
    assert host.post(f"/api/v1/races/{code}/start/").status_code == 200
    with after_start(code):
        games = {c: c.get(f"/api/v1/races/{code}/").json()["you"]["game"] for c in clients}
    return code, games


def _solve(client, game_id: int) -> None:
    puzzle = Game.objects.get(pk=game_id).puzzle
    for cell in empty_cells(puzzle):
        assert move(client, game_id, cell, value_at(puzzle, cell)).status_code == 200


def test_a_seat_that_timed_out_with_no_move_is_not_rated(puzzle4):
    solver, idle = player(), player()
    code, games = _race(solver, idle)
    with after_start(code, seconds=20):
        _solve(solver, games[solver])
    with after_start(code, seconds=61):
        assert idle.get(f"/api/v1/races/{code}/").json()["race"]["status"] == "finished"
        body = idle.get(f"/api/v1/games/{games[idle]}/").json()
    assert body["status"] == "abandoned" and body["counts"] is False
    assert body["unranked_reason"]["code"] == "race_not_played"
    assert not RatingChange.objects.filter(game_id=games[idle]).exists()
    assert not PlayerRating.objects.filter(user=idle.user).exists()
    assert PuzzleRating.objects.get(puzzle=puzzle4).plays == 1  # the solver's game only


def test_a_give_up_before_the_first_move_is_not_rated_and_after_it_is_a_loss(puzzle4):
    early, late, host = player(), player(), player()
    code, games = _race(host, early, late)
    cell = empty_cells(puzzle4)[0]
    with after_start(code, seconds=5):
        assert early.post(f"/api/v1/games/{games[early]}/abandon/", {}).status_code == 200
        assert move(late, games[late], cell, value_at(puzzle4, cell)).status_code == 200
        assert late.post(f"/api/v1/games/{games[late]}/abandon/", {}).status_code == 200
    assert not RatingChange.objects.filter(game_id=games[early]).exists()
    assert Game.objects.get(pk=games[early]).standing == "race_not_played"
    loss = RatingChange.objects.get(game_id=games[late])
    assert loss.player_after < loss.player_before
