"""What the bank knows of techniques: which stored puzzles need which technique.

Every stored puzzle has one :class:`~puzzles.models.PuzzleTechnique` row per technique its
grade used, written with the puzzle (and backfilled by migration 0004 from
``Puzzle.techniques``), so a practice puzzle is one indexed query.
"""

from __future__ import annotations

from django.db.models import Count

from puzzles.models import BANK_SOURCES, Puzzle, PuzzleTechnique


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
    totals = (
        Puzzle.objects.filter(variant="classic", source__in=BANK_SOURCES, constrained=False)
        .values("size", "difficulty")
        .annotate(n=Count("id"))
        .order_by()
    )
    total = {(r["size"], r["difficulty"]): r["n"] for r in totals}
    out = {}
    for r in uses:
        key = (r["size"], r["difficulty"])
        out[key] = (r["n"], total.get(key, 0))
    return out


def technique_stock(*, size: int) -> dict[tuple[str, str], int]:
    """(technique slug, level) -> puzzles of ``size`` and that level that use it."""
    rows = (
        PuzzleTechnique.objects.filter(size=size)
        .values("technique", "difficulty")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {(r["technique"], r["difficulty"]): r["n"] for r in rows}
