"""The two statements of a move, written as SQL once (see sudokusite.rows).

``game_for_move`` reads the player's game, its puzzle and the move already stored under
the client's move id (for a retry) in one SELECT; for a player known by an API token still
to be checked, the tokens under its prefix with their user too, and checks it there.
``move_save`` writes the move and the game together, on condition that the game still has
the version and move count that were read: on PostgreSQL one statement (the UPDATE in a
data-modifying WITH, the INSERT fed by it), so a move is its own transaction and needs no
BEGIN or COMMIT round trips; elsewhere (SQLite) the same two statements in a transaction.
"""

from __future__ import annotations

import uuid
from functools import cache
from typing import TYPE_CHECKING

from django.db import transaction

from accounts.auth import TokenNotVerified, token_sql, tokens_load
from puzzles.models import Puzzle
from sudokusite.rows import FieldValues, ModelColumns, db

from .models import Game, Move

if TYPE_CHECKING:
    from .services import Player

# What a write to a game may change; the rest (player, puzzle, created) never does.
SAVED_FIELDS = (
    "entries",
    "notes",
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


def _q(name: str) -> str:
    return db().ops.quote_name(name)


@cache
def _columns() -> tuple[ModelColumns, ModelColumns, ModelColumns]:
    return ModelColumns(Game, "g"), ModelColumns(Puzzle, "p"), ModelColumns(Move, "m")


@cache
def _read_sql(owner: str, lock: bool) -> str:
    """The read for a game owned by a user (``user``), a guest (``guest``) or the user of
    a token (``token``: the tokens under the prefix, with their user, come along, one row
    each). Its parameters: the client move id, the game id, then the owner."""
    conn = db()
    game, puzzle, move = (c.select_list(conn) for c in _columns())
    selected = f"{game}, {puzzle}, {move}"
    token_join = ""
    if owner == "token":
        tokens = token_sql()
        selected += f", {tokens.columns}"
        token_join = (
            f"INNER JOIN {tokens.tokens} ON {tokens.user_id} = g.{_q('user_id')} "
            f"{tokens.users_join} "
        )
        who = tokens.prefix_is
    else:
        who = {
            "user": f"g.{_q('user_id')} = %s",
            "guest": f"g.{_q('user_id')} IS NULL AND g.{_q('guest_key')} = %s",
        }[owner]
    sql = (
        f"SELECT {selected} "
        f"FROM {_q(Game._meta.db_table)} g "
        f"INNER JOIN {_q(Puzzle._meta.db_table)} p ON p.{_q('id')} = g.{_q('puzzle_id')} "
        f"{token_join}"
        f"LEFT OUTER JOIN {_q(Move._meta.db_table)} m "
        f"ON m.{_q('game_id')} = g.{_q('id')} AND m.{_q('client_move_id')} = %s "
        f"WHERE g.{_q('id')} = %s AND {who}"
    )
    if lock and conn.features.has_select_for_update:
        # The game only: many games share one puzzle (the daily one).
        sql += " FOR UPDATE OF g"
    return sql


def game_for_move(
    game_id: int, player: Player, client_move_id: uuid.UUID, *, lock: bool = False
) -> tuple[Game, Move | None] | None:
    """The player's game with its puzzle, and the move stored under ``client_move_id`` if
    any; None when the game is not theirs (or does not exist). ``lock`` row-locks the game
    until the transaction ends.

    A player known by ``token`` is checked here, on the token rows read with the game:
    TokenNotVerified unless the token passes (which includes a game that is not its
    user's), and nothing of the game is used then."""
    if player.user is not None:
        owner, who = "user", player.user.pk
    elif player.guest_key:
        owner, who = "guest", player.guest_key
    elif player.token is not None:
        owner, who = "token", player.token.prefix
    else:
        return None
    conn = db()
    game_cols, puzzle_cols, move_cols = _columns()
    move_id = Move._meta.get_field("client_move_id").get_db_prep_value(client_move_id, conn)
    with conn.cursor() as cursor:
        cursor.execute(_read_sql(owner, lock), [move_id, game_id, who])
        rows = cursor.fetchall()
    stored_at = game_cols.width + puzzle_cols.width
    if owner == "token":
        tokens_at = stored_at + move_cols.width
        if not player.token.accept([tokens_load(row, tokens_at) for row in rows]):
            raise TokenNotVerified()
    if not rows:
        return None
    row = rows[0]
    game = game_cols.load(conn, row)
    game.puzzle = puzzle_cols.load(conn, row, game_cols.width)
    stored = move_cols.load(conn, row, stored_at) if row[stored_at] is not None else None
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
    """PostgreSQL: UPDATE the game and, only if that found the version read, INSERT the move
    (its game id comes from the UPDATE). Values in a SELECT list carry no column type, hence
    the casts."""
    fields = _move_fields().fields
    columns = ", ".join(_q(f.column) for f in fields)
    values = ", ".join([f"saved.{_q('id')}", *(f"%s::{f.cast_db_type(db())}" for f in fields[1:])])
    return (
        f"WITH saved AS ({_update_sql()} RETURNING {_q('id')}) "
        f"INSERT INTO {_q(Move._meta.db_table)} ({columns}) SELECT {values} FROM saved"
    )


def move_save(game: Game, move: Move, *, seen_version: int, seen_move_count: int) -> bool:
    """Write ``game`` (whose version and move count the caller has already raised) and
    insert ``move``, both only if the stored game still has ``seen_version``,
    ``seen_move_count`` and no score. False when it does not (another request wrote
    first): nothing was written. Every write raises one of the two: a move that changed
    nothing keeps the version and raises only the move count."""
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
