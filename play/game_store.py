"""Where a game is read and written: one read, one conditional write, written as SQL once
(see sudokusite.rows).

``game_read`` reads the player's game with its puzzle (and, for a move, the log entry
already stored under the client's move id, for a retry) in one SELECT, row-locked when
asked. ``game_write`` is the only way a game row is written: it updates the game on
condition that it still has the version and move count that were read and no score, and
inserts the write's log entry (a ``Move``); on PostgreSQL one statement (the UPDATE in a
data-modifying WITH, the INSERT fed by it), so a write outside a transaction needs no BEGIN
or COMMIT round trips; elsewhere (SQLite) the same two statements in a transaction.

Who owns a game is written here once (``owner_filter`` for the ORM, ``_OWNER_SQL`` for the
read), for a user id or a guest key.
"""

from __future__ import annotations

import uuid
from functools import cache
from typing import Any

from django.db import transaction
from django.db.models import Q

from puzzles.models import Puzzle
from sudokusite.rows import FieldValues, ModelColumns, NewInstances, db

from .models import Game, Move

# What a write to a game may change; the rest (player, puzzle, created) never does.
SAVED_FIELDS = (
    "entries",
    "notes",
    "corners",
    "colours",
    "status",
    "mistakes",
    "hints_used",
    "hint",
    "hint_stage",
    "hint_key",
    "aids",
    "elapsed_ms",
    "running_since",
    "score",
    "version",
    "move_count",
    "undo_depth",
    "redo_depth",
    "finished",
    "updated",
)

# A game's owner: a user, or (with no user) a guest key. The read's conditions, by kind;
# ``owner_filter`` is the same rule for the ORM.
_OWNER_SQL = {
    "user": "g.{user_id} = %s",
    "guest": "g.{user_id} IS NULL AND g.{guest_key} = %s",
}


def _owner(user_id: int | None, guest_key: str) -> tuple[str, Any] | None:
    if user_id is not None:
        return "user", user_id
    if guest_key:
        return "guest", guest_key
    return None


def owner_filter(*, user_id: int | None, guest_key: str = "") -> Q:
    """The games of a user (``user_id``) or of a guest (``guest_key``); none for neither."""
    owner = _owner(user_id, guest_key)
    if owner is None:
        return Q(pk__in=[])
    kind, who = owner
    return Q(user_id=who) if kind == "user" else Q(user__isnull=True, guest_key=who)


def _q(name: str) -> str:
    return db().ops.quote_name(name)


# What the bank keeps about a puzzle that no game needs (read on first use, if ever).
_PUZZLE_DEFERRED = ("techniques", "canonical_key", "created")


@cache
def _columns() -> tuple[ModelColumns, ModelColumns, ModelColumns]:
    return (
        ModelColumns(Game, "g"),
        ModelColumns(Puzzle, "p", deferred=_PUZZLE_DEFERRED),
        ModelColumns(Move, "m"),
    )


@cache
def _new_moves() -> NewInstances:
    return NewInstances(Move)


def move_new(**values: Any) -> Move:
    """A log entry, as ``Move(**values)`` makes it at a fraction of the cost."""
    return _new_moves().make(**values)  # type: ignore[return-value]


@cache
def _read_sql(owner: str, lock: bool, with_move: bool) -> str:
    """The read for a game owned by a user or a guest. Its parameters: the client move id
    (``with_move`` only), the game id, then the owner."""
    conn = db()
    game, puzzle, move = (c.select_list(conn) for c in _columns())
    selected = f"{game}, {puzzle}"
    move_join = ""
    if with_move:
        selected += f", {move}"
        move_join = (
            f"LEFT OUTER JOIN {_q(Move._meta.db_table)} m "
            f"ON m.{_q('game_id')} = g.{_q('id')} AND m.{_q('client_move_id')} = %s "
        )
    who = _OWNER_SQL[owner].format(user_id=_q("user_id"), guest_key=_q("guest_key"))
    sql = (
        f"SELECT {selected} "
        f"FROM {_q(Game._meta.db_table)} g "
        f"INNER JOIN {_q(Puzzle._meta.db_table)} p ON p.{_q('id')} = g.{_q('puzzle_id')} "
        f"{move_join}"
        f"WHERE g.{_q('id')} = %s AND {who}"
    )
    if lock and conn.features.has_select_for_update:
        # The game only: many games share one puzzle (the daily one).
        sql += " FOR UPDATE OF g"
    return sql


def game_read(
    game_id: int,
    *,
    user_id: int | None,
    guest_key: str = "",
    client_move_id: uuid.UUID | None = None,
    lock: bool = False,
) -> tuple[Game, Move | None] | None:
    """The game of that user or guest with its puzzle, and the log entry stored under
    ``client_move_id`` if one is given and stored; None when the game is not theirs (or
    does not exist). ``lock`` row-locks the game until the transaction ends."""
    owner = _owner(user_id, guest_key)
    if owner is None:
        return None
    kind, who = owner
    conn = db()
    game_cols, puzzle_cols, move_cols = _columns()
    params: list[Any] = [game_id, who]
    with_move = client_move_id is not None
    if with_move:
        field = Move._meta.get_field("client_move_id")
        params.insert(0, field.get_db_prep_value(client_move_id, conn))
    with conn.cursor() as cursor:
        cursor.execute(_read_sql(kind, lock, with_move), params)
        row = cursor.fetchone()
    if row is None:
        return None
    game = game_cols.load(conn, row, 0)
    game.puzzle = puzzle_cols.load(conn, row, game_cols.width)
    stored_at = game_cols.width + puzzle_cols.width
    stored = None
    if with_move and row[stored_at] is not None:
        stored = move_cols.load(conn, row, stored_at)
    return game, stored


@cache
def _game_fields() -> FieldValues:
    return FieldValues([Game._meta.get_field(name) for name in SAVED_FIELDS])


@cache
def _move_fields() -> FieldValues:
    """The INSERT's columns, the game's first (the PostgreSQL statement takes it from the
    UPDATE)."""
    fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    fields.sort(key=lambda f: f.name != "game")
    return FieldValues(fields)


@cache
def _update_sql() -> str:
    sets = ", ".join(f"{_q(f.column)} = %s" for f in _game_fields().fields)
    # No score yet: a game is scored once, whatever else happens.
    return (
        f"UPDATE {_q(Game._meta.db_table)} SET {sets} "
        f"WHERE {_q('id')} = %s AND {_q('version')} = %s AND {_q('move_count')} = %s "
        f"AND {_q('score')} IS NULL"
    )


@cache
def _insert_sql() -> str:
    fields = _move_fields().fields
    columns = ", ".join(_q(f.column) for f in fields)
    values = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {_q(Move._meta.db_table)} ({columns}) VALUES ({values})"


@cache
def _save_sql() -> str:
    """PostgreSQL: UPDATE the game and, only if that found the version read, INSERT the entry
    (its game id comes from the UPDATE). Values in a SELECT list carry no column type, hence
    the casts."""
    fields = _move_fields().fields
    columns = ", ".join(_q(f.column) for f in fields)
    values = ", ".join([f"saved.{_q('id')}", *(f"%s::{f.cast_db_type(db())}" for f in fields[1:])])
    return (
        f"WITH saved AS ({_update_sql()} RETURNING {_q('id')}) "
        f"INSERT INTO {_q(Move._meta.db_table)} ({columns}) SELECT {values} FROM saved"
    )


def game_write(game: Game, move: Move, *, seen_version: int, seen_move_count: int) -> bool:
    """Write ``game`` (whose move count, and version if the write changed what a player
    sees, the caller has already raised) and insert its log entry ``move``, both only if
    the stored game still has ``seen_version``, ``seen_move_count`` and no score. False
    when it does not (another request wrote first): nothing was written."""
    conn = db()
    game_values = [*_game_fields().of(conn, game), game.pk, seen_version, seen_move_count]
    move_values = _move_fields().of(conn, move, add=True)
    with conn.cursor() as cursor:
        if conn.vendor == "postgresql":
            cursor.execute(_save_sql(), [*game_values, *move_values[1:]])
            return cursor.rowcount == 1
        with transaction.atomic(using=conn.alias):
            cursor.execute(_update_sql(), game_values)
            if cursor.rowcount != 1:
                return False
            cursor.execute(_insert_sql(), move_values)
    return True
