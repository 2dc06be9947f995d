"""GameSerializer builds its answer directly (the move endpoint's hot path); it must say
exactly what DRF's generic field-by-field path says, in every state a game can be in."""

from __future__ import annotations

import uuid

import pytest
import time_machine
from django.utils import timezone
from rest_framework import serializers

from play import hints, lifecycle, moves
from play.api.serializers.games import GameSerializer
from play.lifecycle import Player
from play.models import Game
from tests.play.factories import empty_cells, value_at, wrong_value_at

pytestmark = pytest.mark.django_db


def _generic(game: Game) -> dict:
    return serializers.ModelSerializer.to_representation(GameSerializer(game), game)


def _move(player: Player, game: Game, cell: int, value: int, kind: str = "value") -> Game:
    result = moves.move_apply(
        game_id=game.pk, player=player, client_move_id=uuid.uuid4(), kind=kind, cell=cell,
        value=value,
    )  # fmt: skip
    return result.game


def _states(user, puzzle4) -> list[tuple[str, Game]]:
    player = Player(user=user)
    cells = empty_cells(puzzle4)
    states = []
    game, _ = lifecycle.game_start(player=player, puzzle_id=puzzle4.pk)
    states.append(("new", Game.objects.select_related("puzzle").get(pk=game.pk)))
    game = _move(player, game, cells[0], 2, kind="note")
    game = _move(player, game, cells[1], wrong_value_at(puzzle4, cells[1]))
    states.append(("notes and a mistake", game))
    game = hints.hint_request(game_id=game.pk, player=player, level=2).game
    states.append(("a hint revealed", game))
    game = lifecycle.game_pause(game_id=game.pk, player=player)
    states.append(("paused", game))
    game = lifecycle.game_resume(game_id=game.pk, player=player)
    for cell in cells:
        game = _move(player, game, cell, value_at(puzzle4, cell))
    states.append(("completed", game))
    lost, _ = lifecycle.game_start(player=player, puzzle_id=puzzle4.pk, mistake_limit=1)
    lost = _move(player, lost, cells[0], wrong_value_at(puzzle4, cells[0]))
    states.append(("lost", lost))
    abandoned, _ = lifecycle.game_start(player=player, puzzle_id=puzzle4.pk)
    states.append(("abandoned", lifecycle.game_abandon(game_id=abandoned.pk, player=player)))
    return states


def test_the_direct_answer_equals_the_generic_one_in_every_state(user, puzzle4):
    with time_machine.travel(timezone.now(), tick=False) as clock:
        states = _states(user, puzzle4)
        clock.shift(7.5)  # a running clock shows time passed since the last write
        for name, game in states:
            direct, generic = GameSerializer(game).data, _generic(game)
            assert list(direct) == list(generic), name
            assert direct == generic, name
    seen = {name: GameSerializer(game).data for name, game in states}
    assert seen["paused"]["entries"] is None and seen["paused"]["puzzle"]["givens"] is None
    assert seen["a hint revealed"]["hint"] is not None
    assert seen["notes and a mistake"]["mistake_cells"]
    assert seen["completed"]["solution"] and seen["completed"]["score"]
    assert seen["new"]["solution"] is None and seen["new"]["finished"] is None
    assert seen["new"]["created"].endswith("Z")


def test_a_list_of_games_uses_the_same_answer(user, puzzle4):
    with time_machine.travel(timezone.now(), tick=False):
        games = [game for _, game in _states(user, puzzle4)]
        listed = GameSerializer(games, many=True).data
        assert listed == [_generic(game) for game in games]
