"""The signals on their own, from event lists (no database)."""

from __future__ import annotations

import random

from integrity.signals import (
    BLIND_MIN,
    BLIND_PAUSE_MS,
    HUMAN_FLOOR_MS,
    LEVEL_FLOOR_MS,
    MIN_PLACEMENTS,
    Event,
    game_signals,
    placeable_cells,
)
from play.board import value_of
from solver import Shape, logic_solve, parse, solve
from tests.play.factories import NINE
from tests.solver.datasets import load

SHAPE = Shape(3, 3)
GIVENS = [value_of(ch) for ch in NINE]
SOLUTION = list(solve(parse(NINE)).cells)
EMPTY = [c for c, v in enumerate(GIVENS) if not v]
LOGICAL = [c for step in logic_solve(parse(NINE)).steps for c, _ in step.placements]


def placements(cells: list[int], gaps_ms: list[int], solution=SOLUTION) -> list[Event]:
    out, clock = [], 0
    for cell, gap in zip(cells, gaps_ms, strict=True):
        clock += gap
        value = solution[cell]
        out.append(
            Event(
                "value", cell, value, clock, placement=True, correct=True, entries=((cell, value),)
            )
        )
    return out


def signals(events: list[Event], level: str = "easy", givens=GIVENS, solution=SOLUTION):
    elapsed = events[-1].clock_ms if events else 0
    return game_signals(
        events, shape=SHAPE, givens=givens, solution=solution, level=level, elapsed_ms=elapsed
    )


def test_a_bot_placing_every_value_at_50_ms_is_flagged_on_every_signal():
    result = signals(placements(EMPTY, [50] * len(EMPTY)))
    assert result.flagged
    assert result.under_floor == len(EMPTY)
    assert result.fastest_ms == [50] * 5
    assert result.ms_per_placement == 50
    assert len(result.reasons) >= 2


def test_a_person_placing_singles_with_pauses_is_not_flagged():
    gaps = [6000 if i % 4 == 0 else 1500 for i in range(len(LOGICAL))]
    result = signals(placements(LOGICAL, gaps))
    assert not result.flagged, result.reasons
    assert result.blind_quick == 0


def test_a_copied_solution_at_a_human_pace_is_flagged_only_when_made_without_pause():
    puzzle = load("qqwing_expert")[0]
    givens = [value_of(ch) for ch in puzzle]
    solution = list(solve(parse(puzzle)).cells)
    cells = [c for c, v in enumerate(givens) if not v]
    random.Random(1).shuffle(cells)  # copied from a solution, in no logical order

    def judged(gap_ms: int):
        events = placements(cells, [gap_ms] * len(cells), solution)
        return signals(events, "expert", givens, solution)

    quick = judged(1800)
    assert quick.blind_quick >= BLIND_MIN
    assert quick.flagged and quick.ms_per_placement > LEVEL_FLOOR_MS["expert"]
    slow = judged(BLIND_PAUSE_MS + 500)
    assert slow.blind_quick == 0 and not slow.flagged


def test_without_the_blind_signal_only_the_time_floors_judge_a_game():
    """``blind=False`` leaves the time floors alone: play at a person's pace in no
    logical order passes, a script's pace is still flagged."""
    cells = list(EMPTY)
    random.Random(1).shuffle(cells)
    events = placements(cells, [1800] * len(cells))
    common = {"shape": SHAPE, "givens": GIVENS, "solution": SOLUTION, "level": "easy"}
    paced = game_signals(events, **common, elapsed_ms=events[-1].clock_ms, blind=False)
    assert paced.blind_quick == 0 and not paced.flagged, paced.reasons
    bot = placements(cells, [50] * len(cells))
    scripted = game_signals(bot, **common, elapsed_ms=bot[-1].clock_ms, blind=False)
    assert scripted.flagged and scripted.blind_quick == 0


def test_a_cell_is_placeable_when_some_technique_places_it_now():
    placeable = placeable_cells(SHAPE, GIVENS)
    assert placeable and set(LOGICAL[:1]) <= placeable
    assert not placeable >= set(EMPTY)


def test_too_few_placements_are_not_judged():
    cells = EMPTY[: MIN_PLACEMENTS - 1]
    result = signals(placements(cells, [HUMAN_FLOOR_MS // 5] * len(cells)))
    assert not result.flagged
    assert result.under_floor == len(cells)
