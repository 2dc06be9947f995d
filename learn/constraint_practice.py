"""Practice games for the constraint lessons whose kind is made at levels
(:data:`solver.generation.constrained.GENERATED`: anti-knight, anti-king, non-consecutive,
kropki, XV, thermometer, arrow, little killer); the other constraint lessons are taught by
their lesson only.

A practice puzzle is a 9x9 with the lesson's constraints whose logic solution uses the
lesson's sentence (``constraint:<step>``; a peers rule's, a single clearing the peers it
adds) and is finished by the logic, unique by the logic and the exact search
(:func:`solver.generation.constrained_practice.make_constrained_practice`). It is stored as
``Source.PRACTICE``, with the sentences it uses among its ``techniques``: no pool of the
bank (level, daily, at my level, the classic lessons' practice) draws such a puzzle, and
its games never count for boards or ratings (``integrity.gate``: ``practice_only``).

A request picks an unplayed one from the stock that Celery beat keeps
(``learn.constraint_practice_top_up``, :data:`CONSTRAINT_PRACTICE_MINIMUM` per lesson);
when the player has played them all it makes one within
:data:`CONSTRAINT_PRACTICE_MAKE_SECONDS` (kinds quick enough to make in a request only),
else replays the one they played longest ago, else answers 503
``practice_puzzle_not_ready`` with ``Retry-After`` and queues the top-up. ``seed_bank``
makes none: the quick kinds are made in a request in a third of a second, and the slow
ones (seconds each) would hold up a deploy and the tests that seed.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from functools import reduce
from operator import or_

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from learn.constraint_lessons import LESSONS, ConstraintLesson, constraint_lesson
from learn.errors import PracticePuzzleNotReady
from learn.variant_practice import first_unplayed, longest_ago
from play.models import Game
from puzzles.models import Puzzle, Source
from puzzles.practice import PRACTICE_MINIMUM
from puzzles.variant_bank import variant_puzzle_store
from solver import Shape
from solver.generation.constrained import GENERATED
from solver.generation.constrained_practice import ConstrainedPractice, make_constrained_practice
from sudokusite.queueing import queue_once_a_minute

log = logging.getLogger(__name__)

SIZE = 9
"""The size constraint lessons are practised on (their examples' size)."""
CONSTRAINT_PRACTICE_MINIMUM = PRACTICE_MINIMUM
CONSTRAINT_PRACTICE_MAKE_SECONDS = 1.0
"""How long a request may spend making a practice puzzle (an attempt under way finishes)."""
SLOW_KINDS = ("antiknight", "nonconsecutive")
"""Kinds left to the workers: a random grid under the rule alone takes about a second and
up to several (``python -m bench learning``, the constraint rows: 1.7 and 3 s a puzzle)."""
RETRY_AFTER = 30
"""Seconds a 503 asks the client to wait: the top-up makes a lesson's stock in seconds."""
TOP_UP_TASK = "learn.constraint_practice_top_up"


def practised_lessons() -> tuple[ConstraintLesson, ...]:
    """The constraint lessons with practice games: those whose kind is made at levels."""
    return tuple(lesson for lesson in LESSONS if lesson.drawn in GENERATED)


def practised_lesson(slug: str) -> ConstraintLesson | None:
    lesson = constraint_lesson(slug)
    return lesson if lesson is not None and lesson.drawn in GENERATED else None


def lesson_sentences(lesson: ConstraintLesson) -> tuple[str, ...]:
    """The sentences a practice puzzle of ``lesson`` must use (a peers lesson's own)."""
    return tuple(f"constraint:{step}" for step in lesson.steps or (lesson.slug,))


def practice_rows(lesson: ConstraintLesson) -> QuerySet[Puzzle]:
    """The stored practice puzzles of ``lesson``: a walk of the practice-only index."""
    uses = reduce(or_, (Q(techniques__has_key=s) for s in lesson_sentences(lesson)))
    return Puzzle.objects.filter(source=Source.PRACTICE, size=SIZE).filter(uses)


def constraint_practice_puzzle(
    *,
    lesson: ConstraintLesson,
    games: QuerySet[Game],
    may_make: Callable[[], bool] | None,
    seconds: float = CONSTRAINT_PRACTICE_MAKE_SECONDS,
) -> int:
    """The id of a practice puzzle of ``lesson`` for the player whose games are ``games``
    (see the module docstring for the order); PracticePuzzleNotReady when there is none."""
    rows = practice_rows(lesson)
    picked = first_unplayed(rows, games)
    if picked is not None:
        return picked
    made = None
    if lesson.drawn not in SLOW_KINDS and (may_make is None or may_make()):
        made = constraint_practice_make(lesson=lesson, seconds=seconds)
    found = made or longest_ago(rows, games)
    if found is None:
        constraint_practice_queue()
        raise PracticePuzzleNotReady(
            _("A practice puzzle for %(name)s is being made: try again in a moment.")
            % {"name": lesson.name},
            retry_after=RETRY_AFTER,
            extra={"technique": lesson.slug},
        )
    return found


def constraint_practice_make(
    *, lesson: ConstraintLesson, seconds: float, seed: str | None = None
) -> int | None:
    """Make a practice puzzle of ``lesson`` within ``seconds``, store it and return its id;
    None when none was made in time."""
    seed = seed or f"practice:{secrets.token_hex(6)}"
    deadline = time.monotonic() + seconds
    made = make_constrained_practice(
        lesson.drawn,
        Shape.for_size(SIZE),
        lesson_sentences(lesson),
        seed=seed,
        stop=lambda: time.monotonic() > deadline,
    )
    if made is None:
        log.info("constraint practice %s: none made in %.1f s", lesson.slug, seconds)
        return None
    return _store(made)[0].pk


def _store(made: ConstrainedPractice) -> tuple[Puzzle, bool]:
    """The practice puzzle stored (practice-only), with its sentences among its
    techniques; whether it is new."""
    puzzle, created = variant_puzzle_store(
        grid=made.made.puzzle,
        rules=made.made.rules,
        solution=made.made.solution,
        source=Source.PRACTICE,
    )
    if created:
        techniques = {**puzzle.techniques, **made.sentences}
        Puzzle.objects.filter(pk=puzzle.pk).update(techniques=techniques)
        puzzle.techniques = techniques
    return puzzle, created


def constraint_practice_top_up(
    *,
    minimum: int = CONSTRAINT_PRACTICE_MINIMUM,
    lessons: tuple[ConstraintLesson, ...] | None = None,
) -> int:
    """Make practice puzzles for every practised lesson with fewer than ``minimum``
    stored (Celery beat, ``learn.constraint_practice_top_up``); returns how many it stored.
    The seeds (``stock:<slug>:<k>``) make a redelivered task make the same puzzles, which
    the bank stores once."""
    stored = 0
    for lesson in practised_lessons() if lessons is None else lessons:
        have = practice_rows(lesson)[:minimum].count()
        for k in range(have, minimum):
            made = make_constrained_practice(
                lesson.drawn,
                Shape.for_size(SIZE),
                lesson_sentences(lesson),
                seed=f"stock:{lesson.slug}:{k}",
            )
            if made is not None:
                stored += _store(made)[1]
    return stored


def constraint_practice_queue() -> None:
    """Queue the top-up after this transaction, at most once a minute (beat queues it
    again within ten minutes)."""
    queue_once_a_minute(TOP_UP_TASK)


__all__ = [
    "constraint_practice_make",
    "constraint_practice_puzzle",
    "constraint_practice_queue",
    "constraint_practice_top_up",
    "lesson_sentences",
    "practice_rows",
    "practised_lesson",
    "practised_lessons",
]
