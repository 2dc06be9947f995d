"""The solve-time chart (on the site's line chart, sudokusite.charts) and the clock format
the pages share."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.safestring import SafeString

from sudokusite.charts import line_chart_svg


def clock(ms: int | float | None) -> str:
    """m:ss, or h:mm:ss from an hour; an en dash for no time."""
    if ms is None:
        return "–"
    seconds = int(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def _nice_step(top_seconds: float) -> int:
    """A round tick step (in seconds) giving three to six ticks up to ``top_seconds``."""
    for step in (5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200):
        if top_seconds / step <= 5:
            return step
    return 14_400


def solve_times_svg(times_ms: Sequence[int], *, label: str) -> SafeString:
    """Solve times oldest to newest as a line with dots; the y axis in m:ss from zero."""
    top = max(times_ms, default=0) / 1000
    step = _nice_step(top)
    y_max = max(step, -(-top // step) * step)
    ticks = [(1000 * t, clock(1000 * t)) for t in range(0, int(y_max) + 1, step)]
    return line_chart_svg(times_ms, low=0, high=1000 * y_max, ticks=ticks, title=clock, label=label)
