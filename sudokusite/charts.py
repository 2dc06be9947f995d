"""The site's line chart as inline SVG, drawn on the server (no script, no CDN).

The SVG uses presentation attributes and classes only (no ``style`` attributes), so it
renders under the site's Content-Security-Policy; its colours come from game.css. The
solve-time chart (play.charts) and the rating chart (ratings.charts) share this frame, so
they sit alike side by side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

WIDTH = 400
HEIGHT = 170
LEFT = 60
RIGHT = 12
TOP = 14
BOTTOM = 28


def line_chart_svg(
    values: Sequence[float],
    *,
    low: float,
    high: float,
    ticks: Sequence[tuple[float, str]],
    title: Callable[[float], str],
    label: str,
    testid: str = "",
) -> SafeString:
    """``values`` oldest to newest as a line with dots, on a y axis from ``low`` to
    ``high`` with a grid line and its text at each of ``ticks``; each dot's tooltip is
    ``title(value)``. Nothing for no values."""
    if not values:
        return mark_safe("")
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> str:
        return f"{LEFT + (plot_w / 2 if len(values) == 1 else plot_w * i / (len(values) - 1)):.1f}"

    def y(value: float) -> float:
        return TOP + plot_h * (1 - (value - low) / (high - low))

    grid = format_html_join(
        "",
        '<line class="axis" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text x="{}" y="{}" text-anchor="end">{}</text>',
        (
            (LEFT, WIDTH - RIGHT, f"{y(t):.1f}", f"{y(t):.1f}", LEFT - 6, f"{y(t) + 4:.1f}", text)
            for t, text in ticks
        ),
    )
    points = " ".join(f"{x(i)},{y(v):.1f}" for i, v in enumerate(values))
    dots = format_html_join(
        "",
        '<circle class="dot" cx="{}" cy="{}" r="3.5"><title>{}</title></circle>',
        ((x(i), f"{y(v):.1f}", title(v)) for i, v in enumerate(values)),
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}"{}>'
        '{}<polyline class="line" points="{}"/>{}'
        '<text x="{}" y="{}">{}</text><text x="{}" y="{}" text-anchor="end">{}</text>'
        "</svg>",
        WIDTH,
        HEIGHT,
        label,
        format_html(' data-testid="{}"', testid) if testid else "",
        grid,
        points,
        dots,
        LEFT,
        HEIGHT - 6,
        pgettext("chart", "older"),
        WIDTH - RIGHT,
        HEIGHT - 6,
        pgettext("chart", "latest"),
    )
