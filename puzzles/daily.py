"""The daily puzzle: one per day and size, chosen from the bank and stored on first use."""

from __future__ import annotations

from datetime import date, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from puzzles.bank import BANK_SIZES, bank_levels
from puzzles.models import DailyPuzzle, Difficulty, Puzzle
from puzzles.selectors import puzzle_pick
from solver.grade import LEVELS
from sudokusite.errors import NotFoundError


class BankEmpty(NotFoundError):
    code = "bank_empty"
    message = gettext_lazy("The bank holds no puzzle of that size yet.")


def _level_for_day(day: date, size: int) -> str:
    """Easy on Monday, harder through the week, the hardest offered on Sunday."""
    levels = [lv for lv in bank_levels(size) if lv != Difficulty.MASTER] or list(LEVELS[:1])
    week = (0, 1, 1, 2, 2, 3, 3)  # Monday .. Sunday
    return levels[min(week[day.weekday()], len(levels) - 1)]


def daily_puzzle_pick(*, day: date, size: int = 9) -> DailyPuzzle:
    """The daily puzzle of ``day`` for ``size``, chosen and stored on first use.

    A puzzle that was a daily puzzle before is not chosen again while others remain.
    Raises BankEmpty when the bank holds no puzzle of this size.
    """
    existing = DailyPuzzle.objects.filter(date=day, size=size).select_related("puzzle").first()
    if existing is not None:
        return existing
    level = _level_for_day(day, size)
    used = DailyPuzzle.objects.filter(size=size).values("puzzle_id")
    puzzle = (
        puzzle_pick(size=size, difficulty=level, exclude=(used,), seed=day.isoformat())
        or puzzle_pick(size=size, difficulty=None, exclude=(used,), seed=day.isoformat())
        or puzzle_pick(size=size, difficulty=level, seed=day.isoformat())
        or puzzle_pick(size=size, difficulty=None, seed=day.isoformat())
    )
    if puzzle is None:
        raise BankEmpty(_("The bank holds no %(size)sx%(size)s puzzle yet.") % {"size": size})
    try:
        with transaction.atomic():
            return DailyPuzzle.objects.create(date=day, size=size, puzzle=puzzle)
    except IntegrityError:
        # Picked by another request at the same moment: theirs stands.
        return DailyPuzzle.objects.select_related("puzzle").get(date=day, size=size)


def daily_puzzles_pick(*, days: tuple[date, ...] | None = None, sizes=BANK_SIZES) -> int:
    """Choose the daily puzzles of today and tomorrow (UTC) for every stocked size."""
    today = timezone.now().date()
    days = days or (today, today + timedelta(days=1))
    picked = 0
    for day in days:
        for size in sizes:
            try:
                daily_puzzle_pick(day=day, size=size)
                picked += 1
            except BankEmpty:
                continue
    return picked


def daily_puzzle_get(*, day: date, size: int = 9) -> Puzzle:
    """The daily puzzle of ``day`` for ``size`` (chosen and stored on first use).
    Raises BankEmpty when the bank holds no puzzle of that size."""
    return daily_puzzle_pick(day=day, size=size).puzzle
