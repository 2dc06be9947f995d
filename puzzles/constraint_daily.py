"""The daily puzzle with constraints: one 9x9 a day beside the variant dailies
(puzzles.daily), the same for everyone, and never rated.

Its kind follows the generated kinds (``solver.generation.constrained.GENERATED``) in turn,
one a day by date (:data:`ROTATION`: day *d* has ``ROTATION[d.toordinal() % 8]``), each at
the level the generator reaches reliably for it
(``solver.generation.constrained_daily.DAILY_LEVELS``): easy thermometers, arrows, XV and
non-consecutive, medium kropki and little killers, hard anti-king, expert anti-knight. The
seed is the date, so every process makes the same puzzle for a day. When no attempt lands
at the level in time, the nearest level made stands: the level shown is always the
puzzle's own, as the variant grader measures it.

It is made ahead by the beat task (``puzzles.daily_puzzles_pick``: today and tomorrow,
within :data:`BEAT_MAKE_SECONDS`) and, when missing, on first use within
:data:`REQUEST_MAKE_SECONDS` (an attempt under way finishes) if its kind's slowest attempt
fits in that time; otherwise (non-consecutive: up to 8 s an attempt), or when the caller's
rate for solver work is spent or the making failed, the request queues
``puzzles.constraint_daily_pick`` (once a minute at most) and the day has none for now:
:class:`ConstraintDailyAbsent` (404 ``no_constraint_daily``) says so. After a failed
making, requests leave it to the workers for :data:`FAILED_WAIT_SECONDS`.

The puzzle is stored as a generated bank puzzle with constraints: no pool draws it
(``Puzzle.constrained``) and no game of it counts (``integrity.gate``: ``constrained``).
Its ``DailyPuzzle`` row (``constrained``, unique per day) protects its solution as every
daily's is protected (``play.disclosure``: the solver API refuses it while its day lasts).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from puzzles.constraint_names import KIND_NAMES, rules_names
from puzzles.models import BANK_SOURCES, CONSTRAINED_DAILY_SIZE, DailyPuzzle, Puzzle, Source
from puzzles.variant_bank import variant_puzzle_store
from solver import Shape
from solver.generation.constrained_daily import DAILY_LEVELS, generate_daily_constrained
from sudokusite.errors import NotFoundError
from sudokusite.queueing import queue_once_a_minute

log = logging.getLogger(__name__)

ROTATION = (
    "thermometer", "kropki", "antiking", "arrow", "little_killer", "xv", "nonconsecutive",
    "antiknight",
)  # fmt: skip
"""The kinds in turn, one a day by date (module docstring)."""
assert sorted(ROTATION) == sorted(DAILY_LEVELS)

BEAT_MAKE_SECONDS = 30.0
"""How long the beat task may spend making a day's puzzle (a few seconds is the rule)."""
REQUEST_MAKE_SECONDS = 2.0
"""How long a request may spend making today's puzzle when the beat task has not."""
FAILED_WAIT_SECONDS = 300
"""After a making failed, how long requests leave it to the workers."""
PICK_TASK = "puzzles.constraint_daily_pick"


class ConstraintDailyAbsent(NotFoundError):
    code = "no_constraint_daily"
    message = gettext_lazy(
        "Today's daily puzzle with constraints is not ready: try again in a few minutes, "
        "or play another daily puzzle."
    )


def constraint_daily_kind(day: date) -> str:
    """The kind of constraint of ``day``'s puzzle (:data:`ROTATION`)."""
    return ROTATION[day.toordinal() % len(ROTATION)]


def constraint_daily_level(day: date) -> str:
    """The level ``day``'s puzzle is made at: the one its kind reaches reliably."""
    return DAILY_LEVELS[constraint_daily_kind(day)].level


def constraint_daily_schedule(*, start: date) -> list[dict[str, object]]:
    """The kind, its name and the level of the puzzles of ``start`` and the days after,
    one whole turn of :data:`ROTATION`."""
    days = (start + timedelta(days=i) for i in range(len(ROTATION)))
    return [
        {
            "date": day,
            "kind": constraint_daily_kind(day),
            "name": str(KIND_NAMES[constraint_daily_kind(day)]),
            "level": constraint_daily_level(day),
        }
        for day in days
    ]


def constraint_daily_of(*, day: date) -> DailyPuzzle | None:
    """``day``'s daily puzzle with constraints if it is chosen (no making)."""
    return DailyPuzzle.objects.filter(date=day, constrained=True).select_related("puzzle").first()


def constraint_daily_entry(*, day: date) -> dict[str, Any] | None:
    """``day``'s puzzle as a list names it: ``label`` (its constraints' names, or the
    kind of the day's before it is made), ``level`` (its own, once made) and
    ``puzzle_id``; None on a day it could not be made. No making."""
    chosen = constraint_daily_of(day=day)
    if chosen is None and constraint_daily_failed(day=day):
        return None
    kinds = chosen.puzzle.constraint_kinds if chosen else [constraint_daily_kind(day)]
    return {
        "label": _("With constraints: %(names)s") % {"names": rules_names(None, kinds)},
        "level": chosen.puzzle.get_difficulty_display() if chosen else "",
        "puzzle_id": chosen.puzzle_id if chosen else None,
    }


def _failed_key(day: date) -> str:
    return f"puzzles:constraint-daily-failed:{day.isoformat()}"


def constraint_daily_failed(*, day: date) -> bool:
    """Whether a request could not make ``day``'s puzzle lately (it is absent until the
    beat task makes it)."""
    return bool(cache.get(_failed_key(day)))


def constraint_daily_make(*, day: date, seconds: float) -> Puzzle | None:
    """Make and store ``day``'s puzzle within ``seconds`` (module docstring); None when
    none was made in time."""
    kind = constraint_daily_kind(day)
    deadline = time.monotonic() + seconds
    made = generate_daily_constrained(
        kind,
        Shape.for_size(CONSTRAINED_DAILY_SIZE),
        day.toordinal(),
        stop=lambda: time.monotonic() > deadline,
    )
    if made is None:
        log.warning(
            "daily puzzle with constraints of %s (%s): none made in %.0f s", day, kind, seconds
        )
        return None
    puzzle, _created = variant_puzzle_store(
        grid=made.made.puzzle,
        rules=made.made.rules,
        solution=made.made.solution,
        source=Source.GENERATED,
    )
    # The bank had it already, from elsewhere (a typed-in copy): not the site's to serve.
    if puzzle.source not in BANK_SOURCES or not puzzle.constrained:
        return None
    return puzzle


def constraint_daily_pick(
    *,
    day: date,
    seconds: float = REQUEST_MAKE_SECONDS,
    may_make: Callable[[], bool] | None = None,
) -> DailyPuzzle | None:
    """``day``'s daily puzzle with constraints, made and stored on first use (within
    ``seconds``; ``may_make``, the caller's rate for solver work, is asked first); None
    when it cannot be had now. Two requests making it at once store one: the other's
    insert fails on the day's unique row and it answers with the one stored."""
    existing = constraint_daily_of(day=day)
    if existing is not None:
        return existing
    quick = DAILY_LEVELS[constraint_daily_kind(day)].slowest <= seconds
    if not quick or constraint_daily_failed(day=day) or (may_make is not None and not may_make()):
        constraint_daily_queue()
        return None
    puzzle = constraint_daily_make(day=day, seconds=seconds)
    if puzzle is None:
        cache.set(_failed_key(day), 1, timeout=FAILED_WAIT_SECONDS)
        constraint_daily_queue()
        return None
    try:
        with transaction.atomic():
            return DailyPuzzle.objects.create(
                date=day,
                variant=puzzle.variant,
                size=puzzle.size,
                puzzle=puzzle,
                constrained=True,
            )
    except IntegrityError:
        # Made by another request (or the beat task) at the same moment: theirs stands.
        return constraint_daily_of(day=day)


def constraint_daily_get(*, day: date, may_make: Callable[[], bool] | None = None) -> Puzzle:
    """The puzzle of :func:`constraint_daily_pick`; ConstraintDailyAbsent without one."""
    chosen = constraint_daily_pick(day=day, may_make=may_make)
    if chosen is None:
        raise ConstraintDailyAbsent()
    return chosen.puzzle


def constraint_daily_queue() -> None:
    """Queue ``puzzles.constraint_daily_pick`` after this transaction, at most once a
    minute (beat runs it within the hour)."""
    queue_once_a_minute(PICK_TASK)


def constraint_dailies_pick(*, days: tuple[date, ...] | None = None) -> int:
    """Make the daily puzzles with constraints of ``days`` (today's and tomorrow's, UTC)
    that are missing (the beat task, and ``puzzles.constraint_daily_pick`` queued by a
    request), within :data:`BEAT_MAKE_SECONDS` each; how many are chosen now."""
    today = timezone.now().date()
    picked = 0
    for day in days or (today, today + timedelta(days=1)):
        cache.delete(_failed_key(day))
        picked += constraint_daily_pick(day=day, seconds=BEAT_MAKE_SECONDS) is not None
    return picked


__all__ = [
    "BEAT_MAKE_SECONDS",
    "ROTATION",
    "ConstraintDailyAbsent",
    "constraint_dailies_pick",
    "constraint_daily_entry",
    "constraint_daily_failed",
    "constraint_daily_get",
    "constraint_daily_kind",
    "constraint_daily_level",
    "constraint_daily_of",
    "constraint_daily_pick",
    "constraint_daily_queue",
    "constraint_daily_schedule",
]
