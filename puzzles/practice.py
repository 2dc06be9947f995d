"""Practice packs: puzzles that need one technique, queued on demand and by the top-up."""

from __future__ import annotations

from django.utils import timezone

from puzzles.models import PuzzlePack
from puzzles.packs import PackNameTaken, pack_create
from puzzles.techniques import technique_stock
from solver.generation.practice import generator_reaches, practice_techniques
from solver.logic.techniques import BY_SLUG

PRACTICE_MINIMUM = 5
"""The top-up keeps at least this many puzzles per technique and practice size."""

PRACTICE_PACK_COUNT = 10


def practice_top_up(
    *, minimum: int = PRACTICE_MINIMUM, sizes: tuple[int, ...] = (9, 6), queue: str | None = None
) -> list[PuzzlePack]:
    """Queue a practice pack for every technique with fewer than ``minimum`` puzzles of a
    practice size and no practice pack on its way. Returns the packs queued."""
    created = []
    for size in sizes:
        stock = technique_stock(size=size)
        for tech in practice_techniques(size):
            if stock.get((tech.slug, tech.level), 0) >= minimum:  # what a practice game picks
                continue
            pack = practice_pack_queue(technique=tech.slug, size=size, queue=queue)
            if pack is not None:
                created.append(pack)
    return created


def practice_pack_queue(
    *, technique: str, size: int, count: int = PRACTICE_PACK_COUNT, queue: str | None = None
) -> PuzzlePack | None:
    """Queue a practice pack for ``technique`` unless one is on its way or the generator
    does not make such puzzles; None then."""
    if not generator_reaches(technique):
        return None
    if practice_pack_on_its_way(technique=technique, size=size):
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


def practice_pack_on_its_way(*, technique: str, size: int) -> bool:
    return PuzzlePack.objects.filter(
        technique=technique, size=size, status__in=PuzzlePack.ACTIVE
    ).exists()
