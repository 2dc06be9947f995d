"""The generator bench's goal for 9x9 Killer: 5 puzzles/s, or 2x the classic's time."""

from __future__ import annotations

from bench.variants import killer_goal


def test_a_killer_level_needs_five_puzzles_a_second_where_the_classic_makes_ten_or_more():
    assert killer_goal(12.0) == 5.0
    assert killer_goal(None) == 5.0


def test_a_killer_level_may_take_twice_the_classics_time_when_that_asks_less():
    assert killer_goal(3.2) == 1.6
    assert killer_goal(0.5) == 0.25
