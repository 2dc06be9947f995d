"""Replaying the event log from the givens gives the board and notes at every moment."""

from __future__ import annotations

import datetime

import pytest

from play.board import Board as PlayBoard
from play.hints import hint_request
from play.models import Game, Move, MoveKind
from play.moves import game_auto_notes, game_restart
from replays.selectors import event_list
from replays.timeline import final_position, positions
from tests.play.factories import empty_cells, value_at, wrong_value_at
from tests.replays.factories import event_create, play

pytestmark = pytest.mark.django_db


def _final(game: Game) -> tuple[str, dict]:
    game.refresh_from_db()
    position = final_position(game.puzzle.givens, event_list(game=game))
    return position.line, position.notes


def test_values_notes_hints_auto_notes_and_restart_replay_to_the_stored_board(game9, player):
    puzzle = game9.puzzle
    cells = empty_cells(puzzle)
    play(game9, player, cells[0], 3, kind="note")
    play(game9, player, cells[0], 5, kind="note")
    play(game9, player, cells[1], wrong_value_at(puzzle, cells[1]))
    play(game9, player, cells[2], value_at(puzzle, cells[2]))
    game_auto_notes(game_id=game9.pk, player=player)
    hint_request(game_id=game9.pk, player=player, level=3)
    game_restart(game_id=game9.pk, player=player)
    play(game9, player, cells[3], value_at(puzzle, cells[3]))
    play(game9, player, cells[4], 1, kind="note")
    play(game9, player, cells[5], value_at(puzzle, cells[5]))
    play(game9, player, cells[5], 0)  # cleared again
    entries, notes = _final(game9)
    game9.refresh_from_db()
    assert entries == game9.entries
    assert notes == game9.notes
    assert notes  # the check compares something


def test_undo_and_redo_events_take_their_changes_back_and_forth(game9, player):
    puzzle = game9.puzzle
    a, b = empty_cells(puzzle)[:2]
    play(game9, player, a, value_at(puzzle, a))
    play(game9, player, b, 4, kind="note")
    last = Move.objects.filter(game=game9).order_by("-seq").first()
    undone = PlayBoard.of(puzzle.shape, Game.objects.get(pk=game9.pk).entries, {str(b): [4]})
    undone.replay(last.changes, forward=False)
    event_create(game9, MoveKind.UNDO, value=last.seq, changes=undone.changes)
    entries, notes = _final(game9)
    assert str(b) not in notes and entries[a] == puzzle.solution[a]
    event_create(game9, MoveKind.REDO, value=last.seq, changes=last.changes)
    entries, notes = _final(game9)
    assert notes == {str(b): [4]}
    assert entries[a] == puzzle.solution[a]


def test_positions_give_the_board_after_each_event(game9, player):
    puzzle = game9.puzzle
    a, b = empty_cells(puzzle)[:2]
    play(game9, player, a, value_at(puzzle, a))
    play(game9, player, b, value_at(puzzle, b))
    lines = [p.line for p in positions(puzzle.givens, event_list(game=game9))]
    assert lines[0][a] == puzzle.solution[a] and lines[0][b] == "."
    assert lines[1][b] == puzzle.solution[b]


def test_log_written_before_the_clock_per_event_takes_game_time_from_wall_time(game9, player):
    cells = empty_cells(game9.puzzle)
    play(game9, player, cells[0], 3, kind="note")
    play(game9, player, cells[1], 4, kind="note")
    # As stored before every write kept its clock: elapsed_ms 0 on every row. The game
    # started 10 s before its moves and was played for 4 s of that.
    Move.objects.filter(game=game9).update(elapsed_ms=0)
    created = game9.created - datetime.timedelta(seconds=10)
    Game.objects.filter(pk=game9.pk).update(elapsed_ms=4000, created=created)
    game9.refresh_from_db()
    events = event_list(game=game9)
    assert len(events) == 2
    assert all(e["wall_ms"] >= 10_000 for e in events)
    assert [e["elapsed_ms"] for e in events] == [4000, 4000]  # capped at the game clock
