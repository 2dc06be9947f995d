"""The game's hand-written statements (play.game_store) against the ORM's view of the rows,
and the optimistic write losing a race: the move then lands once, under the row lock."""

from __future__ import annotations

import uuid

import pytest
from django.db.models.signals import post_init
from django.utils import timezone

from play import game_store, moves
from play.errors import StaleVersion
from play.lifecycle import Player
from play.models import Game, Move
from tests.play.factories import empty_cells, value_at
from tests.play.helpers import move, start

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_the_read_loads_the_game_and_puzzle_the_orm_loads(token_client, user, puzzle9):
    game = start(token_client, puzzle9)
    cell = empty_cells(puzzle9)[0]
    assert move(token_client, game["id"], cell, 0, kind="note").status_code == 200
    assert move(token_client, game["id"], cell, 3, kind="note").status_code == 200
    Game.objects.filter(pk=game["id"]).update(hint={"technique": "naked_single"}, hint_stage=1)

    found = game_store.game_read(game["id"], user_id=user.pk, client_move_id=uuid.uuid4())

    assert found is not None
    loaded, stored = found
    orm = Game.objects.select_related("puzzle").get(pk=game["id"])
    assert _fields(loaded) == _fields(orm)
    assert _fields(loaded.puzzle) == _fields(orm.puzzle)
    assert loaded.notes == {str(cell): [3]}  # JSON decoded
    assert loaded.hint == {"technique": "naked_single"}
    assert timezone.is_aware(loaded.created)
    assert stored is None


def test_a_loaded_game_is_a_stored_instance_the_orm_can_save(token_client, user, puzzle9):
    game = start(token_client, puzzle9)
    loaded, _ = game_store.game_read(game["id"], user_id=user.pk, client_move_id=uuid.uuid4())
    assert (loaded._state.adding, loaded._state.db) == (False, "default")
    assert loaded.user == user  # the relation loads from the id read
    loaded.mistakes = 2
    loaded.save(update_fields=["mistakes"])  # an UPDATE: a new instance would INSERT
    assert Game.objects.get(pk=game["id"]).mistakes == 2
    assert Game.objects.count() == 1


def test_a_model_with_init_signal_receivers_is_loaded_through_them(token_client, user, puzzle9):
    game = start(token_client, puzzle9)
    seen = []

    def receiver(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(receiver, sender=Game)
    try:
        loaded, _ = game_store.game_read(game["id"], user_id=user.pk, client_move_id=uuid.uuid4())
    finally:
        post_init.disconnect(receiver, sender=Game)
    assert seen == [loaded]


def test_the_read_finds_the_move_stored_under_the_client_id(token_client, user, puzzle4):
    game = start(token_client, puzzle4)
    cell = empty_cells(puzzle4)[0]
    client_move_id = uuid.uuid4()
    body = {"client_move_id": str(client_move_id), "cell": cell, "value": 2, "kind": "note"}
    assert token_client.post(f"/api/v1/games/{game['id']}/moves/", body).status_code == 200

    _, stored = game_store.game_read(game["id"], user_id=user.pk, client_move_id=client_move_id)

    assert _fields(stored) == _fields(Move.objects.get(client_move_id=client_move_id))


def test_the_read_finds_no_game_of_another_player(token_client, puzzle4, django_user_model):
    game = start(token_client, puzzle4)
    stranger = django_user_model.objects.create(username="stranger")
    assert (
        game_store.game_read(game["id"], user_id=stranger.pk, client_move_id=uuid.uuid4()) is None
    )
    assert game_store.game_read(game["id"], user_id=None, guest_key="k") is None
    assert game_store.game_read(game["id"], user_id=None) is None


def test_a_write_against_a_changed_version_writes_nothing(token_client, user, puzzle4):
    game = start(token_client, puzzle4)
    loaded, _ = game_store.game_read(game["id"], user_id=user.pk, client_move_id=uuid.uuid4())
    Game.objects.filter(pk=game["id"]).update(version=7)  # another device wrote
    loaded.entries = "1" * 16
    loaded.version = 2
    entry = Move(game=loaded, seq=1, kind="value", cell=1, value=1, client_move_id=uuid.uuid4())

    assert game_store.game_write(loaded, entry, seen_version=1, seen_move_count=0) is False

    stored = Game.objects.get(pk=game["id"])
    assert (stored.version, stored.entries) == (7, puzzle4.givens)
    assert not Move.objects.filter(game_id=game["id"]).exists()


def test_a_write_against_a_changed_move_count_writes_nothing(token_client, user, puzzle4):
    """A move that changed nothing keeps the version and raises only the move count: a
    write that read the game before it must still lose."""
    game = start(token_client, puzzle4)
    loaded, _ = game_store.game_read(game["id"], user_id=user.pk, client_move_id=uuid.uuid4())
    Game.objects.filter(pk=game["id"]).update(move_count=1)  # a no-op move landed
    loaded.entries = "1" * 16
    loaded.version, loaded.move_count = 2, 1
    entry = Move(game=loaded, seq=1, kind="value", cell=1, value=1, client_move_id=uuid.uuid4())

    assert game_store.game_write(loaded, entry, seen_version=1, seen_move_count=0) is False

    stored = Game.objects.get(pk=game["id"])
    assert (stored.version, stored.entries) == (1, puzzle4.givens)
    assert not Move.objects.filter(game_id=game["id"]).exists()


def test_a_move_that_loses_the_race_is_played_again_under_the_lock(
    monkeypatch, token_client, user, puzzle4
):
    """Between this move's read and its write another device plays a move: the write finds
    a newer version, writes nothing, and the move is played again on the newer game."""
    game = start(token_client, puzzle4)
    mine, theirs = empty_cells(puzzle4)[:2]
    reads = []
    real_read = game_store.game_read

    def read_then_other_device_moves(game_id, **kwargs):
        found = real_read(game_id, **kwargs)
        lock = kwargs.get("lock", False)
        reads.append(lock)
        if len(reads) == 1:
            other = move(token_client, game["id"], theirs, value_at(puzzle4, theirs))
            assert other.status_code == 200
        return found

    monkeypatch.setattr(moves, "game_read", read_then_other_device_moves)
    result = moves.move_apply(
        game_id=game["id"],
        player=Player(user=user),
        client_move_id=uuid.uuid4(),
        kind="value",
        cell=mine,
        value=value_at(puzzle4, mine),
    )

    assert reads[0] is False and reads[-1] is True
    stored = Game.objects.get(pk=game["id"])
    assert stored.version == 3 and stored.move_count == 2
    assert stored.entries[mine] == str(value_at(puzzle4, mine))
    assert stored.entries[theirs] == str(value_at(puzzle4, theirs))
    assert result.game.version == 3
    assert list(Move.objects.filter(game_id=game["id"]).values_list("seq", "cell")) == [
        (1, theirs),
        (2, mine),
    ]


def test_a_stale_version_found_after_losing_the_race_is_a_409(
    monkeypatch, token_client, user, puzzle4
):
    game = start(token_client, puzzle4)
    mine, theirs = empty_cells(puzzle4)[:2]
    real_read = game_store.game_read
    calls = []

    def read_then_other_device_moves(game_id, **kwargs):
        found = real_read(game_id, **kwargs)
        lock = kwargs.get("lock", False)
        calls.append(lock)
        if len(calls) == 1:
            assert move(token_client, game["id"], theirs, 1).status_code == 200
        return found

    monkeypatch.setattr(moves, "game_read", read_then_other_device_moves)
    with pytest.raises(StaleVersion):
        moves.move_apply(
            game_id=game["id"],
            player=Player(user=user),
            client_move_id=uuid.uuid4(),
            kind="value",
            cell=mine,
            value=1,
            version=1,
        )
    assert Game.objects.get(pk=game["id"]).version == 2
    assert Move.objects.filter(game_id=game["id"]).count() == 1


def test_values_for_the_write_are_what_django_would_save(token_client, user, puzzle4):
    from sudokusite.rows import FieldValues, db

    game = start(token_client, puzzle4)
    loaded, _ = game_store.game_read(game["id"], user_id=user.pk, client_move_id=uuid.uuid4())
    loaded.notes, loaded.hint, loaded.finished = {"3": [1, 2]}, {"technique": "x"}, timezone.now()
    entry = Move(game=loaded, seq=4, kind="note", cell=3, value=2, client_move_id=uuid.uuid4())
    entry.correct, entry.changes = None, {"notes": [[3, [], [2]]]}
    conn = db()

    def django_values(instance, fields, add):
        return [
            f.get_db_prep_save(
                f.pre_save(instance, add) if add else getattr(instance, f.attname), conn
            )
            for f in fields
        ]

    def comparable(values):  # JSON is wrapped for the driver: compare what it wraps
        return [getattr(v, "obj", v) for v in values]

    game_fields = [Game._meta.get_field(name) for name in game_store.SAVED_FIELDS]
    move_fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    assert comparable(FieldValues(game_fields).of(conn, loaded)) == comparable(
        django_values(loaded, game_fields, False)
    )
    ours = comparable(FieldValues(move_fields).of(conn, entry, add=True))
    created_at = [f.name for f in move_fields].index("created")
    theirs = comparable(django_values(entry, move_fields, True))
    assert (
        ours[:created_at] + ours[created_at + 1 :] == theirs[:created_at] + theirs[created_at + 1 :]
    )
    assert ours[created_at] is not None


def test_every_index_on_the_move_table_begins_with_the_game_or_is_the_key():
    """Each move is an INSERT into every index of its table: none may be redundant. Both
    unique constraints begin with the game, so a lookup by game (the move log, a cascade)
    needs no index of its own."""
    from django.db import connection

    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Move._meta.db_table)
    # The key and unique constraints are indexes too (reported apart from plain ones).
    indexes = {
        name: c["columns"]
        for name, c in constraints.items()
        if c["index"] or c["unique"] or c["primary_key"]
    }
    game_column = Move._meta.get_field("game").column
    assert sorted(indexes.values()) == sorted(
        [["id"], [game_column, "seq"], [game_column, "client_move_id"]]
    )


def test_the_puzzle_fields_no_move_needs_are_read_on_first_use(token_client, user, puzzle9):
    game = start(token_client, puzzle9)
    loaded, _ = game_store.game_read(game["id"], user_id=user.pk)
    puzzle = loaded.puzzle
    assert set(puzzle.get_deferred_fields()) == {"techniques", "canonical_key", "created"}
    assert puzzle.givens == puzzle9.givens  # read with the game
    assert puzzle.techniques == puzzle9.techniques  # read when asked for
    assert puzzle.canonical_key == puzzle9.canonical_key


def test_a_log_entry_is_made_as_the_models_constructor_makes_it(token_client, user, puzzle9):
    game = Game.objects.get(pk=start(token_client, puzzle9)["id"])
    values = {"game": game, "seq": 4, "kind": "value", "cell": 7, "value": 3, "in_log": True}

    made, built = game_store.move_new(**values), Move(**values)

    assert _fields(made) == _fields(built)
    assert made.game is game
    assert (made._state.adding, made._state.db) == (built._state.adding, built._state.db)
    assert made.changes == {} and made.changes is not game_store.move_new(**values).changes
    made.save()  # an INSERT, as a new instance makes
    assert Move.objects.get(pk=made.pk).cell == 7


def test_a_log_entry_with_a_field_the_model_lacks_is_refused():
    with pytest.raises(TypeError, match="no field 'colour'"):
        game_store.move_new(colour=3)


def test_a_log_entry_is_made_through_init_signal_receivers_when_there_are_some(
    token_client, user, puzzle9
):
    game = Game.objects.get(pk=start(token_client, puzzle9)["id"])
    seen = []

    def receiver(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(receiver, sender=Move)
    try:
        made = game_store.move_new(game=game, seq=1, kind="value")
    finally:
        post_init.disconnect(receiver, sender=Move)
    assert seen == [made]
