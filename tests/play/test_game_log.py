"""Every write to a game appends one log entry (a Move) through the one conditional write
(play.game_store): the log replayed from the givens gives the board and notes after every
write, a stale write is refused by the same guard whatever the write, a write that loses
the race writes nothing, and the end of a game runs ``play.ending.game_ended`` once."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import F

from play import ending, steps
from play.board import Board
from play.errors import StaleVersion
from play.hints import hint_request
from play.lifecycle import Player, game_abandon, game_pause, game_resume, game_start
from play.models import Game, Move, MoveKind, Status
from play.moves import game_auto_notes, game_redo, game_restart, game_undo, move_apply
from sudokusite.errors import Conflict
from tests.play.factories import empty_cells, play_move, value_at, wrong_value_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended(monkeypatch) -> list[int]:
    """The games ``game_ended`` was called for, in order."""
    calls: list[int] = []
    real = ending.game_ended

    def counting(game: Game) -> None:
        calls.append(game.pk)
        real(game)

    monkeypatch.setattr(ending, "game_ended", counting)
    return calls


def _replayed(game: Game) -> tuple[str, dict[str, list[int]], ...]:
    """The board, notes, corner marks and colours the game's log gives, in order."""
    board = Board.of(game.puzzle.shape, game.puzzle.givens, {})
    for entry in Move.objects.filter(game=game).order_by("seq"):
        board.replay(entry.changes, forward=True)
    return board.entries, board.notes, board.corners, board.colours


def _assert_log_replays(game_id: int) -> Game:
    game = Game.objects.select_related("puzzle").get(pk=game_id)
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.move_count + 1))
    assert _replayed(game) == (game.entries, game.notes, game.corners, game.colours)
    return game


def _an_empty_cell(game: Game) -> int:
    return Game.objects.get(pk=game.pk).entries.index(".")


def test_every_kind_of_write_appends_an_entry_that_replays_to_the_board(user, puzzle4, ended):
    player = Player(user=user)
    game, _ = game_start(player=player, puzzle_id=puzzle4.pk)
    first = empty_cells(puzzle4)[0]
    writes: list[Callable[[], Any]] = [
        lambda: play_move(game, player, first, 2, kind="note"),
        lambda: play_move(game, player, first, 3, kind="corner"),
        lambda: play_move(game, player, 0, 9, kind="colour"),
        lambda: play_move(game, player, first, wrong_value_at(puzzle4, first)),
        lambda: play_move(game, player, first, value_at(puzzle4, first)),
        lambda: game_auto_notes(game_id=game.pk, player=player),
        lambda: game_undo(game_id=game.pk, player=player),
        lambda: game_redo(game_id=game.pk, player=player),
        lambda: game_pause(game_id=game.pk, player=player),
        lambda: game_resume(game_id=game.pk, player=player),
        lambda: game_restart(game_id=game.pk, player=player),
        lambda: game_undo(game_id=game.pk, player=player),
        lambda: hint_request(game_id=game.pk, player=player, level=1),
        lambda: hint_request(game_id=game.pk, player=player, level=3),
        lambda: play_move(game, player, _an_empty_cell(game), 0, kind="note"),
    ]
    for write in writes:
        before = Game.objects.get(pk=game.pk).move_count
        write()
        stored = _assert_log_replays(game.pk)
        assert stored.move_count == before + 1
    for cell in empty_cells(puzzle4):
        if Game.objects.get(pk=game.pk).status == Status.COMPLETED:
            break
        if Game.objects.get(pk=game.pk).entries[cell] == ".":
            play_move(game, player, cell, value_at(puzzle4, cell))
            _assert_log_replays(game.pk)
    assert Game.objects.get(pk=game.pk).status == Status.COMPLETED
    assert ended == [game.pk]

    log = list(Move.objects.filter(game=game).order_by("seq"))
    kinds = {entry.kind for entry in log}
    assert kinds >= set(MoveKind) - {MoveKind.ABANDON}
    # The clock only goes forward, and an entry's clock is the game's right after it.
    clocks = [entry.elapsed_ms for entry in log]
    assert clocks == sorted(clocks)
    assert log[-1].elapsed_ms == Game.objects.get(pk=game.pk).elapsed_ms
    undo, redo = [e for e in log if e.kind in (MoveKind.UNDO, MoveKind.REDO)][:2]
    auto_notes = next(e for e in log if e.kind == MoveKind.AUTO_NOTES)
    assert undo.value == redo.value == auto_notes.seq
    assert not undo.in_log and not redo.in_log
    assert undo.changes["notes"] == [[c, a, b] for c, b, a in auto_notes.changes["notes"]]
    assert redo.changes == auto_notes.changes
    reveal = next(e for e in log if e.kind == MoveKind.HINT_REVEAL)
    assert (reveal.value, reveal.changes) == (1, {})
    assert {e.kind: e.changes for e in log if e.kind in ("pause", "resume")} == {
        "pause": {},
        "resume": {},
    }


def test_abandoning_appends_an_entry_and_ends_the_game_once(user, puzzle4, ended):
    player = Player(user=user)
    game, _ = game_start(player=player, puzzle_id=puzzle4.pk)
    game_abandon(game_id=game.pk, player=player)
    (entry,) = Move.objects.filter(game=game)
    assert (entry.kind, entry.changes, entry.seq) == (MoveKind.ABANDON, {}, 1)
    assert ended == [game.pk]


def test_losing_the_game_ends_it_once(user, puzzle4, ended):
    player = Player(user=user)
    game, _ = game_start(player=player, puzzle_id=puzzle4.pk, mistake_limit=1)
    cell = empty_cells(puzzle4)[0]
    play_move(game, player, cell, wrong_value_at(puzzle4, cell))
    assert Game.objects.get(pk=game.pk).status == Status.LOST
    assert ended == [game.pk]
    assert _replayed(Game.objects.get(pk=game.pk))[0][cell] != "."


def test_a_retried_completion_ends_the_game_once(user, puzzle4, ended):
    player = Player(user=user)
    game, _ = game_start(player=player, puzzle_id=puzzle4.pk)
    *rest, last = empty_cells(puzzle4)
    for cell in rest:
        play_move(game, player, cell, value_at(puzzle4, cell))
    body = {"kind": "value", "cell": last, "value": value_at(puzzle4, last)}
    client_move_id = uuid.uuid4()
    first = move_apply(game_id=game.pk, player=player, client_move_id=client_move_id, **body)
    again = move_apply(game_id=game.pk, player=player, client_move_id=client_move_id, **body)
    assert first.completed and again.completed and again.replayed
    assert ended == [game.pk]


def _stale_writes(player: Player, game: Game, puzzle) -> dict[str, Callable[..., Any]]:
    cell = empty_cells(puzzle)[0]
    return {
        "move": lambda **v: move_apply(
            game_id=game.pk,
            player=player,
            client_move_id=uuid.uuid4(),
            kind="value",
            cell=cell,
            value=value_at(puzzle, cell),
            **v,
        ),
        "undo": lambda **v: game_undo(game_id=game.pk, player=player, **v),
        "redo": lambda **v: game_redo(game_id=game.pk, player=player, **v),
        "pause": lambda **v: game_pause(game_id=game.pk, player=player, **v),
        "resume": lambda **v: game_resume(game_id=game.pk, player=player, **v),
        "hint": lambda **v: hint_request(game_id=game.pk, player=player, level=1, **v),
        "auto notes": lambda **v: game_auto_notes(game_id=game.pk, player=player, **v),
        "restart": lambda **v: game_restart(game_id=game.pk, player=player, **v),
        "abandon": lambda **v: game_abandon(game_id=game.pk, player=player, **v),
    }


def _ready_for(name: str, player: Player, game: Game, puzzle) -> None:
    """Put the game where the write ``name`` has something to do."""
    other = empty_cells(puzzle)[1]
    if name in ("undo", "redo"):
        play_move(game, player, other, 1, kind="note")
    if name == "redo":
        game_undo(game_id=game.pk, player=player)
    if name == "resume":
        game_pause(game_id=game.pk, player=player)


@pytest.mark.parametrize(
    "name",
    ["move", "undo", "redo", "pause", "resume", "hint", "auto notes", "restart", "abandon"],
)
def test_every_write_refuses_a_stale_version(user, puzzle4, name):
    player = Player(user=user)
    game, _ = game_start(player=player, puzzle_id=puzzle4.pk)
    _ready_for(name, player, game, puzzle4)
    stored = Game.objects.get(pk=game.pk)
    with pytest.raises(StaleVersion):
        _stale_writes(player, game, puzzle4)[name](version=stored.version - 1)
    assert Game.objects.get(pk=game.pk).move_count == stored.move_count


@pytest.mark.parametrize(
    "name", ["undo", "redo", "pause", "resume", "hint", "auto notes", "restart", "abandon"]
)
def test_a_write_that_loses_the_race_writes_nothing(monkeypatch, user, puzzle4, ended, name):
    """Another write lands between this write's read and its write (SQLite takes no row
    lock, so nothing holds it off): the one conditional write finds the version it read
    gone and writes nothing, and the write is refused (its transaction rolled back)."""
    player = Player(user=user)
    game, _ = game_start(player=player, puzzle_id=puzzle4.pk)
    _ready_for(name, player, game, puzzle4)
    stored = Game.objects.get(pk=game.pk)
    entries = Move.objects.filter(game=game).count()
    real_write = steps.game_write
    results = []

    def another_write_first(game: Game, move: Move, **seen: int) -> bool:
        Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
        results.append(real_write(game, move, **seen))
        return results[-1]

    monkeypatch.setattr(steps, "game_write", another_write_first)
    with pytest.raises(Conflict):
        _stale_writes(player, game, puzzle4)[name]()
    assert results == [False]
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.move_count) == (stored.version, stored.move_count)
    assert (after.entries, after.notes, after.status) == (
        stored.entries,
        stored.notes,
        stored.status,
    )
    assert Move.objects.filter(game=game).count() == entries
    assert ended == []


def test_a_move_that_loses_the_race_writes_nothing_then_lands_once(monkeypatch, user, puzzle4):
    player = Player(user=user)
    game, _ = game_start(player=player, puzzle_id=puzzle4.pk)
    real_write = steps.game_write
    results = []

    def another_write_first(game: Game, move: Move, **seen: int) -> bool:
        if not results:
            Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
        results.append(real_write(game, move, **seen))
        return results[-1]

    monkeypatch.setattr(steps, "game_write", another_write_first)
    _stale_writes(player, game, puzzle4)["move"]()
    assert results == [False, True]
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.move_count) == (3, 1)
    assert list(Move.objects.filter(game=game).values_list("seq", flat=True)) == [1]
