"""The daily puzzles: one per day, variant and size, chosen from the bank and stored on
first use (and ahead of time by the beat task ``puzzles.daily_puzzles_pick``).

Each day's level follows :data:`DAILY_SCHEDULE`, a week per variant: easy early in the
week, the hardest at its end. Killer's week tops out at hard: its expert puzzles have no
givens at all, which suits a veteran's choice, not a newcomer's first daily. A level a
size does not offer (4x4 is easy only; 6x6 Killer stops at hard) falls to the nearest
easier one it offers (:func:`daily_level`). The pick takes a puzzle of that level never
used as a daily, else (the beat task, where the variant and size have puzzles at all) makes
one, else reuses one of that level, and only then the
nearest level (easier first): the level a daily shows is always its puzzle's own.
"""

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
from solver.logic.grade import LEVELS
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


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

DAILY_SCHEDULE: dict[str, tuple[str, ...]] = {
    "classic": ("easy", "medium", "medium", "hard", "hard", "expert", "expert"),
    "diagonal": ("easy", "easy", "medium", "medium", "hard", "hard", "expert"),
    "jigsaw": ("easy", "easy", "medium", "medium", "hard", "hard", "expert"),
    "killer": ("easy", "easy", "medium", "medium", "medium", "hard", "hard"),
}
"""The level of each variant's daily puzzle, Monday to Sunday (see the module docstring)."""


def _levels(variant: str, size: int) -> list[str]:
    if variant == Variant.CLASSIC:
        return [lv for lv in bank_levels(size) if lv != Difficulty.MASTER]
    return [lv for lv in variant_levels(variant, size) if lv != Difficulty.MASTER]


def daily_level(day: date, size: int, variant: str = Variant.CLASSIC) -> str:
    """The scheduled level of ``day``'s daily puzzle, or the nearest easier one offered."""
    wanted = DAILY_SCHEDULE.get(variant, DAILY_SCHEDULE["classic"])[day.weekday()]
    offered = _levels(variant, size) or list(LEVELS[:1])
    easier = [lv for lv in offered if LEVELS.index(lv) <= LEVELS.index(wanted)]
    return easier[-1] if easier else offered[0]


def daily_schedule(*, size: int = 9) -> list[dict[str, object]]:
    """Each variant's week of levels at ``size`` (as :func:`daily_level` applies them)."""
    monday = date(2024, 1, 1)  # a Monday
    return [
        {
            "variant": variant,
            "size": size,
            "levels": {
                name: daily_level(monday + timedelta(days=i), size, variant)
                for i, name in enumerate(WEEKDAYS)
            },
        }
        for variant in Variant.values
        if size in daily_sizes(variant)
    ]


def _nearest_levels(level: str, offered: list[str]) -> list[str]:
    """The other offered levels, nearest to ``level`` first, the easier one on a tie."""
    at = LEVELS.index(level)
    others = [lv for lv in offered if lv != level]
    return sorted(others, key=lambda lv: (abs(LEVELS.index(lv) - at), LEVELS.index(lv)))


def _daily_of(day: date, variant: str, size: int) -> DailyPuzzle | None:
    return (
        DailyPuzzle.objects.filter(date=day, variant=variant, size=size, constrained=False)
        .select_related("puzzle")
        .first()
    )


BEAT_MAKE_SECONDS = 10.0
"""How long the beat task may spend making a daily puzzle of a level the bank lacks."""


def _candidate(day: date, variant: str, size: int, *, make: bool) -> Puzzle | None:
    """A bank puzzle for the day (see the module docstring for the order); one is made
    only when ``make`` (the beat task, never a request)."""
    level = daily_level(day, size, variant)
    used = DailyPuzzle.objects.filter(variant=variant, size=size).values("puzzle_id")
    # A variant puzzle from elsewhere carries a provisional level: only generated ones,
    # graded by the engine, are a day's puzzle.
    source = None if variant == Variant.CLASSIC else Source.GENERATED
    seed = day.isoformat() if variant == Variant.CLASSIC else f"{day}:{variant}"
    pool = {"size": size, "variant": variant, "source": source, "seed": seed}
    found = puzzle_pick(difficulty=level, exclude=(used,), **pool)
    # Made only where the variant and size have puzzles at all (the top-up fills the rest).
    if found is None and make and puzzle_pick(difficulty=None, **pool) is not None:
        from puzzles.stock import bank_puzzle_make

        found = bank_puzzle_make(variant=variant, size=size, level=level, seconds=BEAT_MAKE_SECONDS)
    if found is None:
        found = puzzle_pick(difficulty=level, **pool)
    for other in _nearest_levels(level, _levels(variant, size)):
        if found is not None:
            break
        found = puzzle_pick(difficulty=other, exclude=(used,), **pool) or puzzle_pick(
            difficulty=other, **pool
        )
    return found


def daily_puzzle_pick(
    *, day: date, size: int = 9, variant: str = Variant.CLASSIC, make: bool = False
) -> DailyPuzzle:
    """The daily puzzle of ``day`` for ``variant`` and ``size``, chosen and stored on first
    use. A puzzle that was a daily puzzle before is not chosen again while others remain;
    ``make`` (the beat task) makes one of the day's level when none is left. Raises
    BankEmpty when the bank holds no puzzle of this variant and size."""
    existing = _daily_of(day, variant, size)
    if existing is not None:
        return existing
    puzzle = _candidate(day, variant, size, make=make)
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
            date=day, variant=variant, size=size, constrained=False
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
                daily_puzzle_pick(day=day, size=size, variant=variant, make=True)
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
