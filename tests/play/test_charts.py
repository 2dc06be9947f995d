"""The server-drawn chart of solve times and the clock format the pages share."""

from __future__ import annotations

import re

from play.charts import clock, solve_times_svg
from sudokusite.charts import HEIGHT


def test_clock_shows_minutes_and_seconds_then_hours():
    assert clock(None) == "–"
    assert clock(0) == "0:00"
    assert clock(61_999) == "1:01"
    assert clock(3_725_000) == "1:02:05"


def test_no_times_draws_nothing():
    assert solve_times_svg([], label="none") == ""


def test_each_time_is_a_dot_and_faster_solves_sit_lower_on_the_time_axis():
    svg = solve_times_svg([120_000, 60_000, 90_000], label="Solve times")
    dots = [float(y) for y in re.findall(r'<circle class="dot" cx="[^"]+" cy="([^"]+)"', svg)]
    assert len(dots) == 3
    # y grows downwards: the 1:00 solve is lowest (largest y), the 2:00 one highest.
    assert dots[1] > dots[2] > dots[0]
    assert all(0 < y < HEIGHT for y in dots)
    assert "<title>1:00</title>" in svg
    assert 'role="img"' in svg and 'aria-label="Solve times"' in svg


def test_the_axis_starts_at_zero_with_round_ticks():
    svg = solve_times_svg([250_000], label="x")
    ticks = re.findall(r'text-anchor="end">([0-9:]+)</text>', svg)
    assert ticks[0] == "0:00"
    assert ticks == ["0:00", "1:00", "2:00", "3:00", "4:00", "5:00"]


def test_the_label_is_escaped():
    svg = solve_times_svg([1000], label='<b>"x"</b>')
    assert "<b>" not in svg
    assert "&lt;b&gt;" in svg
