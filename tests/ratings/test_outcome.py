import math

import pytest

from ratings.glicko2 import Rating, expected_score
from ratings.outcome import base_seconds, game_outcome, predicted_seconds, time_outcome

CLEAN = {"mistakes": 0, "hint_stages": 0, "aids": 0, "empty_cells": 50}


def test_faster_solves_score_higher_and_stay_in_range():
    times = [10_000, 120_000, 600_000, 3_600_000, 100_000_000]
    values = [game_outcome(completed=True, size=9, elapsed_ms=t, **CLEAN) for t in times]
    assert values == sorted(values, reverse=True)
    assert all(0 < v < 1 for v in values)
    assert game_outcome(completed=True, size=9, elapsed_ms=600_000, **CLEAN) == 0.5


def test_abandoned_or_lost_is_zero():
    assert game_outcome(completed=False, size=9, elapsed_ms=1000, **CLEAN) == 0.0


def test_mistakes_hints_and_aids_lower_the_outcome():
    clean = game_outcome(completed=True, size=9, elapsed_ms=300_000, **CLEAN)
    for extra in ({"mistakes": 1}, {"hint_stages": 2}, {"aids": 1}):
        assert (
            game_outcome(completed=True, size=9, elapsed_ms=300_000, **{**CLEAN, **extra}) < clean
        )


def test_a_solve_shown_entirely_by_hints_is_a_loss():
    value = game_outcome(
        completed=True, size=4, elapsed_ms=1000, mistakes=0, hint_stages=18, aids=0, empty_cells=6
    )
    assert value == 0.0


def test_solving_in_the_predicted_time_scores_the_expected_score():
    player, puzzle = Rating(1700, 60), Rating(1450, 0.001)
    seconds = predicted_seconds(size=9, player_rating=1700, puzzle_rating=1450)
    assert seconds < base_seconds(9)
    assert time_outcome(size=9, seconds=seconds) == pytest.approx(
        expected_score(player, puzzle), abs=1e-6
    )
    assert base_seconds(16) > base_seconds(9) > base_seconds(4)
    assert math.isclose(base_seconds(9), 600)
