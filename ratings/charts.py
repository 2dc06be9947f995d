"""A rating's history on the site's line chart (sudokusite.charts), beside the solve-time
chart of play.charts."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.safestring import SafeString

from sudokusite.charts import line_chart_svg

STEP = 50  # rating points between grid lines, at least


def rating_history_svg(ratings: Sequence[int], *, label: str) -> SafeString:
    """Ratings after each game, oldest to newest, as a line with dots; the y axis spans
    the history rounded out to STEP (a few grid lines)."""
    low = (min(ratings, default=0) // STEP) * STEP
    high = -(-max(ratings, default=0) // STEP) * STEP
    if high == low:
        high = low + STEP
    step = STEP
    while (high - low) / step > 5:
        step *= 2
    low = (low // step) * step
    high = -(-high // step) * step
    ticks = [(t, str(t)) for t in range(int(low), int(high) + 1, step)]
    return line_chart_svg(
        ratings, low=low, high=high, ticks=ticks, title=str, label=label, testid="rating-chart"
    )
