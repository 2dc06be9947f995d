"""Moves and the move history: a move, undo and redo, auto notes and restart.

A move, the write a game makes most, is optimistic (see ``move_apply``): two statements,
the read of the game with its puzzle and any log entry stored under the client's move id,
and one conditional write of the game and the move (play.game_store). The other writes
here lock the game row for their transaction; all save through play.steps.save.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from puzzles.variants import constraint_clashes
from solver import cell_name
from sudokusite.errors import Conflict

from .board import symbol
from .errors import GameNotFound, IdempotencyConflict, MoveRejected
from .game_store import game_read
from .models import Game, Move, MoveKind, Status
from .steps import (
    Player,
    board_entry,
    board_of,
    check_playable,
    check_version,
    complete_if_solved,
    finish,
    game_locked,
    log_entry,
    save,
    save_locked,
    seen_of,
)


@dataclass(frozen=True)
class MoveResult:
    correct: bool | None
    conflicts: list[int]
    completed: bool
    replayed: bool
    game: Game


# --- Moves -------------------------------------------------------------------


# The page's palette of cell colours: 1 to COLOURS.
COLOURS = 9


def _check_range(game: Game, *, cell: int, value: int, kind: str = MoveKind.VALUE) -> None:
    n = game.puzzle.size
    if not 0 <= cell < n * n:
        raise ValidationError(
            {
                "cell": [
                    _("A %(n)sx%(n)s puzzle has cells 0 to %(last)s.") % {"n": n, "last": n * n - 1}
                ]
            }
        )
    if not 0 <= value <= (COLOURS if kind == MoveKind.COLOUR else n):
        if kind == MoveKind.COLOUR:
            raise ValidationError({"value": [_("A colour is 1 to 9, or 0 to clear them.")]})
        raise ValidationError(
            {"value": [_("A %(n)sx%(n)s puzzle takes values 0 to %(n)s.") % {"n": n}]}
        )


def _replay(move: Move, game: Game, *, kind: str, cell: int, value: int) -> MoveResult:
    if (move.kind, move.cell, move.value) != (kind, cell, value):
        raise IdempotencyConflict(
            _(
                "client_move_id %(id)s was already used for a %(kind)s move of %(value)s in "
                "cell %(cell)s."
            )
            % {
                "id": move.client_move_id,
                "kind": str(MoveKind(move.kind).label).lower(),
                "value": move.value,
                "cell": move.cell,
            }
        )
    answer = move.response
    return MoveResult(
        correct=answer.get("correct"),
        conflicts=answer.get("conflicts", []),
        completed=answer.get("completed", False),
        replayed=True,
        game=game,
    )


def move_apply(
    *,
    game_id: int,
    player: Player,
    client_move_id: uuid.UUID,
    kind: str,
    cell: int,
    value: int,
    version: int | None = None,
    clear_peer_notes: bool = True,
) -> MoveResult:
    """Place or clear a value, or toggle a note (``value`` 0 clears the cell's notes).
    A placed value leaves the cell's notes empty and, with ``clear_peer_notes`` (the
    player's aid), is taken out of its peers' notes too.

    A wrong value counts a mistake and stays on the board until the player changes it;
    the answer names the cells it clashes with. A retried ``client_move_id`` returns the
    stored answer without applying the move again.

    The move is played optimistically first: the game is read without a lock and written
    only if its version and move count are still the ones read (two statements, and no
    transaction to open unless the move ends the game). A move that loses that race to
    another device's write is played again with the row locked, which cannot lose; so
    every move lands once, in order, as with a lock alone.
    """
    move = {
        "client_move_id": client_move_id,
        "kind": kind,
        "cell": cell,
        "value": value,
        "clear_peer_notes": clear_peer_notes,
    }
    result = _move_play(game_id=game_id, player=player, version=version, lock=False, **move)
    if result is not None:
        return result
    try:
        return _move_play_locked(game_id=game_id, player=player, version=version, **move)
    except IntegrityError:
        # Two copies of one move at once: the locked read looked the id up in the snapshot
        # it began with, so the copy that waited for the row lock missed the first copy's
        # move and hit the unique (game, client_move_id). Now it is stored: run again to
        # answer with it. (Inside an outer transaction there is no "again": re-raise.)
        stored = Move.objects.filter(game_id=game_id, client_move_id=client_move_id)
        if transaction.get_connection().in_atomic_block or not stored.exists():
            raise
        return _move_play_locked(game_id=game_id, player=player, version=version, **move)


@transaction.atomic
def _move_play_locked(**move: Any) -> MoveResult:
    result = _move_play(lock=True, **move)
    if result is None:  # the lock holds off every other writer: never expected
        raise Conflict(_("The game changed while this request ran: try again."))
    return result


def _move_play(
    *,
    game_id: int,
    player: Player,
    client_move_id: uuid.UUID,
    kind: str,
    cell: int,
    value: int,
    version: int | None,
    lock: bool,
    clear_peer_notes: bool = True,
) -> MoveResult | None:
    """Check and apply one move; None when the game changed after it was read (only
    possible without ``lock``), in which case nothing was written."""
    found = game_read(
        game_id,
        user_id=player.user_id,
        guest_key=player.guest_key,
        client_move_id=client_move_id,
        lock=lock,
    )
    if found is None:
        raise GameNotFound()
    game, stored = found
    if stored is not None:
        return _replay(stored, game, kind=kind, cell=cell, value=value)
    check_playable(game)
    check_version(game, version)
    _check_range(game, cell=cell, value=value, kind=kind)
    puzzle = game.puzzle
    if kind == MoveKind.COLOUR:  # any cell, a given too; nothing to judge
        return _colour_play(game, cell=cell, value=value, client_move_id=client_move_id)
    if puzzle.givens[cell] != ".":
        raise MoveRejected(
            _("Cell %(cell)s is a given.") % {"cell": _cell_name(game, cell)}, code="cell_is_given"
        )

    board = board_of(game)
    previous = board.value(cell)
    correct: bool | None = None
    conflicts: list[int] = []
    now = timezone.now()
    if kind == MoveKind.VALUE:
        if value:
            correct = puzzle.solution[cell] == symbol(value)
            conflicts = board.peers_holding(cell, value)
            if puzzle.rules and puzzle.rules.get("constraints"):
                values = [board.value(c) for c in range(len(board.cells))]
                values[cell] = value
                found = constraint_clashes(puzzle, values, cell)
                conflicts = sorted(set(conflicts) | set(found))
        if previous != value:
            board.set_value(cell, value)
            if value:
                board.set_notes(cell, [])
                board.set_corners(cell, [])
                if clear_peer_notes:
                    board.clear_from_peer_notes(cell, value)
                if not correct:
                    game.mistakes += 1
    else:
        if previous:
            raise MoveRejected(
                _("Cell %(cell)s holds a value: clear it before taking notes.")
                % {"cell": _cell_name(game, cell)},
                code="cell_has_value",
            )
        corner = kind == MoveKind.CORNER
        marks = board.cell_corners(cell) if corner else board.cell_notes(cell)
        if value:
            marks = sorted(set(marks) ^ {value})
            conflicts = board.peers_holding(cell, value)
        else:
            marks = []
        (board.set_corners if corner else board.set_notes)(cell, marks)

    seen = seen_of(game)
    completed = False
    if board.changes:
        if correct is False and game.mistake_limit and game.mistakes >= game.mistake_limit:
            finish(game, Status.LOST, now)
        else:
            completed = complete_if_solved(game, board, now)
    entry = board_entry(
        game,
        board,
        now,
        client_move_id=client_move_id,
        kind=kind,
        cell=cell,
        value=value,
        previous=previous,
        correct=correct,
        response={"correct": correct, "conflicts": conflicts, "completed": completed},
    )
    if not save(game, entry, seen=seen):
        return None
    return MoveResult(correct, conflicts, completed, False, game)


def _colour_play(
    game: Game, *, cell: int, value: int, client_move_id: uuid.UUID
) -> MoveResult | None:
    """Toggle one colour of a cell (0 clears the cell's colours): looks only, undoable."""
    seen = seen_of(game)
    board = board_of(game)
    colours = sorted(set(board.colours.get(str(cell), [])) ^ {value}) if value else []
    board.set_colours(cell, colours)
    response = {"correct": None, "conflicts": [], "completed": False}
    entry = board_entry(
        game,
        board,
        timezone.now(),
        client_move_id=client_move_id,
        kind=MoveKind.COLOUR,
        cell=cell,
        value=value,
        previous=board.value(cell),
        correct=None,
        response=response,
    )
    if not save(game, entry, seen=seen):
        return None
    return MoveResult(None, [], False, False, game)


def _cell_name(game: Game, cell: int) -> str:
    return cell_name(game.puzzle.shape, cell)


# --- Undo and redo -------------------------------------------------------------


def _walk_log(game: Game, move: Move, *, forward: bool) -> Move:
    """Play a logged move again (redo, ``forward``) or take it back (undo): the board, the
    move's ``undone`` mark and the undo and redo depths. Returns the undo or redo's own
    log entry, with the changes it made."""
    seen = seen_of(game)
    board = board_of(game)
    board.replay(move.changes, forward=forward)
    game.entries = board.entries
    game.notes = board.notes
    game.corners = board.corners
    game.colours = board.colours
    Move.objects.filter(pk=move.pk).update(undone=not forward)
    step = 1 if forward else -1
    game.undo_depth += step
    game.redo_depth -= step
    now = timezone.now()
    if forward:
        complete_if_solved(game, board, now)
    entry = log_entry(
        game,
        now,
        kind=MoveKind.REDO if forward else MoveKind.UNDO,
        value=move.seq,
        changes=board.changes,
    )
    save_locked(game, entry, seen=seen)
    return entry


def game_undo(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Take back the last move still on the log. Mistakes it made stay counted."""
    return _game_walk(game_id, player, version, forward=False)


def game_redo(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Play the last undone move again (it counts no new mistake); a new move ends redo."""
    return _game_walk(game_id, player, version, forward=True)


@transaction.atomic
def _game_walk(game_id: int, player: Player, version: int | None, *, forward: bool) -> Game:
    game = game_locked(game_id, player)
    check_playable(game)
    check_version(game, version)
    depth = game.redo_depth if forward else game.undo_depth
    # The next to undo is the newest move not undone; the undone moves still redoable are
    # the newest undone ones, and the next to redo is the oldest of those.
    move = None
    if depth:
        logged = Move.objects.filter(game=game, in_log=True, undone=forward).order_by("-seq")
        move = logged[depth - 1 : depth].first() if forward else logged.first()
    if move is None:  # with a depth: the counters and the log disagree (never expected)
        if forward:
            raise MoveRejected(_("There is no move to redo."), code="nothing_to_redo")
        raise MoveRejected(_("There is no move to undo."), code="nothing_to_undo")
    _walk_log(game, move, forward=forward)
    return game


# --- Aids for the browser page: auto notes and restart -----------------------------------


@transaction.atomic
def game_auto_notes(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Pencil every empty cell's candidates in. An aid: each use that changes the notes
    counts in ``aids`` and costs score (see play.scoring); undo takes the notes back but
    not the aid."""
    game = game_locked(game_id, player)
    check_playable(game)
    check_version(game, version)
    if game.race_id is not None:
        raise MoveRejected(_("Auto notes are off in a race."), code="aids_off_in_race")
    seen = seen_of(game)
    board = board_of(game)
    for cell in range(len(board.cells)):
        if not board.value(cell):
            board.set_notes(cell, board.candidates(cell))
    if board.changes:
        game.aids += 1
    now = timezone.now()
    entry = board_entry(game, board, now, kind=MoveKind.AUTO_NOTES)
    save_locked(game, entry, seen=seen)
    return game


@transaction.atomic
def game_restart(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Clear every entry and note the player made; the clock, mistakes, hints and aids
    stay. One undoable move."""
    game = game_locked(game_id, player)
    check_playable(game)
    check_version(game, version)
    seen = seen_of(game)
    board = board_of(game)
    givens = game.puzzle.givens
    for cell, given in enumerate(givens):
        board.set_notes(cell, [])
        board.set_corners(cell, [])
        board.set_colours(cell, [])
        if given == ".":
            board.set_value(cell, 0)
    now = timezone.now()
    entry = board_entry(game, board, now, kind=MoveKind.RESTART)
    save_locked(game, entry, seen=seen)
    return game
