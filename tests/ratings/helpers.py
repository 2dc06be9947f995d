"""Playing whole games through the services, for rating tests."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from django.utils import timezone

from play.lifecycle import Player, game_abandon, game_start
from play.models import Game
from tests.play.factories import empty_cells, logical_order, play_move, value_at, wrong_value_at

PLACEMENT_SECONDS = 1
"""A person's pace, so the review (integrity.gate) lets the game count."""


def solve(game: Game, player: Player, *, mistakes: int = 0, last: bool = True) -> Game:
    """Play every empty cell right (after ``mistakes`` wrong values), one every
    ``PLACEMENT_SECONDS``; the last move completes the game (or is left unplayed when not
    ``last``)."""
    puzzle = game.puzzle
    # A variant's cells in its logic's order: read row by row, its placements look blind.
    cells = logical_order(puzzle) if puzzle.rules else empty_cells(puzzle)
    for _ in range(mistakes):
        play_move(game, player, cells[0], wrong_value_at(puzzle, cells[0]))
    result = None
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for cell in cells if last else cells[:-1]:
            clock.shift(timedelta(seconds=PLACEMENT_SECONDS))
            result = play_move(game, player, cell, value_at(puzzle, cell))
    if not last:
        return game
    assert result is not None and result.completed
    return result.game


def last_move(game: Game, player: Player):
    """Play the one cell left: the move that completes the game."""
    cell = empty_cells(game.puzzle)[-1]
    return play_move(game, player, cell, value_at(game.puzzle, cell))


def play_through(player: Player, puzzle, *, abandon: bool = False) -> Game:
    game, _ = game_start(player=player, puzzle_id=puzzle.pk)
    if abandon:
        return game_abandon(game_id=game.pk, player=player)
    return solve(game, player)
