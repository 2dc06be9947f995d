"""The steps every write to a game shares: who plays, the checks (playable, version), the
clock, the end of a game, the log entry, and the one save (play.game_store).

A write reads the game (``game_locked`` for the writes that lock), checks it, changes it,
makes its log entry with ``log_entry`` (which counts the write on the game) and saves the
two with ``save``: one conditional write whatever the write is.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import gettext as _

from puzzles.variants import peers_of
from sudokusite.errors import Conflict

from . import ending
from .board import Board
from .errors import GameFinished, GameNotFound, GamePaused, StaleVersion, TooManyMoves
from .game_store import game_read, game_write, move_new, owner_filter
from .models import FINISHED, Game, Move, Status
from .scoring import game_score

GUEST_SESSION_KEY = "play_guest_key"


@dataclass(frozen=True)
class Player:
    """Who is playing: a signed-in user, or a guest known by the key in their session."""

    user: AbstractBaseUser | None = None
    guest_key: str = ""
    # A guest's client address, for the limits on work per client (play/limits.py).
    address: str = field(default="", compare=False)

    @property
    def user_id(self) -> int | None:
        return self.user.pk if self.user is not None else None

    def owns(self) -> Q:
        """The ORM filter for this player's games (play.game_store's one definition)."""
        return owner_filter(user_id=self.user_id, guest_key=self.guest_key)


def guest_key_get(*, request: HttpRequest, create: bool = False) -> str:
    """The guest key in this browser session, made on first use when ``create``."""
    key = request.session.get(GUEST_SESSION_KEY, "")
    if not key and create:
        key = secrets.token_urlsafe(24)
        request.session[GUEST_SESSION_KEY] = key
    return key


def game_locked(game_id: int, player: Player) -> Game:
    """The player's game with its puzzle, row-locked until the transaction ends; 404 for
    anyone else's."""
    found = game_read(game_id, user_id=player.user_id, guest_key=player.guest_key, lock=True)
    if found is None:
        raise GameNotFound()
    return found[0]


def check_playable(game: Game) -> None:
    if game.status in FINISHED:
        raise GameFinished(
            _("The game is %(status)s: it is over.")
            % {"status": str(game.get_status_display()).lower()}
        )
    if game.status == Status.PAUSED:
        raise GamePaused()


def check_version(game: Game, expected: int | None) -> None:
    if expected is not None and expected != game.version:
        raise StaleVersion(game, expected)


def tick(game: Game, now: datetime) -> None:
    """Advance the clock to ``now`` (the server's own time)."""
    if game.running_since is not None:
        game.elapsed_ms = game.elapsed_at(now)
        game.running_since = now


def finish(game: Game, status: str, now: datetime) -> None:
    tick(game, now)
    game.running_since = None
    game.status = status
    game.finished = now
    game.hint = None
    game.hint_stage = 0
    game.hint_key = ""
    if status == Status.COMPLETED:
        game.score = game_score(
            difficulty=game.puzzle.difficulty,
            size=game.puzzle.size,
            elapsed_ms=game.elapsed_ms,
            mistakes=game.mistakes,
            hint_stages=game.hints_used,
            aids=game.aids,
        )


def complete_if_solved(game: Game, board: Board, now: datetime) -> bool:
    if "." in board.cells or board.entries != game.puzzle.solution:
        return False
    finish(game, Status.COMPLETED, now)
    return True


def board_of(game: Game) -> Board:
    puzzle = game.puzzle
    peers = peers_of(puzzle) if puzzle.rules else None
    return Board.of(
        puzzle.shape, game.entries, game.notes, peers, corners=game.corners, colours=game.colours
    )


def log_entry(
    game: Game,
    now: datetime,
    *,
    kind: str,
    changes: dict[str, Any] | None = None,
    in_log: bool = False,
    changed: bool = True,
    **fields: Any,
) -> Move:
    """Count a write at ``now`` on the game (its clock, move count, and version when the
    write ``changed`` what a player sees) and make its log entry (saved by ``save``).

    A game takes ``GAME_MOVES_PER_CELL`` writes per cell of its grid; past that only giving
    up (TooManyMoves): the count is on the row already read, so the bound costs no query."""
    if kind != "abandon":
        allowed = settings.GAME_MOVES_PER_CELL * game.puzzle.size * game.puzzle.size
        if game.move_count >= allowed:
            raise TooManyMoves(allowed)
    tick(game, now)
    game.move_count += 1
    if changed:
        game.version += 1
    game.updated = now
    return move_new(
        game=game,
        seq=game.move_count,
        kind=kind,
        changes=changes or {},
        in_log=in_log,
        elapsed_ms=game.elapsed_ms,
        **fields,
    )


def board_entry(game: Game, board: Board, now: datetime, **fields: Any) -> Move:
    """The log entry of a change the player made to the board (a move, a hint applied,
    auto notes, a restart): one that changed something keeps the new board, goes on the
    undo log and ends redo; one that changed nothing leaves the version alone, so another
    device's next write is not refused as stale (the move count still guards the write)."""
    changes = board.changes
    if changes:
        game.entries = board.entries
        game.notes = board.notes
        game.corners = board.corners
        game.colours = board.colours
        game.undo_depth += 1
        game.redo_depth = 0
    return log_entry(
        game, now, changes=changes, in_log=bool(changes), changed=bool(changes), **fields
    )


def save(game: Game, entry: Move, *, seen: tuple[int, int]) -> bool:
    """Write the game and its log entry if the game still has the version and move count
    ``seen`` (read before this write counted itself); False, with nothing written, if
    another write came first. A write that ends the game runs with ``game_ended`` in one
    transaction, the hook only once the write has succeeded; any other write outside a
    transaction stays a single statement on PostgreSQL."""
    version, move_count = seen
    if game.status not in FINISHED:
        return game_write(game, entry, seen_version=version, seen_move_count=move_count)
    with transaction.atomic():
        if not game_write(game, entry, seen_version=version, seen_move_count=move_count):
            return False
        ending.game_ended(game)
    return True


def save_locked(game: Game, entry: Move, *, seen: tuple[int, int]) -> None:
    """``save`` for a write that holds the row lock (so cannot lose); Conflict if it did."""
    if not save(game, entry, seen=seen):
        raise Conflict(_("The game changed while this request ran: try again."))


def seen_of(game: Game) -> tuple[int, int]:
    """The version and move count a write read, for ``save``'s condition."""
    return game.version, game.move_count
