"""A line chart of solve times as inline SVG, drawn on the server (no script, no CDN).

The SVG uses presentation attributes and classes only (no ``style`` attributes), so it
renders under the site's Content-Security-Policy; its colours come from game.css.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

WIDTH = 400
HEIGHT = 170
LEFT = 60
RIGHT = 12
TOP = 14
BOTTOM = 28


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
    if not times_ms:
        return mark_safe("")
    top = max(times_ms) / 1000
    step = _nice_step(top)
    y_max = max(step, -(-top // step) * step)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w / 2 if len(times_ms) == 1 else plot_w * i / (len(times_ms) - 1))

    def y(ms: float) -> float:
        return TOP + plot_h * (1 - (ms / 1000) / y_max)

    ticks = []
    tick = 0.0
    while tick <= y_max:
        ticks.append((TOP + plot_h * (1 - tick / y_max), clock(tick * 1000)))
        tick += step
    grid = format_html_join(
        "",
        '<line class="axis" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text x="{}" y="{}" text-anchor="end">{}</text>',
        (
            (LEFT, WIDTH - RIGHT, f"{ty:.1f}", f"{ty:.1f}", LEFT - 6, f"{ty + 4:.1f}", text)
            for ty, text in ticks
        ),
    )
    points = " ".join(f"{x(i):.1f},{y(ms):.1f}" for i, ms in enumerate(times_ms))
    dots = format_html_join(
        "",
        '<circle class="dot" cx="{}" cy="{}" r="3.5"><title>{}</title></circle>',
        ((f"{x(i):.1f}", f"{y(ms):.1f}", clock(ms)) for i, ms in enumerate(times_ms)),
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}">'
        '{}<polyline class="line" points="{}"/>{}'
        '<text x="{}" y="{}">{}</text><text x="{}" y="{}" text-anchor="end">{}</text>'
        "</svg>",
        WIDTH,
        HEIGHT,
        label,
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
