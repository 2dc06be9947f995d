"""The analysis made by a real Celery worker (a separate process, real Redis and
PostgreSQL), queued when the transaction that ends the game commits. No eager mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from play import lifecycle
from replays.models import GameAnalysis
from tests.play.factories import NINE, empty_cells, puzzle_create, value_at
from tests.puzzles.test_workers import Worker, wait_for
from tests.replays.factories import play

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def test_a_worker_stores_the_analysis_once_the_game_ends(tmp_path: Path, player):
    puzzle = puzzle_create(NINE)
    game, _ = lifecycle.game_start(player=player, puzzle_id=puzzle.pk)
    cell = empty_cells(puzzle)[0]
    play(game, player, cell, value_at(puzzle, cell))
    assert not GameAnalysis.objects.exists()  # nothing queued while the game runs
    worker = Worker(tmp_path, "celery", "replays", concurrency=1)
    try:
        lifecycle.game_abandon(game_id=game.pk, player=player)
        wait_for(lambda: GameAnalysis.objects.filter(game=game).exists(), [worker], "analysis")
    finally:
        worker.stop()
    data = GameAnalysis.objects.get(game=game).data
    assert [(p["cell"], p["correct"]) for p in data["placements"]] == [(cell, True)]
