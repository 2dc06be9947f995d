"""The game clock's one rule: it counts only while someone plays (docs/playing.md).

Of the time between two signs of life (any write to a game, or a heartbeat) at most the gap,
``GAME_CLOCK_GAP_SECONDS``, counts. Every move passes through here twice (its write ticks the
clock, its answer shows it), so the gap is read from the settings once, and again only when
a test overrides it: a settings lookup costs more than the rule.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

_gap = timedelta(seconds=settings.GAME_CLOCK_GAP_SECONDS)
_gap_ms = settings.GAME_CLOCK_GAP_SECONDS * 1000


def gap_ms() -> int:
    """The most one stretch between two signs of life adds to the clock, in milliseconds."""
    return _gap_ms


def counted_ms(delta: timedelta) -> int:
    """What a stretch between two signs of life adds to the clock: itself, in whole
    milliseconds, up to the gap; nothing if negative."""
    if delta >= _gap:
        return _gap_ms
    ms = int(delta.total_seconds() * 1000)
    return ms if ms > 0 else 0


@receiver(setting_changed)
def _gap_changed(*, setting: str, **kwargs: Any) -> None:
    global _gap, _gap_ms
    if setting == "GAME_CLOCK_GAP_SECONDS":
        _gap = timedelta(seconds=settings.GAME_CLOCK_GAP_SECONDS)
        _gap_ms = settings.GAME_CLOCK_GAP_SECONDS * 1000
