"""Any legal sequence of actions, replayed from its log, ends on the stored board and notes."""

from __future__ import annotations

import secrets
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from play import hints, lifecycle, moves
from play.lifecycle import Player
from play.models import Game
from replays.selectors import event_list
from replays.timeline import final_position
from sudokusite.errors import DomainError
from tests.play.factories import FOUR, puzzle_create

pytestmark = pytest.mark.django_db

ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("value"), st.integers(0, 15), st.integers(0, 4)),
        st.tuples(st.just("note"), st.integers(0, 15), st.integers(0, 4)),
        st.tuples(st.sampled_from(["undo", "redo", "auto_notes", "restart", "hint", "pause"])),
    ),
    min_size=1,
    max_size=25,
)


def _act(game_id: int, player: Player, action: tuple) -> None:
    name = action[0]
    if name in ("value", "note"):
        moves.move_apply(
            game_id=game_id,
            player=player,
            client_move_id=uuid.uuid4(),
            kind=name,
            cell=action[1],
            value=action[2],
        )
    elif name == "hint":
        hints.hint_request(game_id=game_id, player=player, level=3)
    elif name == "pause":
        lifecycle.game_pause(game_id=game_id, player=player)
        lifecycle.game_resume(game_id=game_id, player=player)
    else:
        getattr(moves, f"game_{name}")(game_id=game_id, player=player)


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS)
def test_replaying_the_log_reproduces_the_final_board_and_notes(actions, db):
    puzzle = puzzle_create(FOUR)
    player = Player(guest_key=secrets.token_urlsafe(12))
    game, _ = lifecycle.game_start(player=player, puzzle_id=puzzle.pk)
    for action in actions:
        try:
            _act(game.pk, player, action)
        except DomainError:
            continue  # refused (a given cell, nothing to undo, the game is over...)
    game = Game.objects.get(pk=game.pk)
    position = final_position(puzzle.givens, event_list(game=game))
    assert (position.line, position.notes) == (game.entries, game.notes)
