"""The daily puzzles: one per day, variant and size, chosen from the bank and stored on
first use (and ahead of time by the beat task ``puzzles.daily_puzzles_pick``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from puzzles.bank import BANK_SIZES, bank_levels
from puzzles.models import DailyPuzzle, Difficulty, Puzzle, Source, Variant
from puzzles.selectors import puzzle_pick
from puzzles.variant_bank import VARIANT_BANK_SIZES
from puzzles.variants import variant_levels
from solver.grade import LEVELS
from sudokusite.errors import NotFoundError


class BankEmpty(NotFoundError):
    code = "bank_empty"
    message = gettext_lazy("There is no puzzle of that size yet.")


def daily_sizes(variant: str) -> tuple[int, ...]:
    """The sizes a daily puzzle of ``variant`` is made at: the bank's sizes of it."""
    if variant == Variant.CLASSIC:
        return BANK_SIZES
    return tuple(size for size in VARIANT_BANK_SIZES if variant_levels(variant, size))


def daily_kinds() -> list[tuple[str, int]]:
    """Every (variant, size) that has a daily puzzle, classic first."""
    return [(variant, size) for variant in Variant.values for size in daily_sizes(variant)]


def _levels(variant: str, size: int) -> list[str]:
    if variant == Variant.CLASSIC:
        return [lv for lv in bank_levels(size) if lv != Difficulty.MASTER]
    return [lv for lv in variant_levels(variant, size) if lv != Difficulty.MASTER]


def _level_for_day(day: date, size: int, variant: str = Variant.CLASSIC) -> str:
    """Easy on Monday, harder through the week, the hardest offered on Sunday."""
    levels = _levels(variant, size) or list(LEVELS[:1])
    week = (0, 1, 1, 2, 2, 3, 3)  # Monday .. Sunday
    return levels[min(week[day.weekday()], len(levels) - 1)]


def _daily_of(day: date, variant: str, size: int) -> DailyPuzzle | None:
    return (
        DailyPuzzle.objects.filter(date=day, variant=variant, size=size)
        .select_related("puzzle")
        .first()
    )


def _candidate(day: date, variant: str, size: int) -> Puzzle | None:
    """A bank puzzle for the day: of the day's level and never a daily puzzle before if
    one is left, else of any level, else one used before (a small bank repeats)."""
    level = _level_for_day(day, size, variant)
    used = DailyPuzzle.objects.filter(variant=variant, size=size).values("puzzle_id")
    # A variant puzzle from elsewhere carries a provisional level: only generated ones,
    # graded by the engine, are a day's puzzle.
    source = None if variant == Variant.CLASSIC else Source.GENERATED
    seed = day.isoformat() if variant == Variant.CLASSIC else f"{day}:{variant}"
    pool = {"size": size, "variant": variant, "source": source, "seed": seed}
    return (
        puzzle_pick(difficulty=level, exclude=(used,), **pool)
        or puzzle_pick(difficulty=None, exclude=(used,), **pool)
        or puzzle_pick(difficulty=level, **pool)
        or puzzle_pick(difficulty=None, **pool)
    )


def daily_puzzle_pick(*, day: date, size: int = 9, variant: str = Variant.CLASSIC) -> DailyPuzzle:
    """The daily puzzle of ``day`` for ``variant`` and ``size``, chosen and stored on first
    use. A puzzle that was a daily puzzle before is not chosen again while others remain.
    Raises BankEmpty when the bank holds no puzzle of this variant and size."""
    existing = _daily_of(day, variant, size)
    if existing is not None:
        return existing
    puzzle = _candidate(day, variant, size)
    if puzzle is None:
        if variant == Variant.CLASSIC:
            raise BankEmpty(_("There is no %(size)sx%(size)s puzzle yet.") % {"size": size})
        raise BankEmpty(
            _("There is no %(size)sx%(size)s %(variant)s puzzle yet.")
            % {"size": size, "variant": Variant(variant).label}
        )
    try:
        with transaction.atomic():
            return DailyPuzzle.objects.create(date=day, variant=variant, size=size, puzzle=puzzle)
    except IntegrityError:
        # Picked by another request at the same moment: theirs stands.
        return DailyPuzzle.objects.select_related("puzzle").get(
            date=day, variant=variant, size=size
        )


def daily_puzzles_pick(
    *,
    days: tuple[date, ...] | None = None,
    kinds: Iterable[tuple[str, int]] | None = None,
) -> int:
    """Choose the daily puzzles of today and tomorrow (UTC) for every variant and size the
    bank holds (``kinds``: (variant, size) pairs, all of them by default)."""
    today = timezone.now().date()
    days = days or (today, today + timedelta(days=1))
    chosen = list(kinds) if kinds is not None else daily_kinds()
    picked = 0
    for day in days:
        for variant, size in chosen:
            try:
                daily_puzzle_pick(day=day, size=size, variant=variant)
                picked += 1
            except BankEmpty:
                continue
    return picked


def daily_puzzles_of_day(*, day: date, size: int | None = None) -> list[DailyPuzzle]:
    """Every variant's daily puzzle of ``day`` (of ``size`` only, if given), chosen on first
    use, classic first; a variant and size the bank has no puzzle of is left out."""
    found = []
    for variant, kind_size in daily_kinds():
        if size is not None and kind_size != size:
            continue
        try:
            found.append(daily_puzzle_pick(day=day, size=kind_size, variant=variant))
        except BankEmpty:
            continue
    return found


def daily_puzzle_get(*, day: date, size: int = 9, variant: str = Variant.CLASSIC) -> Puzzle:
    """The daily puzzle of ``day`` for ``variant`` and ``size`` (chosen and stored on first
    use). Raises BankEmpty when the bank holds no puzzle of that variant and size."""
    return daily_puzzle_pick(day=day, size=size, variant=variant).puzzle
