"""What the bank knows of techniques: which stored puzzles need which technique.

Every stored puzzle has one :class:`~puzzles.models.PuzzleTechnique` row per technique its
grade used, written with the puzzle (and backfilled by migration 0004 from
``Puzzle.techniques``), so a practice puzzle is one indexed query.
"""

from __future__ import annotations

from django.db.models import Count
from django.utils import timezone

from puzzles.models import Puzzle, PuzzlePack, PuzzleTechnique
from solver.practice import practice_techniques

PRACTICE_MINIMUM = 5
"""The top-up keeps at least this many puzzles per technique and practice size."""

PRACTICE_PACK_COUNT = 10


def puzzle_techniques_store(*, puzzle: Puzzle) -> int:
    """Write (or rewrite) ``puzzle``'s technique rows from its grade; returns how many."""
    PuzzleTechnique.objects.filter(puzzle=puzzle).delete()
    rows = [
        PuzzleTechnique(
            puzzle=puzzle,
            technique=slug,
            size=puzzle.size,
            difficulty=puzzle.difficulty,
            count=count,
        )
        for slug, count in (puzzle.techniques or {}).items()
    ]
    PuzzleTechnique.objects.bulk_create(rows)
    return len(rows)


def technique_frequency(*, technique: str) -> dict[tuple[int, str], tuple[int, int]]:
    """(size, level) -> (puzzles that use ``technique``, puzzles) over the bank."""
    uses = (
        PuzzleTechnique.objects.filter(technique=technique)
        .values("size", "difficulty")
        .annotate(n=Count("id"))
        .order_by()
    )
    totals = Puzzle.objects.values("size", "difficulty").annotate(n=Count("id")).order_by()
    total = {(r["size"], r["difficulty"]): r["n"] for r in totals}
    out = {}
    for r in uses:
        key = (r["size"], r["difficulty"])
        out[key] = (r["n"], total.get(key, 0))
    return out


def technique_stock(*, size: int) -> dict[str, int]:
    """Technique slug -> puzzles of ``size`` in the bank that use it."""
    rows = (
        PuzzleTechnique.objects.filter(size=size)
        .values("technique")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {r["technique"]: r["n"] for r in rows}


def practice_top_up(
    *, minimum: int = PRACTICE_MINIMUM, sizes: tuple[int, ...] = (9, 6), queue: str | None = None
) -> list[PuzzlePack]:
    """Queue a practice pack for every technique with fewer than ``minimum`` puzzles of a
    practice size and no practice pack on its way. Returns the packs queued."""
    created = []
    for size in sizes:
        stock = technique_stock(size=size)
        for tech in practice_techniques(size):
            if stock.get(tech.slug, 0) >= minimum:
                continue
            pack = practice_pack_queue(technique=tech.slug, size=size, queue=queue)
            if pack is not None:
                created.append(pack)
    return created


def practice_pack_queue(
    *, technique: str, size: int, count: int = PRACTICE_PACK_COUNT, queue: str | None = None
) -> PuzzlePack | None:
    """Queue a practice pack for ``technique`` unless one is on its way; None then."""
    from puzzles.packs import PackNameTaken, pack_create
    from solver.techniques import BY_SLUG

    busy = PuzzlePack.objects.filter(
        technique=technique, size=size, status__in=PuzzlePack.ACTIVE
    ).exists()
    if busy:
        return None
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    try:
        return pack_create(
            name=f"practice {size}x{size} {technique} {stamp}",
            size=size,
            difficulty=BY_SLUG[technique].level,
            technique=technique,
            count=count,
            queue=queue,
        )
    except PackNameTaken:
        return None  # another request queued it this very second
