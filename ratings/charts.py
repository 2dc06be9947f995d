"""A rating's history as inline SVG, drawn on the server like play.charts (no script;
classes and presentation attributes only, so it renders under the site's CSP)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

# The frame of play.charts' solve-time chart, so the two sit alike side by side (kept
# here rather than imported: ratings reads play's models only inside functions).
WIDTH = 400
HEIGHT = 170
LEFT = 60
RIGHT = 12
TOP = 14
BOTTOM = 28
STEP = 50  # rating points between grid lines, at least


def rating_history_svg(ratings: Sequence[int], *, label: str) -> SafeString:
    """Ratings after each game, oldest to newest, as a line with dots; the y axis spans
    the history rounded out to STEP (a few grid lines)."""
    if not ratings:
        return mark_safe("")
    low = (min(ratings) // STEP) * STEP
    high = -(-max(ratings) // STEP) * STEP
    if high == low:
        high = low + STEP
    step = STEP
    while (high - low) / step > 5:
        step *= 2
    low = (low // step) * step
    high = -(-high // step) * step
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w / 2 if len(ratings) == 1 else plot_w * i / (len(ratings) - 1))

    def y(value: float) -> float:
        return TOP + plot_h * (1 - (value - low) / (high - low))

    grid = format_html_join(
        "",
        '<line class="axis" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text x="{}" y="{}" text-anchor="end">{}</text>',
        (
            (LEFT, WIDTH - RIGHT, f"{y(t):.1f}", f"{y(t):.1f}", LEFT - 6, f"{y(t) + 4:.1f}", t)
            for t in range(int(low), int(high) + 1, step)
        ),
    )
    points = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, r in enumerate(ratings))
    dots = format_html_join(
        "",
        '<circle class="dot" cx="{}" cy="{}" r="3.5"><title>{}</title></circle>',
        ((f"{x(i):.1f}", f"{y(r):.1f}", r) for i, r in enumerate(ratings)),
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}" '
        'data-testid="rating-chart">'
        '{}<polyline class="line" points="{}"/>{}'
        '<text x="{}" y="{}">older</text><text x="{}" y="{}" text-anchor="end">latest</text>'
        "</svg>",
        WIDTH,
        HEIGHT,
        label,
        grid,
        points,
        dots,
        LEFT,
        HEIGHT - 6,
        WIDTH - RIGHT,
        HEIGHT - 6,
    )
