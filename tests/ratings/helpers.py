"""Playing whole games through the services, for rating tests."""

from __future__ import annotations

import uuid

from play.lifecycle import Player, game_abandon, game_start
from play.models import Game
from play.moves import move_apply
from tests.play.factories import empty_cells, value_at, wrong_value_at


def solve(game: Game, player: Player, *, mistakes: int = 0, last: bool = True) -> Game:
    """Play every empty cell right (after ``mistakes`` wrong values); the last move
    completes the game (or is left unplayed when not ``last``)."""
    puzzle = game.puzzle
    cells = empty_cells(puzzle)
    for _ in range(mistakes):
        move_apply(
            game_id=game.pk,
            player=player,
            client_move_id=uuid.uuid4(),
            kind="value",
            cell=cells[0],
            value=wrong_value_at(puzzle, cells[0]),
        )
    result = None
    for cell in cells if last else cells[:-1]:
        result = move_apply(
            game_id=game.pk,
            player=player,
            client_move_id=uuid.uuid4(),
            kind="value",
            cell=cell,
            value=value_at(puzzle, cell),
        )
    if not last:
        return game
    assert result is not None and result.completed
    return result.game


def last_move(game: Game, player: Player):
    """Play the one cell left: the move that completes the game."""
    cell = empty_cells(game.puzzle)[-1]
    return move_apply(
        game_id=game.pk,
        player=player,
        client_move_id=uuid.uuid4(),
        kind="value",
        cell=cell,
        value=value_at(game.puzzle, cell),
    )


def play_through(player: Player, puzzle, *, abandon: bool = False) -> Game:
    game, _ = game_start(player=player, puzzle_id=puzzle.pk)
    if abandon:
        return game_abandon(game_id=game.pk, player=player)
    return solve(game, player)
