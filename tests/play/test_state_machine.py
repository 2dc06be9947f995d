"""Any sequence of moves, undos, redos, pauses, hints and waits keeps the game's invariants:
givens never change, a finished game never changes, mistakes, hints, the version and the
elapsed time never go down, and a score exists exactly when the game is completed."""

from __future__ import annotations

import contextlib
import uuid
from datetime import timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.utils import timezone
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from accounts.factories import UserFactory
from play import hints, lifecycle, moves
from play.lifecycle import Player
from play.models import FINISHED, Game, Status
from sudokusite.errors import DomainError
from tests.play.factories import FOUR, puzzle_create, value_at

pytestmark = pytest.mark.django_db


class GameMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.traveller = time_machine.travel(timezone.now(), tick=False)
        self.clock = self.traveller.start()
        self.puzzle = puzzle_create(FOUR)
        self.player = Player(user=UserFactory())
        self.game, _ = lifecycle.game_start(
            player=self.player, puzzle_id=self.puzzle.pk, mistake_limit=4
        )
        self.gid = self.game.pk
        self.last = self._snapshot()
        self.finished_snapshot: tuple | None = None

    def teardown(self) -> None:
        self.traveller.stop()

    def _snapshot(self) -> dict:
        game = Game.objects.select_related("puzzle").get(pk=self.gid)
        return {
            "game": game,
            "mistakes": game.mistakes,
            "hints": game.hints_used,
            "version": game.version,
            "elapsed": game.elapsed_at(timezone.now()),
        }

    def _try(self, call, **kwargs) -> None:
        # A refusal is a fine answer; the invariants say nothing changed wrongly.
        with contextlib.suppress(DomainError, ValidationError):
            call(game_id=self.gid, player=self.player, **kwargs)

    @rule(
        cell=st.integers(0, 15),
        right=st.booleans(),
        value=st.integers(0, 4),
        note=st.booleans(),
        reuse_id=st.booleans(),
    )
    def move(self, cell: int, right: bool, value: int, note: bool, reuse_id: bool) -> None:
        if right and not note:
            value = value_at(self.puzzle, cell)
        move_id = getattr(self, "last_move_id", None) if reuse_id else None
        move_id = move_id or uuid.uuid4()
        self.last_move_id = move_id
        self._try(
            moves.move_apply,
            client_move_id=move_id,
            kind="note" if note else "value",
            cell=cell,
            value=value,
        )

    @rule(data=st.data())
    def play_a_right_value(self, data: st.DataObject) -> None:
        open_cells = [c for c, ch in enumerate(self.last["game"].entries) if ch == "."]
        if open_cells:
            cell = data.draw(st.sampled_from(open_cells))
            self._try(
                moves.move_apply,
                client_move_id=uuid.uuid4(),
                kind="value",
                cell=cell,
                value=value_at(self.puzzle, cell),
            )

    @rule(data=st.data())
    def play_a_right_value_again(self, data: st.DataObject) -> None:
        self.play_a_right_value(data)

    @rule()
    def undo(self) -> None:
        self._try(moves.game_undo)

    @rule()
    def redo(self) -> None:
        self._try(moves.game_redo)

    @rule()
    def pause(self) -> None:
        self._try(lifecycle.game_pause)

    @rule()
    def resume(self) -> None:
        self._try(lifecycle.game_resume)

    @rule(level=st.integers(1, 3))
    def hint(self, level: int) -> None:
        self._try(hints.hint_request, level=level)

    @rule(stale=st.booleans())
    def move_with_version(self, stale: bool) -> None:
        version = self.last["version"] - 1 if stale else self.last["version"]
        self._try(
            moves.move_apply,
            client_move_id=uuid.uuid4(),
            kind="note",
            cell=1,
            value=2,
            version=max(version, 1),
        )

    @rule(seconds=st.integers(0, 3600))
    def wait(self, seconds: int) -> None:
        self.clock.shift(timedelta(seconds=seconds))

    @rule()
    def abandon_rarely(self) -> None:
        if self.last["version"] % 7 == 6:
            self._try(lifecycle.game_abandon)

    @invariant()
    def keeps_its_invariants(self) -> None:
        now = self._snapshot()
        game = now["game"]
        event(f"status: {game.status}")
        givens = self.puzzle.givens
        assert all(g == "." or e == g for g, e in zip(givens, game.entries, strict=True))
        assert now["mistakes"] >= self.last["mistakes"]
        assert now["hints"] >= self.last["hints"]
        assert now["version"] >= self.last["version"]
        assert now["elapsed"] >= self.last["elapsed"]
        assert (game.score is not None) == (game.status == Status.COMPLETED)
        if game.status == Status.COMPLETED:
            assert game.entries == self.puzzle.solution
        if game.status == Status.PAUSED or game.status in FINISHED:
            assert game.running_since is None
        frozen = (
            game.entries,
            game.notes,
            game.status,
            game.score,
            game.mistakes,
            game.hints_used,
            game.version,
            game.elapsed_at(timezone.now()),
        )
        if self.finished_snapshot is not None:
            assert frozen == self.finished_snapshot
        elif game.status in FINISHED:
            self.finished_snapshot = frozen
        self.last = now


def test_random_play_keeps_the_game_invariants(db):
    run_state_machine_as_test(
        GameMachine,
        settings=settings(
            max_examples=40,
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
