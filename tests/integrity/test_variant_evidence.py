"""Variant games as evidence: the blind signal and the trace judged by the variant logic,
and a player's variant games weighed across games like classic ones."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from integrity.models import GameReview, PlayerReview, Verdict
from integrity.player_signals import MIN_GAMES, game_figures
from integrity.signals import Event, game_signals, placeable_cells
from integrity.trace import game_trace
from puzzles.variants import rules_of, variant_puzzle_make
from solver import Shape
from solver.logic.engines import engine_for
from tests.integrity.players import START
from tests.integrity.test_review import client_for
from tests.play.helpers import move, start
from tests.variants.conftest import variant_puzzle


def _made(variant: str, level: str, seed: str = "evidence"):
    grid, solution, rules, _ = variant_puzzle_make(
        variant=variant, shape=Shape(3, 3), level=level, seed=seed
    )
    return list(grid.cells), list(solution.cells), engine_for(rules)


@pytest.mark.parametrize(("variant", "level"), [("killer", "medium"), ("jigsaw", "hard")])
def test_the_variant_logics_next_cell_is_placeable_and_a_cell_it_cannot_reach_is_not(
    variant, level
):
    # A seed whose puzzle has a cell no technique places from the start (the chains place
    # most): the one known to give it first (a Jigsaw's scan of every cell takes seconds),
    # then the others in turn, so a change to the generator picks another.
    known = {"jigsaw": 7}.get(variant, 0)
    for i in (known, *range(30)):
        givens, solution, engine = _made(variant, level, f"evidence{i}")
        empty = {c for c, v in enumerate(givens) if not v}
        guesses = [c for c in empty if engine.easiest_placement(givens, c, solution[c]) is None]
        if guesses:
            break
    else:
        raise AssertionError(f"no {level} {variant} of 30 seeds has a cell to guess")
    placeable = placeable_cells(engine.shape, givens, engine)
    assert placeable and engine.path(givens, 3000)[0] in placeable
    assert placeable < empty  # a cell no technique places yet is not placeable
    assert set(guesses) - placeable  # a cell the analysis calls a guess is blind here too


def test_a_killer_game_in_the_engines_order_takes_the_engines_cell_at_every_choice():
    givens, solution, engine = _made("killer", "easy")
    order = engine.path(givens, 3000)
    clock, events = 0, []
    for cell in order:
        clock += 1200
        value = solution[cell]
        events.append(Event("value", cell, value, clock, True, True, ((cell, value),)))
    trace = game_trace(events, shape=engine.shape, givens=givens, solution=solution, engine=engine)
    figures = game_figures(trace)
    assert figures["placements"] == givens.count(0) == len(order)
    assert figures["choices"] >= 20
    assert figures["engine"] == figures["choices"]
    assert all(e is not None and e > 0 for e in trace["efforts"])


def test_a_killer_game_in_the_engines_order_has_no_blind_placement():
    """The cage combinations and the 45 rule place cells of their own, and a Killer player
    repeats the combinations as they go: the engine's order is never blind."""
    givens, solution, engine = _made("killer", "easy", seed="m:0")
    order = engine.path(givens, 3000)
    events = [
        Event("value", cell, solution[cell], 1500 * (i + 1), True, True, ((cell, solution[cell]),))
        for i, cell in enumerate(order)
    ]
    common = {"shape": engine.shape, "givens": givens, "solution": solution, "level": "easy"}
    signals = game_signals(events, **common, elapsed_ms=events[-1].clock_ms, engine=engine)
    assert signals.placements == givens.count(0) == len(order)
    assert signals.blind_quick == 0 and not signals.flagged, signals.reasons


@pytest.mark.django_db
def test_a_script_playing_variant_games_in_the_engines_order_is_held(user):
    client = client_for(user)
    games = []
    for i in range(MIN_GAMES + 1):
        puzzle = variant_puzzle("jigsaw", level="medium", seed=f"script{i}")
        givens = [0 if ch == "." else int(ch) for ch in puzzle.givens]
        order = engine_for(rules_of(puzzle)).path(givens, 3000)
        with time_machine.travel(START + timedelta(hours=i), tick=False) as clock:
            game_id = start(client, puzzle)["id"]
            for cell in order:
                clock.shift(timedelta(milliseconds=1200))
                assert move(client, game_id, cell, int(puzzle.solution[cell])).status_code == 200
        games.append(game_id)
    # Each game passes on its own; the trace of each is the variant logic's.
    reviews = GameReview.objects.filter(game_id__in=games)
    assert [r.verdict for r in reviews] == [Verdict.PLAUSIBLE] * len(games)
    assert all(len(r.trace["gaps"]) == r.signals["placements"] for r in reviews)
    review = PlayerReview.objects.get(user=user)
    assert review.held and review.game_id == games[MIN_GAMES - 1]
    assert review.signals["engine_share"] == 1.0
    assert any("engine's next cell" in reason for reason in review.reasons)
