"""The analysis of a variant game: judged by the variant's own logic (its houses, cages and
techniques), with the classic analysis' fields, and shown only as the classic one is."""

from __future__ import annotations

import pytest
import time_machine
from django.test import Client
from django.utils import timezone, translation

from accounts.factories import UserFactory
from play import lifecycle
from play.lifecycle import Player
from play.models import Game
from puzzles.variants import rules_of, variant_puzzle_make
from replays.selectors import analysis_of
from replays.services import analysis_compute
from solver import Grid, Shape
from solver.logic.engines import engine_for
from solver.logic.general import BY_SLUG, LEVELS, candidates, variant_logic_solve
from tests.play.factories import empty_cells, value_at
from tests.play.helpers import action, move, start, think
from tests.play.test_solution_disclosure import MONDAY, client_for
from tests.replays.factories import play
from tests.variants.conftest import variant_puzzle

pytestmark = pytest.mark.django_db


def _values(puzzle) -> list[int]:
    return [0 if ch == "." else int(ch) for ch in puzzle.givens]


def _guess_cell(puzzle) -> int:
    """An empty cell with several candidates left that no technique places from the start."""
    engine, values = engine_for(rules_of(puzzle)), _values(puzzle)
    cand = candidates(rules_of(puzzle), Grid(puzzle.shape, tuple(values)))
    assert cand is not None
    for cell in empty_cells(puzzle):
        several = cand[cell].bit_count() >= 2
        if several and engine.easiest_placement(values, cell, value_at(puzzle, cell)) is None:
            return cell
    raise AssertionError("every cell of this puzzle is deducible from the start")


def _engine_order(puzzle, placed: list[int]) -> list[int]:
    """The variant logic's path from the givens plus ``placed``, then any cell it leaves."""
    values = _values(puzzle)
    for cell in placed:
        values[cell] = value_at(puzzle, cell)
    order = engine_for(rules_of(puzzle)).path(values, 3000)
    return order + [c for c in empty_cells(puzzle) if c not in set(order) | set(placed)]


def _play_out(player, puzzle, *, wrong: int | None = None) -> tuple[Game, int]:
    """A guess first (30 s), a wrong value put right if ``wrong``, then every other cell in
    the engine's order, 5 s each, to the end."""
    guess = _guess_cell(puzzle)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game, _ = lifecycle.game_start(player=player, puzzle_id=puzzle.pk)
        think(clock, game_id=game.pk, player=player, seconds=30)
        play(game, player, guess, value_at(puzzle, guess))
        if wrong is not None:
            think(clock, game_id=game.pk, player=player, seconds=4)
            play(game, player, wrong, value_at(puzzle, wrong) % puzzle.size + 1)
            play(game, player, wrong, 0)
        for cell in _engine_order(puzzle, [guess]):
            think(clock, game_id=game.pk, player=player, seconds=5)
            play(game, player, cell, value_at(puzzle, cell))
    game = Game.objects.get(pk=game.pk)
    assert game.status == "completed"
    return game, guess


def test_a_killer_game_is_logical_where_it_follows_the_engine_and_a_guess_elsewhere(player):
    puzzle = variant_puzzle("killer", level="medium")
    game, guess = _play_out(player, puzzle)
    data = analysis_compute(game_id=game.pk).data
    first, *rest = data["placements"]
    assert (first["cell"], first["correct"], first["technique"], first["deducible"]) == (
        guess,
        True,
        None,
        False,
    )
    assert rest and all(p["deducible"] and p["technique"]["slug"] in BY_SLUG for p in rest)
    used = {p["technique"]["slug"] for p in rest}
    assert used & {"cage_combination", "innies_outies", "cage_house"}
    summary = data["summary"]
    assert (summary["guesses"], summary["mistakes"]) == (1, 0)
    hardest = summary["hardest"]
    assert hardest == {
        "slug": hardest["slug"],
        "name": BY_SLUG[hardest["slug"]].name,
        "level": BY_SLUG[hardest["slug"]].level,
    }
    assert [row["level"] for row in summary["time_by_level"]] == [*LEVELS, "guess", "mistake"]
    shares = {row["level"]: row["ms"] for row in summary["time_by_level"]}
    assert shares["guess"] == 30_000


def _jigsaw_with_a_guess():
    """A hard Jigsaw with a cell no technique places from the start, whose logic finishes
    once that cell is placed (the chains finish most from the start): the first of a few
    seeds, so a change to the generator picks another rather than failing."""
    for i in range(30):
        grid, solution, rules, _ = variant_puzzle_make(
            variant="jigsaw", shape=Shape(3, 3), level="hard", seed=f"guess{i}:jigsaw:9"
        )
        values, engine = list(grid.cells), engine_for(rules)
        cand = candidates(rules, grid)
        assert cand is not None
        for cell in (c for c in range(81) if not values[c] and cand[c].bit_count() >= 2):
            if engine.easiest_placement(values, cell, solution.cells[cell]) is None:
                values[cell] = solution.cells[cell]
                if variant_logic_solve(rules, Grid(grid.shape, tuple(values))).solved:
                    return variant_puzzle("jigsaw", level="hard", seed=f"guess{i}")
                break
    raise AssertionError("no hard Jigsaw of 30 seeds has a guess the logic then finishes")


def test_a_jigsaw_game_counts_its_mistake_and_its_guess(player):
    puzzle = _jigsaw_with_a_guess()
    wrong = empty_cells(puzzle)[-1]
    game, guess = _play_out(player, puzzle, wrong=wrong)
    placements = analysis_compute(game_id=game.pk).data["placements"]
    assert [(p["cell"], p["correct"], p["deducible"]) for p in placements[:2]] == [
        (guess, True, False),
        (wrong, False, False),
    ]
    assert all(p["correct"] and p["deducible"] for p in placements[2:])
    summary = analysis_compute(game_id=game.pk).data["summary"]
    assert (summary["guesses"], summary["mistakes"]) == (1, 1)
    assert all(s["available"] for s in summary["stalls"])


def test_a_variant_analysis_names_its_techniques_in_the_readers_language(player):
    puzzle = variant_puzzle("killer", level="medium")
    game, _ = _play_out(player, puzzle)
    analysis_compute(game_id=game.pk)
    game = Game.objects.select_related("analysis").get(pk=game.pk)
    names = {}
    for language in ("en", "zh-hans"):
        with translation.override(language):
            data = analysis_of(game)
        names[language] = {
            p["technique"]["slug"]: p["technique"]["name"] for p in data["placements"][1:]
        }
    assert names["en"]["cage_combination"] == "Cage Combination"
    assert names["zh-hans"]["cage_combination"] == "笼子组合"


def test_an_unfinished_variant_game_is_not_analysed(player):
    puzzle = variant_puzzle("killer", level="medium", seed="open")
    game, _ = lifecycle.game_start(player=player, puzzle_id=puzzle.pk)
    cell = empty_cells(puzzle)[0]
    play(game, player, cell, value_at(puzzle, cell))
    assert analysis_compute(game_id=game.pk) is None


def test_a_variant_replay_holds_its_analysis_while_its_solution_is_held():
    puzzle = variant_puzzle("jigsaw", level="medium", seed="held")
    first, second = client_for(UserFactory()), client_for(UserFactory())
    with time_machine.travel(MONDAY, tick=False):
        ranked = start(first, puzzle)
        mine = start(second, puzzle)
        unfinished = second.get(f"/api/v1/games/{mine['id']}/replay/")
        assert unfinished.status_code == 409 and puzzle.solution not in str(unfinished.content)
        cell = empty_cells(puzzle)[0]
        assert move(second, mine["id"], cell, value_at(puzzle, cell)).json()["correct"] is True
        assert action(second, mine["id"], "abandon").json()["solution"] is None
        assert analysis_compute(game_id=mine["id"]) is not None
        url = second.post(f"/api/v1/games/{mine['id']}/replay/share/", {}, format="json")
        token = url.json()["url"].rstrip("/").rsplit("/", 1)[-1]
        shared = Client().get(f"/api/v1/replays/{token}/").json()
        assert shared["analysis"] == {"status": "held", "data": None}
        assert shared["puzzle"]["solution"] is None
        assert puzzle.solution not in str(shared)
        own = second.get(f"/api/v1/games/{mine['id']}/replay/").json()
        assert own["analysis"]["status"] == "ready" and own["puzzle"]["solution"] is None
        assert action(first, ranked["id"], "abandon").status_code == 200


def test_the_backfill_queues_finished_variant_games_without_an_analysis(player, monkeypatch):
    from django.core.management import call_command

    from replays import tasks
    from tests.play.factories import NINE, puzzle_create

    queued: list[int] = []
    monkeypatch.setattr(tasks.analysis_compute, "delay", queued.append)
    variant = variant_puzzle("killer", level="medium", seed="backfill")
    ended, _ = lifecycle.game_start(player=player, puzzle_id=variant.pk)
    lifecycle.game_abandon(game_id=ended.pk, player=player)
    lifecycle.game_start(player=Player(user=UserFactory()), puzzle_id=variant.pk)  # playing
    classic, _ = lifecycle.game_start(player=player, puzzle_id=puzzle_create(NINE).pk)
    lifecycle.game_abandon(game_id=classic.pk, player=player)
    queued.clear()  # what the ends queued themselves
    call_command("analyses_backfill")
    assert queued == [ended.pk]
    analysis_compute(game_id=ended.pk)
    queued.clear()
    call_command("analyses_backfill")
    assert queued == []
