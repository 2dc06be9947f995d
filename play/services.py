"""Every write to a game, in the order the server owns a move (after lichess):

find the player's game (the query only finds the player's own), check its status and the
version the client saw, check the move against the rules and the stored solution, advance
the clock from the server's own ``now()``, save the move and the board, then answer.

Most writes lock the game row for the transaction. A move, the write a game makes most,
is optimistic instead (see ``move_apply``): two statements, the read of the game with its
puzzle and any move stored under the client's move id, and one write of the game and the
move on condition that the game's version is still the one read (play.move_store).
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from puzzles.daily import daily_puzzle_get
from puzzles.models import Difficulty, Puzzle
from puzzles.selectors import daily_puzzle_ids, puzzle_pick
from solver import cell_name
from solving.steps import hint_where, step_localized
from sudokusite.errors import Conflict
from sudokusite.unique import insert_or_existing

from .board import Board, position_key, symbol
from .errors import (
    GameFinished,
    GameNotFound,
    GamePaused,
    HintUnavailable,
    IdempotencyConflict,
    MoveRejected,
    NoPuzzleAvailable,
    StaleVersion,
)
from .models import FINISHED, UNFINISHED, Game, Move, MoveKind, Status
from .move_store import SAVED_FIELDS, game_for_move, move_save
from .scoring import game_score

if TYPE_CHECKING:
    from accounts.auth import PresentedToken

GUEST_SESSION_KEY = "play_guest_key"
HINT_LEVELS = (1, 2, 3)
# Search nodes and technique passes one hint may use before it gives up.
HINT_BUDGET = 200_000


@dataclass(frozen=True)
class Player:
    """Who is playing: a signed-in user, or a guest known by the key in their session.

    For a move only, ``token`` may stand for the user: an API token not yet checked, which
    the move's read of the game checks in the same statement (play.move_store); the read
    raises ``accounts.auth.TokenNotVerified`` unless the token passes."""

    user: AbstractBaseUser | None = None
    guest_key: str = ""
    token: PresentedToken | None = None

    def owns(self) -> Q:
        if self.user is not None:
            return Q(user=self.user)
        if self.guest_key:
            return Q(user__isnull=True, guest_key=self.guest_key)
        return Q(pk__in=[])


@dataclass(frozen=True)
class MoveResult:
    correct: bool | None
    conflicts: list[int]
    completed: bool
    replayed: bool
    game: Game


@dataclass(frozen=True)
class HintResult:
    level: int
    hint: dict[str, Any]
    game: Game


# --- Guests ----------------------------------------------------------------


def guest_key_get(*, request: HttpRequest, create: bool = False) -> str:
    """The guest key in this browser session, made on first use when ``create``."""
    key = request.session.get(GUEST_SESSION_KEY, "")
    if not key and create:
        key = secrets.token_urlsafe(24)
        request.session[GUEST_SESSION_KEY] = key
    return key


@transaction.atomic
def game_claim_guest_games(*, request: HttpRequest, user: AbstractBaseUser) -> int:
    """Give the games a guest played in this session to ``user`` (on sign-up or log-in).

    Only the user's first game of each puzzle counts on leaderboards, so a claimed game of
    a puzzle the user had already played is unranked. A player has one unfinished game of
    a puzzle at most: where the guest and the account both have one, the one played last
    goes on and the other is abandoned (it stays in the history).
    """
    key = request.session.pop(GUEST_SESSION_KEY, "")
    if not key:
        return 0
    games = list(
        Game.objects.select_for_update()
        .filter(user__isnull=True, guest_key=key)
        .order_by("created", "id")
    )
    if not games:
        return 0
    # The account's own games of these puzzles: played before, and perhaps unfinished.
    own = Game.objects.select_for_update().filter(
        user=user, puzzle_id__in={g.puzzle_id for g in games}
    )
    seen = {g.puzzle_id for g in own}
    unfinished = {g.puzzle_id: g for g in own if g.status in UNFINISHED}
    now = timezone.now()
    for game in games:
        game.user = user
        game.guest_key = ""
        game.ranked = game.puzzle_id not in seen
        seen.add(game.puzzle_id)
        other = unfinished.get(game.puzzle_id)
        if other is None or game.status not in UNFINISHED:
            continue
        if (other.updated, other.pk) < (game.updated, game.pk):
            # The guest's game was played last: it goes on, the account's stops.
            _finish(other, Status.ABANDONED, now)
            _save(other, now)
            unfinished[game.puzzle_id] = game
        else:
            _finish(game, Status.ABANDONED, now)
            _next_version(game, now)
    Game.objects.bulk_update(games, ["user", "guest_key", "ranked", *SAVED_FIELDS])
    return len(games)


# --- Starting a game -------------------------------------------------------


def _puzzle_from_text(text: str) -> Puzzle:
    """The bank's puzzle for a grid typed in; a 400 naming the problem for a grid that
    cannot be read or has no single solution, a 422 too_hard for one that uses up the
    solver's work budget (the check and the grading are budgeted like the solver API's)."""
    from solving.services import InvalidGrid, puzzle_from_entered_grid

    try:
        puzzle, _ = puzzle_from_entered_grid(grid_text=text)
    except InvalidGrid as exc:
        raise ValidationError({"grid": [exc.message]}) from None
    return puzzle


def _played_puzzles(player: Player) -> Any:
    return Game.objects.filter(player.owns()).values("puzzle_id")


def _unfinished_game(player: Player, puzzle: Puzzle) -> Game | None:
    return (
        Game.objects.select_related("puzzle")
        .filter(player.owns(), puzzle=puzzle, status__in=UNFINISHED)
        .first()
    )


@transaction.atomic
def game_start(
    *,
    player: Player,
    puzzle_id: int | None = None,
    difficulty: str | None = None,
    size: int = 9,
    daily: bool = False,
    mistake_limit: int | None = None,
    grid_text: str | None = None,
) -> tuple[Game, bool]:
    """Start a game of a given puzzle, of the daily puzzle, of a puzzle the player typed in
    (``grid_text``, any format the solver parses; stored in the bank, or the bank's
    equivalent puzzle when it has one), or of a puzzle of that level and size the player has
    not played yet (any of that level once they have played all, but not one they are
    playing). Returns the game and whether it was made now.

    A player has one unfinished game of a puzzle at most: starting that puzzle again
    returns the game they have (``mistake_limit`` is the one it was started with), so a
    second game cannot be abandoned to show the first one's solution, and a retried start
    makes no second game."""
    if player.user is None and not player.guest_key:
        raise ValueError("a game needs a user or a guest key")
    if grid_text is not None:
        puzzle = _puzzle_from_text(grid_text)
    elif puzzle_id is not None:
        puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
        if puzzle is None:
            raise ValidationError({"puzzle": [_("There is no puzzle %(id)s.") % {"id": puzzle_id}]})
    elif daily:
        puzzle = daily_puzzle_get(day=timezone.localdate(), size=size)
        if puzzle is None:
            raise NoPuzzleAvailable(
                _("There is no daily %(size)sx%(size)s puzzle yet.") % {"size": size}
            )
    else:
        assert difficulty is not None
        played = _played_puzzles(player)
        playing = played.filter(status__in=UNFINISHED)
        # Today's and tomorrow's daily puzzles are kept for the daily game while the
        # level has other puzzles: starting one here would spoil it, or mean a second
        # game of it later.
        dailies = daily_puzzle_ids(since=timezone.localdate())
        puzzle = (
            puzzle_pick(size=size, difficulty=difficulty, exclude=(played, dailies))
            or puzzle_pick(size=size, difficulty=difficulty, exclude=(playing, dailies))
            or puzzle_pick(size=size, difficulty=difficulty, exclude=(playing,))
        )
        if puzzle is None:
            if puzzle_pick(size=size, difficulty=difficulty) is not None:
                raise NoPuzzleAvailable(
                    _(
                        "You are playing every %(level)s %(size)sx%(size)s puzzle in the bank: "
                        "continue one of those games, or try another level."
                    )
                    % {"level": _level(difficulty), "size": size}
                )
            raise NoPuzzleAvailable(
                _("The bank has no %(level)s %(size)sx%(size)s puzzle yet: try another level.")
                % {"level": _level(difficulty), "size": size}
            )
    existing = _unfinished_game(player, puzzle)
    if existing is not None:
        return existing, False
    ranked = (
        player.user is not None and not _played_puzzles(player).filter(puzzle_id=puzzle.pk).exists()
    )
    now = timezone.now()
    game = Game(
        user=player.user,
        guest_key="" if player.user is not None else player.guest_key,
        puzzle=puzzle,
        entries=puzzle.givens,
        notes={},
        status=Status.IN_PROGRESS,
        mistake_limit=mistake_limit,
        running_since=now,
        ranked=ranked,
    )
    # The same player may be starting this puzzle at this moment (a retry, a second tab).
    return insert_or_existing(game, lambda: _unfinished_game(player, puzzle))


# --- The steps every write shares -------------------------------------------


def _lock(game_id: int, player: Player) -> Game:
    """The player's game, row-locked until the transaction ends; 404 for anyone else's.

    ``of=("self",)`` locks the game only: many games share one puzzle (the daily one).
    """
    games = (
        Game.objects.select_for_update(of=("self",))
        .select_related("puzzle")
        .filter(player.owns(), pk=game_id)
        .order_by()
    )
    game = next(iter(games[:1]), None)
    if game is None:
        raise GameNotFound()
    return game


def _level(difficulty: str) -> str:
    return str(dict(Difficulty.choices).get(difficulty, difficulty)).lower()


def _check_playable(game: Game) -> None:
    if game.status in FINISHED:
        raise GameFinished(
            _("The game is %(status)s: it is over.")
            % {"status": str(game.get_status_display()).lower()}
        )
    if game.status == Status.PAUSED:
        raise GamePaused()


def _check_version(game: Game, expected: int | None) -> None:
    if expected is not None and expected != game.version:
        raise StaleVersion(game, expected)


def _tick(game: Game, now: datetime) -> None:
    """Advance the clock to ``now`` (the server's own time)."""
    if game.running_since is not None:
        game.elapsed_ms = game.elapsed_at(now)
        game.running_since = now


def _finish(game: Game, status: str, now: datetime) -> None:
    _tick(game, now)
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


def _complete_if_solved(game: Game, board: Board, now: datetime) -> bool:
    if "." in board.cells or board.entries != game.puzzle.solution:
        return False
    _finish(game, Status.COMPLETED, now)
    return True


def _next_version(game: Game, now: datetime, *, changed: bool = True) -> int:
    """Raise the game's version for a write at ``now`` (only if the write ``changed`` what
    a player sees); returns the version read."""
    seen = game.version
    if changed:
        game.version = seen + 1
    game.updated = now
    return seen


def _save(game: Game, now: datetime) -> None:
    """One conditional UPDATE: the version we read, and no score yet if this completes it.

    The row lock already serializes writers; the conditions make a second score or a lost
    update impossible even for a writer that skipped it.
    """
    seen = _next_version(game, now)
    condition = Q(pk=game.pk, version=seen)
    if game.status == Status.COMPLETED:
        condition &= Q(score__isnull=True)
    updated = Game.objects.filter(condition).update(**{f: getattr(game, f) for f in SAVED_FIELDS})
    if updated != 1:
        raise Conflict(_("The game changed while this request ran: try again."))


def _board(game: Game) -> Board:
    return Board.of(game.puzzle.shape, game.entries, game.notes)


def _store_board(game: Game, board: Board) -> None:
    game.entries = board.entries
    game.notes = board.notes


def _next_move(game: Game, board: Board, **fields: Any) -> Move:
    """Count a move and make its log entry (not yet saved) with the board's changes; one
    that changed the board goes on the undo log, keeps the new board and ends redo."""
    changes = board.changes
    game.move_count += 1
    if changes:
        _store_board(game, board)
        game.undo_depth += 1
        game.redo_depth = 0
    return Move(game=game, seq=game.move_count, changes=changes, in_log=bool(changes), **fields)


def _log_move(game: Game, board: Board, **fields: Any) -> bool:
    """Count and store a move (see ``_next_move``). True when it changed the board."""
    move = _next_move(game, board, **fields)
    move.save(force_insert=True)
    return move.in_log


# --- Moves -------------------------------------------------------------------


def _check_range(game: Game, *, cell: int, value: int) -> None:
    n = game.puzzle.size
    if not 0 <= cell < n * n:
        raise ValidationError(
            {
                "cell": [
                    _("A %(n)sx%(n)s puzzle has cells 0 to %(last)s.") % {"n": n, "last": n * n - 1}
                ]
            }
        )
    if not 0 <= value <= n:
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
) -> MoveResult:
    """Place or clear a value, or toggle a note (``value`` 0 clears the cell's notes).

    A wrong value counts a mistake and stays on the board until the player changes it;
    the answer names the cells it clashes with. A retried ``client_move_id`` returns the
    stored answer without applying the move again.

    The move is played optimistically first: the game is read without a lock and written
    only if its version is still the one read (two statements, no transaction to open).
    A move that loses that race to another device's write is played again with the row
    locked, which cannot lose; so every move lands once, in order, as with a lock alone,
    and an uncontended move (nearly all of them) costs no lock and no round trips for
    BEGIN and COMMIT.
    """
    move = {"client_move_id": client_move_id, "kind": kind, "cell": cell, "value": value}
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
) -> MoveResult | None:
    """Check and apply one move; None when the game changed after it was read (only
    possible without ``lock``), in which case nothing was written."""
    found = game_for_move(game_id, player, client_move_id, lock=lock)
    if found is None:
        raise GameNotFound()
    game, stored = found
    if stored is not None:
        return _replay(stored, game, kind=kind, cell=cell, value=value)
    _check_playable(game)
    _check_version(game, version)
    _check_range(game, cell=cell, value=value)
    puzzle = game.puzzle
    if puzzle.givens[cell] != ".":
        raise MoveRejected(
            _("Cell %(cell)s is a given.") % {"cell": _cell_name(game, cell)}, code="cell_is_given"
        )

    board = _board(game)
    previous = board.value(cell)
    correct: bool | None = None
    conflicts: list[int] = []
    now = timezone.now()
    if kind == MoveKind.VALUE:
        if value:
            correct = puzzle.solution[cell] == symbol(value)
            conflicts = board.peers_holding(cell, value)
        if previous != value:
            board.set_value(cell, value)
            if value:
                board.set_notes(cell, [])
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
        if value:
            notes = set(board.cell_notes(cell)) ^ {value}
            conflicts = board.peers_holding(cell, value)
        else:
            notes = set()
        board.set_notes(cell, notes)

    seen_moves = game.move_count
    completed = False
    if board.changes:
        if correct is False and game.mistake_limit and game.mistakes >= game.mistake_limit:
            _finish(game, Status.LOST, now)
        else:
            completed = _complete_if_solved(game, board, now)
    _tick(game, now)
    entry = _next_move(
        game,
        board,
        client_move_id=client_move_id,
        kind=kind,
        cell=cell,
        value=value,
        previous=previous,
        correct=correct,
        response={"correct": correct, "conflicts": conflicts, "completed": completed},
    )
    # A move that changed nothing (the value already there, an empty cell cleared) leaves
    # the version alone, so another device's next move is not refused as stale; the move
    # count it raises keeps guarding the write.
    seen = _next_version(game, now, changed=bool(board.changes))
    if not move_save(game, entry, seen_version=seen, seen_move_count=seen_moves):
        return None
    return MoveResult(correct, conflicts, completed, False, game)


def _cell_name(game: Game, cell: int) -> str:
    return cell_name(game.puzzle.shape, cell)


# --- Undo and redo -------------------------------------------------------------


def _walk_log(game: Game, move: Move, *, forward: bool) -> Board:
    """Play a logged move again (redo, ``forward``) or take it back (undo): the board, the
    move's ``undone`` mark and the undo and redo depths. Returns the new board."""
    board = _board(game)
    board.replay(move.changes, forward=forward)
    _store_board(game, board)
    Move.objects.filter(pk=move.pk).update(undone=not forward)
    step = 1 if forward else -1
    game.undo_depth += step
    game.redo_depth -= step
    return board


@transaction.atomic
def game_undo(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Take back the last move still on the log. Mistakes it made stay counted."""
    game = _lock(game_id, player)
    _check_playable(game)
    _check_version(game, version)
    if game.undo_depth == 0:
        raise MoveRejected(_("There is no move to undo."), code="nothing_to_undo")
    move = Move.objects.filter(game=game, in_log=True, undone=False).order_by("-seq").first()
    if move is None:  # the counters and the log disagree: never expected
        raise MoveRejected(_("There is no move to undo."), code="nothing_to_undo")
    _walk_log(game, move, forward=False)
    now = timezone.now()
    _tick(game, now)
    _save(game, now)
    return game


@transaction.atomic
def game_redo(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Play the last undone move again (it counts no new mistake); a new move ends redo."""
    game = _lock(game_id, player)
    _check_playable(game)
    _check_version(game, version)
    if game.redo_depth == 0:
        raise MoveRejected(_("There is no move to redo."), code="nothing_to_redo")
    # Undone moves still redoable are the newest undone ones; the next to redo is the
    # oldest of those.
    move = (
        Move.objects.filter(game=game, in_log=True, undone=True)
        .order_by("-seq")[game.redo_depth - 1 : game.redo_depth]
        .first()
    )
    if move is None:
        raise MoveRejected(_("There is no move to redo."), code="nothing_to_redo")
    board = _walk_log(game, move, forward=True)
    now = timezone.now()
    _complete_if_solved(game, board, now)
    _tick(game, now)
    _save(game, now)
    return game


# --- The clock -------------------------------------------------------------------


@transaction.atomic
def game_pause(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Stop the clock and hide the board. Pausing a paused game changes nothing."""
    game = _lock(game_id, player)
    if game.status in FINISHED:
        raise GameFinished()
    if game.status == Status.PAUSED:
        return game
    _check_version(game, version)
    now = timezone.now()
    _tick(game, now)
    game.running_since = None
    game.status = Status.PAUSED
    _save(game, now)
    return game


@transaction.atomic
def game_resume(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Start the clock again. Resuming a running game changes nothing."""
    game = _lock(game_id, player)
    if game.status in FINISHED:
        raise GameFinished()
    if game.status == Status.IN_PROGRESS:
        return game
    _check_version(game, version)
    now = timezone.now()
    game.status = Status.IN_PROGRESS
    game.running_since = now
    _save(game, now)
    return game


@transaction.atomic
def game_abandon(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Give up: the clock stops and the solution may be shown."""
    game = _lock(game_id, player)
    if game.status in FINISHED:
        raise GameFinished()
    _check_version(game, version)
    now = timezone.now()
    _finish(game, Status.ABANDONED, now)
    _save(game, now)
    return game


# --- Aids for the browser page: auto notes and restart -----------------------------------


@transaction.atomic
def game_auto_notes(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Pencil every empty cell's candidates in. An aid: each use that changes the notes
    counts in ``aids`` and costs score (see play.scoring); undo takes the notes back but
    not the aid."""
    game = _lock(game_id, player)
    _check_playable(game)
    _check_version(game, version)
    board = _board(game)
    for cell in range(len(board.cells)):
        if not board.value(cell):
            board.set_notes(cell, board.candidates(cell))
    if _log_move(game, board, kind=MoveKind.NOTE, response={"aid": "auto_notes"}):
        game.aids += 1
    now = timezone.now()
    _tick(game, now)
    _save(game, now)
    return game


@transaction.atomic
def game_restart(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Clear every entry and note the player made; the clock, mistakes, hints and aids
    stay. One undoable move."""
    game = _lock(game_id, player)
    _check_playable(game)
    _check_version(game, version)
    board = _board(game)
    givens = game.puzzle.givens
    for cell, given in enumerate(givens):
        board.set_notes(cell, [])
        if given == ".":
            board.set_value(cell, 0)
    _log_move(game, board, kind=MoveKind.VALUE, response={"aid": "restart"})
    now = timezone.now()
    _tick(game, now)
    _save(game, now)
    return game


# --- Hints -------------------------------------------------------------------------


def _next_step(game: Game, board: Board) -> dict[str, Any]:
    from solver import BudgetExceeded
    from solver.logic import next_step

    try:
        puzzle = game.puzzle
        step = next_step(
            puzzle.grid(),
            board.grid(),
            board.notes_for_solver(),
            budget=HINT_BUDGET,
            solution=puzzle.solution_grid(),  # checked unique when stored: no search per hint
        )
    except BudgetExceeded as exc:
        raise HintUnavailable(_("This position is too hard for a hint: try a move.")) from exc
    except ValueError as exc:
        raise HintUnavailable(_("No hint can be given for this puzzle.")) from exc
    if step is None:
        raise HintUnavailable(_("The board is solved: there is nothing to hint."))
    return step.to_dict()


def hint_reveal(step: dict[str, Any], level: int) -> dict[str, Any]:
    """What a hint shows at ``level``: 1 where to look, 2 the technique and why, 3 the move.

    Rendered in the active language from the step's parameters (solving.steps), so a hint
    stored while the player read English shows in Chinese once they switch."""
    technique = step["technique"]
    where = hint_where(step)
    step = step_localized(step)
    out: dict[str, Any] = {"level": level, "message": where}
    if technique in ("incorrect_entry", "incorrect_note") or not step["unit_names"]:
        out.update(cells=step["cells"], cell_names=step["cell_names"], units=[], unit_names=[])
    else:
        out.update(units=step["units"], unit_names=step["unit_names"], cells=[], cell_names=[])
    if level >= 2:
        out.update(
            technique=technique,
            name=step["name"],
            message=step["sentence"],
            units=step["units"],
            unit_names=step["unit_names"],
            cells=step["cells"],
            cell_names=step["cell_names"],
        )
    if level >= 3:
        out.update(placements=step["placements"], eliminations=step["eliminations"])
    return out


def _apply_step(board: Board, step: dict[str, Any]) -> None:
    technique = step["technique"]
    if technique == "incorrect_entry":
        for cell in step["cells"]:
            board.set_value(cell, 0)
        return
    if technique == "incorrect_note":
        for cell in step["cells"]:
            board.set_notes(cell, [])
        return
    for pair in step["placements"]:
        board.set_value(pair["cell"], pair["value"])
        board.set_notes(pair["cell"], [])
        board.clear_from_peer_notes(pair["cell"], pair["value"])
    for pair in step["eliminations"]:
        cell, value = pair["cell"], pair["value"]
        if board.value(cell):
            continue
        # A cell without notes gets its candidates written in, less the eliminated value,
        # so the elimination shows on the board and the next hint starts from it.
        notes = set(board.cell_notes(cell)) or board.candidates(cell)
        board.set_notes(cell, notes - {value})


@transaction.atomic
def hint_request(
    *, game_id: int, player: Player, level: int, version: int | None = None
) -> HintResult:
    """Reveal the next logical step in stages; each stage not yet paid for costs score.

    The step is worked out by ``solver.logic.next_step`` from the player's position (board
    and notes) and kept only for that position: after any change it is worked out afresh.
    Asking for level 2 first pays for levels 1 and 2. Level 3 applies the step (placing
    the value or making the eliminations) as an undoable move.
    """
    if level not in HINT_LEVELS:
        raise ValidationError({"level": [_("Choose level 1, 2 or 3.")]})
    game = _lock(game_id, player)
    _check_playable(game)
    _check_version(game, version)
    board = _board(game)
    key = position_key(game.entries, game.notes)
    if game.hint and game.hint_key == key:
        step, stage = game.hint, game.hint_stage
    else:
        step, stage = _next_step(game, board), 0
    revealed = hint_reveal(step, level)
    charge = max(0, level - stage)
    if level < 3 and charge == 0:
        return HintResult(level, revealed, game)
    now = timezone.now()
    game.hints_used += charge
    if level < 3:
        game.hint, game.hint_stage, game.hint_key = step, level, key
    else:
        game.hint, game.hint_stage, game.hint_key = None, 0, ""
        _apply_step(board, step)
        _log_move(
            game,
            board,
            kind=MoveKind.HINT,
            cell=step["cells"][0] if step["cells"] else None,
            value=step["placements"][0]["value"] if step["placements"] else 0,
            response={"hint": revealed},
        )
        _complete_if_solved(game, board, now)
    _tick(game, now)
    _save(game, now)
    return HintResult(level, revealed, game)


def pending_hint(game: Game) -> dict[str, Any] | None:
    """The hint revealed so far for the current position, if any (shown with the game)."""
    if not game.hint or not game.hint_stage:
        return None
    if game.hint_key != position_key(game.entries, game.notes):
        return None
    return hint_reveal(game.hint, game.hint_stage)
