"""Game time in the replay: paused time left out, and it ends on the game's clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from play import lifecycle
from play.models import Game, MoveKind, Status
from replays.selectors import event_list
from tests.play.factories import empty_cells, value_at
from tests.replays.factories import event_create, play

pytestmark = pytest.mark.django_db


def _finish(game: Game, elapsed_ms: int) -> None:
    Game.objects.filter(pk=game.pk).update(
        status=Status.ABANDONED, elapsed_ms=elapsed_ms, running_since=None, finished=timezone.now()
    )
    game.refresh_from_db()


def test_game_time_skips_the_pause_and_wall_time_does_not(game9):
    start = game9.created
    cell = empty_cells(game9.puzzle)[0]
    value = value_at(game9.puzzle, cell)
    placed = {"entries": [[cell, ".", game9.puzzle.solution[cell]]]}
    event_create(
        game9,
        MoveKind.VALUE,
        cell=cell,
        value=value,
        correct=True,
        changes=placed,
        elapsed_ms=10_000,
        created=start + timedelta(seconds=10),
    )
    event_create(game9, MoveKind.PAUSE, elapsed_ms=20_000, created=start + timedelta(seconds=20))
    event_create(game9, MoveKind.RESUME, elapsed_ms=20_000, created=start + timedelta(hours=1))
    event_create(
        game9,
        MoveKind.ABANDON,
        elapsed_ms=25_000,
        created=start + timedelta(hours=1, seconds=5),
    )
    _finish(game9, 25_000)
    events = event_list(game=game9)
    assert [e["elapsed_ms"] for e in events] == [10_000, 20_000, 20_000, 25_000]
    assert [e["wall_ms"] for e in events] == [10_000, 20_000, 3_600_000, 3_605_000]
    assert events[-1]["elapsed_ms"] == game9.elapsed_ms


def test_a_log_without_its_clock_takes_wall_time_capped_at_the_game_clock(game9):
    start = game9.created
    event_create(game9, MoveKind.NOTE, cell=0, value=1, created=start + timedelta(seconds=3))
    event_create(game9, MoveKind.NOTE, cell=0, value=2, created=start + timedelta(seconds=90))
    _finish(game9, 60_000)
    assert [e["elapsed_ms"] for e in event_list(game=game9)] == [3_000, 60_000]


def test_game_time_through_the_services_excludes_a_pause(game9, player):
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game = Game.objects.get(pk=game9.pk)
        Game.objects.filter(pk=game.pk).update(running_since=timezone.now())
        cell = empty_cells(game.puzzle)[0]
        clock.shift(timedelta(seconds=30))
        play(game, player, cell, value_at(game.puzzle, cell))
        lifecycle.game_pause(game_id=game.pk, player=player)
        clock.shift(timedelta(hours=2))
        lifecycle.game_resume(game_id=game.pk, player=player)
        clock.shift(timedelta(seconds=15))
        lifecycle.game_abandon(game_id=game.pk, player=player)
    game.refresh_from_db()
    events = event_list(game=game)
    assert [e["kind"] for e in events] == ["value", "pause", "resume", "abandon"]
    assert [e["elapsed_ms"] for e in events] == [30_000, 30_000, 30_000, 45_000]
    assert events[-1]["elapsed_ms"] == game.elapsed_ms == 45_000
