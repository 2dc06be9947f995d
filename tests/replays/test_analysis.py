"""The analysis of a finished game: each placement's technique, the stalls, the summary."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from play import lifecycle
from play.models import Game
from replays.models import GameAnalysis
from replays.services import analysis_compute
from tests.play.helpers import think
from tests.replays.factories import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(analysed_puzzle, player) -> Game:
    """A hidden single (r1c3), a wrong 7 cleared, a naked pair's 1 (r9c7), a guessed 2
    (r1c5); then the player gives up."""
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game, _ = lifecycle.game_start(player=player, puzzle_id=analysed_puzzle.pk)
        for seconds, cell, value in ((20, 2, 5), (5, 5, 7), (2, 5, 0), (40, 78, 1), (90, 4, 2)):
            think(clock, game_id=game.pk, player=player, seconds=seconds)
            play(game, player, cell, value)
        clock.shift(timedelta(seconds=10))
        lifecycle.game_abandon(game_id=game.pk, player=player)
    return Game.objects.get(pk=game.pk)


def test_each_placement_gets_its_technique_or_not_yet_deducible(played):
    data = analysis_compute(game_id=played.pk).data
    got = [
        (p["cell"], p["value"], p["correct"], p["technique"] and p["technique"]["slug"])
        for p in data["placements"]
    ]
    assert got == [
        (2, 5, True, "hidden_single"),
        (5, 7, False, None),
        (78, 1, True, "naked_pair"),
        (4, 2, True, None),
    ]
    assert [p["deducible"] for p in data["placements"]] == [True, False, True, False]


def test_thinking_time_runs_from_the_previous_placement(played):
    placements = analysis_compute(game_id=played.pk).data["placements"]
    assert [p["thinking_ms"] for p in placements] == [20_000, 5_000, 42_000, 90_000]


def test_the_summary_counts_guesses_mistakes_and_names_the_hardest(played):
    summary = analysis_compute(game_id=played.pk).data["summary"]
    assert summary["hardest"] == {"slug": "naked_pair", "name": "Naked Pair", "level": "medium"}
    assert (summary["guesses"], summary["mistakes"], summary["hints"]) == (1, 1, 0)
    assert [s["cell_name"] for s in summary["stalls"]] == ["r1c5", "r9c7", "r1c3"]
    assert [s["thinking_ms"] for s in summary["stalls"]] == [90_000, 42_000, 20_000]
    assert all(s["available"] for s in summary["stalls"])
    shares = {row["level"]: row["ms"] for row in summary["time_by_level"]}
    assert shares["easy"] == 20_000 and shares["medium"] == 42_000
    assert shares["guess"] == 90_000 and shares["mistake"] == 5_000
    assert sum(row["share"] for row in summary["time_by_level"]) == pytest.approx(1, abs=0.01)


def test_the_analysis_is_stored_once(played):
    first = analysis_compute(game_id=played.pk)
    GameAnalysis.objects.filter(pk=first.pk).update(data={"kept": True})
    assert analysis_compute(game_id=played.pk).data == {"kept": True}
    assert GameAnalysis.objects.count() == 1


def test_an_unfinished_game_is_not_analysed(analysed_puzzle, player):
    game, _ = lifecycle.game_start(player=player, puzzle_id=analysed_puzzle.pk)
    assert analysis_compute(game_id=game.pk) is None
    assert not GameAnalysis.objects.exists()


def test_ending_a_game_queues_its_analysis_on_commit(
    analysed_puzzle, player, django_capture_on_commit_callbacks, monkeypatch
):
    from replays import tasks

    queued = []
    monkeypatch.setattr(tasks.analysis_compute, "delay", queued.append)
    game, _ = lifecycle.game_start(player=player, puzzle_id=analysed_puzzle.pk)
    with django_capture_on_commit_callbacks(execute=True):
        play(game, player, 2, 5)
    assert queued == []
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        lifecycle.game_abandon(game_id=game.pk, player=player)
    assert len(callbacks) == 1 and queued == [game.pk]


def test_the_completing_move_queues_the_analysis(
    player, django_capture_on_commit_callbacks, monkeypatch
):
    from replays import tasks
    from tests.play.factories import FOUR, empty_cells, puzzle_create, value_at

    queued = []
    monkeypatch.setattr(tasks.analysis_compute, "delay", queued.append)
    puzzle = puzzle_create(FOUR)
    game, _ = lifecycle.game_start(player=player, puzzle_id=puzzle.pk)
    with django_capture_on_commit_callbacks(execute=True):
        for cell in empty_cells(puzzle):
            play(game, player, cell, value_at(puzzle, cell))
    assert Game.objects.get(pk=game.pk).status == "completed"
    assert queued == [game.pk]


@pytest.mark.parametrize("index", range(5))
def test_an_easy_puzzle_filled_in_reading_order_needed_singles_only(index):
    """Each value is known from singles further on: no pair or quad is its reason."""
    from replays.analysis import analyse
    from solver import parse, solve
    from solver.grid import SYMBOLS, format_line
    from solver.logic.techniques import SINGLES
    from tests.solver.datasets import load

    grid = parse(load("qqwing_simple")[index])
    givens, solution = format_line(grid), format_line(solve(grid))
    events = [
        {
            "kind": "value",
            "seq": seq,
            "cell": cell,
            "value": SYMBOLS.index(solution[cell]) + 1,
            "elapsed_ms": seq * 5000,
            "changes": {"entries": [(cell, ".", solution[cell])]},
        }
        for seq, cell in enumerate((c for c, ch in enumerate(givens) if ch == "."), 1)
    ]
    data = analyse(givens=givens, solution=solution, box_rows=3, box_cols=3, events=events)
    assert all(p["deducible"] for p in data["placements"])
    assert data["summary"]["hardest"]["slug"] in SINGLES
