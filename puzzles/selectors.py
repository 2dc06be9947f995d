"""Reads of the puzzle bank. Player-facing reads never load the solution."""

from __future__ import annotations

import random
from datetime import date
from typing import Any

from django.db.models import Count, Max, Min, QuerySet

from puzzles.models import (
    BANK_SOURCES,
    ChunkStatus,
    DailyPuzzle,
    PackEntry,
    Puzzle,
    PuzzlePack,
    Variant,
)

PLAYER_FIELDS = (
    "id",
    "size",
    "box_rows",
    "box_cols",
    "difficulty",
    "score",
    "givens",
    "clue_count",
    "symmetry",
    "variant",
    "rules",
    "created",
)


def puzzle_list(
    *,
    size: int | None = None,
    difficulty: str | None = None,
    pack_id: int | None = None,
    bank_only: bool = False,
) -> QuerySet[Puzzle]:
    """Puzzles without their solutions, by id (by position within a pack); only the
    bank's (no puzzle a player typed in) when ``bank_only``."""
    puzzles = Puzzle.objects.only(*PLAYER_FIELDS)
    if bank_only:
        puzzles = puzzles.filter(source__in=BANK_SOURCES)
    if size is not None:
        puzzles = puzzles.filter(size=size)
    if difficulty:
        puzzles = puzzles.filter(difficulty=difficulty)
    if pack_id is not None:
        return puzzles.filter(pack_entries__pack_id=pack_id).order_by("pack_entries__position")
    return puzzles.order_by("id")


def puzzle_get(*, puzzle_id: int) -> Puzzle:
    """A puzzle without its solution; Puzzle.DoesNotExist if there is none."""
    return Puzzle.objects.only(*PLAYER_FIELDS).get(pk=puzzle_id)


def puzzle_pick(
    *,
    size: int,
    difficulty: str | None,
    exclude: tuple[Any, ...] = (),
    seed: Any = None,
    variant: str = "classic",
    source: str | None = None,
) -> Puzzle | None:
    """A random-ish bank puzzle of ``variant`` and ``size`` (and ``difficulty``, None = any;
    ``source``, None = generated or imported) in none of ``exclude`` (lists of ids or
    values('id') querysets), or None. Never a puzzle a player typed in (``Source.TYPED``):
    it is theirs, not the bank's; nor one made for a lesson's practice (``Source.PRACTICE``);
    never one with constraints (``Puzzle.constrained``): its variant's name does not say
    its rules, so it is no game of that variant.

    Cheap on a big table: a random id between the smallest and largest candidate, then
    the first candidate from there (wrapping round), both walks of the
    (variant, size, difficulty, id) index; no ORDER BY random(). ``seed`` makes the pick
    repeatable.
    """
    candidates = Puzzle.objects.filter(
        variant=variant, size=size, source__in=BANK_SOURCES, constrained=False
    )
    if difficulty:
        candidates = candidates.filter(difficulty=difficulty)
    if source:
        candidates = candidates.filter(source=source)
    for ids in exclude:
        candidates = candidates.exclude(pk__in=ids)
    bounds = candidates.aggregate(low=Min("id"), high=Max("id"))
    if bounds["low"] is None:
        return None
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    start = rng.randint(bounds["low"], bounds["high"])
    return (
        candidates.filter(pk__gte=start).order_by("id").first()
        or candidates.filter(pk__lt=start).order_by("id").first()
    )


def daily_puzzle_ids(*, since: date) -> QuerySet[DailyPuzzle]:
    """The ids (values('puzzle_id')) of the daily puzzles of ``since`` and later days."""
    return DailyPuzzle.objects.filter(date__gte=since).values("puzzle_id")


def daily_puzzle_of(*, day: date, size: int = 9, variant: str = "classic") -> DailyPuzzle | None:
    return (
        DailyPuzzle.objects.filter(date=day, variant=variant, size=size, constrained=False)
        .select_related("puzzle")
        .first()
    )


def daily_puzzles_of(*, day: date, size: int | None = None) -> list[DailyPuzzle]:
    """The daily puzzles already chosen for ``day`` (of ``size`` only, if given), classic
    first: one per variant and size at most, so a short list. The daily puzzle with
    constraints is not one of them (puzzles.constraint_daily)."""
    dailies = DailyPuzzle.objects.filter(date=day, constrained=False).select_related("puzzle")
    if size is not None:
        dailies = dailies.filter(size=size)
    order = {variant: rank for rank, variant in enumerate(Variant.values)}
    return sorted(dailies[:64], key=lambda d: (order.get(d.variant, 99), d.size))


def pack_list() -> QuerySet[PuzzlePack]:
    """Packs, newest first, each with ``made`` (entries so far)."""
    return (
        PuzzlePack.objects.select_related("requested_by")
        .annotate(made=Count("entries", distinct=True))
        .order_by("-created", "-id")
    )


def pack_get(*, pack_id: int) -> PuzzlePack:
    return pack_list().get(pk=pack_id)


def pack_progress(*, pack: PuzzlePack) -> dict[str, Any]:
    """How far a pack has come, counted from its rows."""
    made = PackEntry.objects.filter(pack_id=pack.pk).count()
    chunks = dict(
        pack.chunks.values_list("status").annotate(n=Count("id")).order_by()  # type: ignore[arg-type]
    )
    return {
        "id": pack.pk,
        "name": pack.name,
        "status": pack.status,
        "count": pack.count,
        "made": made,
        "percent": round(100 * made / pack.count, 1) if pack.count else 0.0,
        "chunks": pack.chunk_count,
        "chunks_done": chunks.get(ChunkStatus.DONE, 0),
        "error": pack.error,
        "finished": pack.status in PuzzlePack.FINISHED,
    }


def pack_entries(*, pack: PuzzlePack) -> QuerySet[PackEntry]:
    """The pack's puzzles in order, solutions included (staff exports)."""
    return pack.entries.select_related("puzzle").order_by("position")
