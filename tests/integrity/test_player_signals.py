"""The evidence across games on its own: game traces and player verdicts (no database)."""

from __future__ import annotations

import random

import pytest

from bench import players as sim
from integrity.player_signals import (
    BLIND_CORR,
    ENGINE_ALONE,
    ENGINE_SHARE,
    MIN_GAMES,
    STEADY_CV,
    TYPICAL_MS,
    game_figures,
    player_signals,
)
from integrity.signals import Event
from integrity.trace import engine_path, game_trace, position_step
from solver import Shape, parse, solve
from solver.logic.techniques.base import Board
from tests.solver.datasets import load

SHAPE = Shape(3, 3)


def _puzzle(givens: str) -> tuple[list[int], list[int]]:
    grid = parse(givens)
    return list(grid.cells), list(solve(grid).cells)


def _placements(cells, solution, gaps) -> list[Event]:
    out, clock = [], 0
    for cell, gap in zip(cells, gaps, strict=True):
        clock += gap
        value = solution[cell]
        out.append(Event("value", cell, value, clock, True, True, ((cell, value),)))
    return out


def _trace(level: str, gaps, efforts, engine, options=None) -> dict:
    options = options or [3] * len(gaps)
    per = sum(gaps) // len(gaps)
    return {
        "gaps": gaps,
        "efforts": efforts,
        "options": options,
        "engine": engine,
        "level": level,
        "ms_per_placement": per,
    }


def test_a_game_in_the_engines_order_takes_the_engines_cell_at_every_choice():
    givens, solution = _puzzle(load("qqwing_intermediate")[0])
    order = engine_path(SHAPE, givens)
    trace = game_trace(
        _placements(order, solution, [1200] * len(order)),
        shape=SHAPE,
        givens=givens,
        solution=solution,
    )
    figures = game_figures(trace)
    assert figures["placements"] == givens.count(0)
    assert figures["choices"] >= 30
    assert figures["engine"] == figures["choices"]
    assert figures["cv"] == 0


def test_a_game_in_a_persons_order_seldom_takes_the_engines_cell():
    puzzle = sim.pool()[0]
    style = sim.Style("random", 2000, 0.7, 0.5)
    events, _ = sim.play(style, puzzle, random.Random(3))
    trace = game_trace(events, shape=puzzle.shape, givens=puzzle.givens, solution=puzzle.solution)
    figures = game_figures(trace)
    assert figures["choices"] >= 30
    assert figures["engine"] / figures["choices"] < ENGINE_SHARE / 2


def test_mistakes_and_notes_are_not_placements_of_the_trace():
    givens, solution = _puzzle(load("qqwing_simple")[0])
    order = engine_path(SHAPE, givens)
    first = order[0]
    wrong = solution[first] % 9 + 1
    events = [
        Event("note", first, 3, 1000),
        Event("value", first, wrong, 2000, True, False, ((first, wrong),)),
        *_placements(order, solution, [3000] * len(order)),
    ]
    trace = game_trace(events, shape=SHAPE, givens=givens, solution=solution)
    assert len(trace["gaps"]) == len(order)
    assert trace["gaps"][0] == 3000  # since the start: the note and the slip included


def test_the_effort_grows_when_a_harder_technique_is_needed_first():
    givens, solution = _puzzle(load("se_rated_diabolical")[0])
    board = Board.from_values(SHAPE, givens)
    steps = []
    for cell in engine_path(SHAPE, givens):
        empty = board.values.count(0)
        steps.append((position_step(board.copy()), empty))
        board.place(cell, solution[cell])
    # A scan finds one of k placeable cells among e empty ones after about e / k looks.
    assert steps[0][0].effort == round(steps[0][1] / steps[0][0].options, 2)
    assert all(s.effort is not None and s.effort >= e / s.options - 0.01 for s, e in steps)
    harder = [(s, e) for s, e in steps if s.effort > e]
    assert harder, "the diabolical puzzle needs techniques beyond singles"
    assert all(s.engine_cell is not None for s, _ in harder)


def test_game_figures_measure_variation_and_correlation():
    steady = game_figures(_trace("easy", [1000] * 20, [2.0 + i for i in range(20)], [1] * 20))
    assert steady["cv"] == 0 and steady["corr"] is None  # a pause that never varies
    following = [round(500 * (2.0 + i)) for i in range(20)]
    human = game_figures(_trace("easy", following, [2.0 + i for i in range(20)], [0] * 20))
    assert human["corr"] == pytest.approx(1.0)
    assert human["cv"] > 0.5


def test_steady_pauses_flag_a_player_on_their_own():
    traces = [_trace("hard", [1200] * 40, [float(i % 7 + 1) for i in range(40)], [0] * 40)] * 5
    result = player_signals(traces)
    assert result.flagged
    assert result.pause_cv < STEADY_CV
    assert result.reasons[0].startswith("steady pauses")


def test_the_engines_order_with_pauses_blind_to_difficulty_flags_a_player():
    rng = random.Random(5)
    traces = []
    for _ in range(MIN_GAMES):
        gaps = [rng.randint(2000, 6000) for _ in range(40)]
        efforts = [float(rng.randint(1, 30)) for _ in range(40)]
        traces.append(_trace("hard", gaps, efforts, [1] * 34 + [0] * 6))
    result = player_signals(traces)
    # Under the share that flags on its own: two signals together do.
    assert result.engine_share == 0.85 and result.difficulty_corr < BLIND_CORR
    assert result.speed_ratio > 0.2  # at a person's speed: the order and pauses tell
    assert result.flagged and len(result.reasons) == 2


def _difficulty_paced(rng, engine) -> dict:
    efforts = [float(rng.randint(1, 30)) for _ in engine]
    gaps = [round(1500 * e**0.8 * rng.lognormvariate(0, 0.4)) for e in efforts]
    return _trace("hard", gaps, efforts, engine)


@pytest.mark.parametrize(
    ("followed", "per_game", "flagged"),
    [(36, 40, True), (35, 40, False), (29, 29, False)],  # 90% of 200; 87.5%; 145 choices
)
def test_the_engines_order_flags_on_its_own_from_90_percent_of_150_choices(
    followed, per_game, flagged
):
    rng = random.Random(8)
    engine = [1] * followed + [0] * (per_game - followed)
    result = player_signals([_difficulty_paced(rng, engine) for _ in range(MIN_GAMES)])
    assert result.difficulty_corr > 0.3 and result.pause_cv > 0.5  # a person's pauses
    assert result.flagged is flagged, result
    if flagged:
        assert result.reasons == [
            f"the engine's next cell on its own: 90% of 200 placements with a choice "
            f"(people: under {ENGINE_ALONE:.0%})"
        ]


def test_a_fast_person_whose_pauses_follow_the_difficulty_is_not_flagged():
    rng = random.Random(6)
    traces = []
    for _ in range(8):
        efforts = [float(rng.randint(1, 30)) for _ in range(40)]
        gaps = [round(300 * e**0.8 * rng.lognormvariate(0, 0.4)) for e in efforts]
        traces.append(_trace("easy", gaps, efforts, [int(rng.random() < 0.4) for _ in efforts]))
    result = player_signals(traces)
    assert result.speed_ratio < 0.5 * TYPICAL_MS["easy"] / TYPICAL_MS["easy"]
    assert not result.flagged, result.reasons


def test_fewer_games_than_the_minimum_are_not_judged():
    traces = [_trace("hard", [1200] * 40, [1.0] * 40, [1] * 40)] * (MIN_GAMES - 1)
    result = player_signals(traces)
    assert result.games == MIN_GAMES - 1
    assert not result.flagged


@pytest.mark.slow
def test_simulated_people_are_not_flagged_and_every_kind_of_script_is():
    people = sim.run_population(sim.human_style, 20, 8, seed="test-people")
    assert people["flagged"] == 0, people
    for name, make in sim.SCRIPTS.items():  # not sim.LOOKALIKES: a person's by design
        scripts = sim.run_population(make, 2, 10, seed=f"test-{name}")
        assert scripts["flagged"] == 2, (name, scripts)


def test_the_bench_reports_when_the_first_judgement_flags_each_population():
    steady = sim.histories(sim.SCRIPTS["engine order, steady 1.2 s"], 2, 5, seed="first")
    lines = sim.first_judgement({"key": "x", "steady": steady}, firsts=(3, 5))
    assert lines[-1] == "| steady | 2 / 2 (3.0) | 2 / 2 (5.0) |"
