"""Keeping the bank stocked: the shipped starter file, the periodic top-up, and a puzzle
made on the spot when a level has run out.

What the lobby offers and the workers keep is one list, :func:`bank_offer`: every size of
the classic at each level the generator reaches there, and every variant at each size and
level its generator makes (``puzzles.variants.variant_levels``), all kept at the same
stock (``PUZZLE_BANK_MINIMUM`` topped up to ``PUZZLE_BANK_TARGET``). When a player asks
for a level whose puzzles they have all played or are playing, the request queues a
top-up for it and makes one puzzle within :data:`MAKE_SECONDS` (:func:`bank_puzzle_make`),
as a practice request does; a 16x16 classic takes too long to make in a request, so it
waits for the workers.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from puzzles.bank import (
    BANK_SIZES,
    bank_levels,
    grade_columns,
    puzzle_existing,
    puzzle_get_or_create_from_grid,
    puzzle_key,
    puzzle_row,
)
from puzzles.chunks import MAX_REPLACEMENTS
from puzzles.models import BANK_SOURCES, Puzzle, PuzzlePack, Source, Symmetry, Variant
from puzzles.packs import PACK_MAX_COUNT, PackNameTaken, pack_create
from puzzles.techniques import puzzle_techniques_store
from puzzles.variant_bank import variant_puzzle_store
from puzzles.variants import variant_levels
from solver import Shape, count_solutions, format_line, is_solution, parse
from solver.generation.classic import GenerationFailed, generate
from solver.generation.general import VariantGenerationFailed, generate_variant
from solver.logic.grade import GRADER_VERSION, Grade, grade

MAKE_SECONDS = 0.8
"""How long a game request may spend making a puzzle of a level that has run out for the
player (``GAME_MAKE_SECONDS`` in settings overrides it): an attempt under way finishes."""

MAKE_MAX_CLASSIC_SIZE = 9
"""The largest classic grid made in a request (a 16x16 takes seconds: the workers' job)."""


def levels_offered(variant: str, size: int) -> tuple[str, ...]:
    """The levels of ``variant`` at ``size`` that are made: the classic generator's, or the
    variant generator's (the one place each lists them)."""
    if variant == Variant.CLASSIC:
        return bank_levels(size) if size in BANK_SIZES else ()
    return variant_levels(variant, size)


def bank_offer(*, sizes: tuple[int, ...] = BANK_SIZES) -> list[tuple[str, int, str]]:
    """Every (variant, size, level) the lobby offers and the workers keep stocked."""
    return [
        (variant, size, level)
        for variant in Variant.values
        for size in sizes
        for level in levels_offered(variant, size)
    ]


def makeable_now(variant: str, size: int) -> bool:
    """Whether a request may make a puzzle of ``variant`` and ``size`` on the spot."""
    return variant != Variant.CLASSIC or size <= MAKE_MAX_CLASSIC_SIZE


def bank_stock(*, variant: str | None = "classic") -> dict[tuple[int, str], int]:
    """Puzzles in the bank per (size, level) of ``variant``; a player's typed-in puzzle is
    not the bank's, nor is one with constraints in its variant's pools."""
    return {
        (size, level): n
        for (kind, size, level), n in bank_stock_all().items()
        if variant is None or kind == variant
    }


def bank_stock_all() -> dict[tuple[str, int, str], int]:
    """Puzzles in the bank per (variant, size, level): the ones its pools draw (no typed-in
    puzzle, none with constraints)."""
    rows = (
        Puzzle.objects.filter(source__in=BANK_SOURCES, constrained=False)
        .values("variant", "size", "difficulty")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {(row["variant"], row["size"], row["difficulty"]): row["n"] for row in rows}


def bank_top_up(
    *,
    minimum: int | None = None,
    target: int | None = None,
    sizes: tuple[int, ...] = BANK_SIZES,
    variants: tuple[str, ...] | None = None,
    queue: str | None = None,
) -> list[PuzzlePack]:
    """Queue a pack for every variant, size and level offered (:func:`bank_offer`) with
    fewer than ``minimum`` puzzles and no pack already on its way, to bring it up to
    ``target``. Returns the packs queued."""
    minimum = settings.PUZZLE_BANK_MINIMUM if minimum is None else minimum
    target = settings.PUZZLE_BANK_TARGET if target is None else target
    stock = bank_stock_all()
    created = []
    for variant, size, level in bank_offer(sizes=sizes):
        if variants is not None and variant not in variants:
            continue
        have = stock.get((variant, size, level), 0)
        if have < minimum:
            pack = level_top_up(
                variant=variant, size=size, level=level, count=target - have, queue=queue
            )
            if pack is not None:
                created.append(pack)
    return created


def level_top_up(
    *, variant: str, size: int, level: str, count: int, queue: str | None = None
) -> PuzzlePack | None:
    """Queue a pack of ``count`` puzzles of one level unless one is on its way."""
    busy = PuzzlePack.objects.filter(
        variant=variant, size=size, difficulty=level, technique="", status__in=PuzzlePack.ACTIVE
    ).exists()
    if busy:
        return None
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    label = "" if variant == Variant.CLASSIC else f" {variant}"
    try:
        return pack_create(
            name=f"top-up {size}x{size}{label} {level} {stamp}",
            size=size,
            difficulty=level,
            count=min(max(count, 1), PACK_MAX_COUNT),
            queue=queue,
            variant=variant,
        )
    except PackNameTaken:
        return None  # another top-up ran this very second


def bank_puzzle_make(
    *, variant: str, size: int, level: str, seconds: float | None = None
) -> Puzzle | None:
    """A new bank puzzle of the level made now within ``seconds`` (see the module
    docstring), or None when none was made in time or the size is not made here."""
    if level not in levels_offered(variant, size) or not makeable_now(variant, size):
        return None
    if seconds is None:
        seconds = getattr(settings, "GAME_MAKE_SECONDS", MAKE_SECONDS)
    seed = f"request:{secrets.token_hex(6)}"
    deadline = time.monotonic() + seconds
    shape = Shape.for_size(size)
    if variant == Variant.CLASSIC:
        try:
            made = generate(shape, level=level, seed=seed)
        except (GenerationFailed, ValueError):
            return None
        if made.grade.level != level:
            return None
        puzzle, _ = puzzle_get_or_create_from_grid(
            grid=made.puzzle, source=Source.GENERATED, solution=made.solution
        )
        return puzzle
    try:
        found = generate_variant(
            variant, size, level=level, seed=seed, stop=lambda: time.monotonic() > deadline
        )
    except VariantGenerationFailed:
        return None
    puzzle, _ = variant_puzzle_store(
        grid=found.puzzle,
        rules=found.rules,
        solution=found.solution,
        source=Source.GENERATED,
    )
    return puzzle


STARTER_FILE = Path(__file__).resolve().parent / "data" / "starter.jsonl"
"""Puzzles made once by ``seed_bank --rebuild`` and shipped, so a fresh bank is stocked in
moments instead of waiting for the generator (slowest on big grids at hard levels)."""

STARTER_PLAN_COUNTS = {4: 4, 6: 4, 9: 6, 16: 2}
"""Puzzles per level in the starter file, by size (every level the size is offered at)."""

REGRADE_MAX_SIZE = 9
"""Starter puzzles up to this size are graded again when loaded (cheap); the bigger ones
keep the grade stored in the file (grading them is slow)."""


def starter_plan() -> dict[tuple[int, str], int]:
    """How many puzzles the starter file holds per (size, level)."""
    return {
        (size, level): STARTER_PLAN_COUNTS[size]
        for size in BANK_SIZES
        for level in bank_levels(size)
    }


def starter_file_build(
    *,
    path: Path = STARTER_FILE,
    plan: dict[tuple[int, str], int] | None = None,
    progress: Callable[[str], None] | None = None,
) -> int:
    """Generate the starter file (seeds ``starter:<size>:<level>:<i>``): one JSON object
    per line. A level the generator cannot reach for a size is left out. Returns the
    puzzles written."""
    plan = starter_plan() if plan is None else plan
    lines: list[str] = []
    keys: set[str] = set()
    for (size, level), wanted in plan.items():
        made_here = failures = 0
        for index in range(wanted + MAX_REPLACEMENTS):
            if made_here == wanted or failures == 3:
                break
            try:
                made = generate(size, level=level, seed=f"starter:{size}:{level}:{index}")
            except (GenerationFailed, ValueError):
                failures += 1  # three seeds in a row: the level is out of reach for the size
                continue
            key = puzzle_key(made.puzzle)
            if made.grade.level != level or key in keys:
                continue
            if count_solutions(made.puzzle, limit=2) != 1:
                continue
            keys.add(key)
            made_here += 1
            lines.append(
                json.dumps(
                    {
                        "box_rows": made.puzzle.shape.box_rows,
                        "box_cols": made.puzzle.shape.box_cols,
                        "givens": format_line(made.puzzle),
                        "solution": format_line(made.solution),
                        **grade_columns(made.grade),
                        "symmetry": made.symmetry,
                        "grader_version": GRADER_VERSION,
                    },
                    sort_keys=True,
                )
            )
        if progress:
            progress(f"{size}x{size} {level}: {made_here}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{line}\n" for line in lines))
    return len(lines)


class StarterFileBroken(RuntimeError):
    """A line of the starter file is not a puzzle with one solution."""


def bank_seed(*, path: Path = STARTER_FILE, progress: Callable[[str], None] | None = None) -> int:
    """Load the starter file into the bank: each puzzle checked for one solution (and graded
    again up to 9x9), stored once. Idempotent: a second run adds nothing. Returns the
    puzzles added."""
    added = 0
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        item = json.loads(line)
        grid = parse(item["givens"], box_rows=item["box_rows"], box_cols=item["box_cols"])
        key = puzzle_key(grid)
        if puzzle_existing(grid, key) is not None:
            continue
        solution = parse(item["solution"], box_rows=item["box_rows"], box_cols=item["box_cols"])
        if count_solutions(grid, limit=2) != 1 or not is_solution(grid, solution):
            raise StarterFileBroken(f"{path.name} line {number}: not a puzzle with one solution")
        if grid.size <= REGRADE_MAX_SIZE:
            rated = grade(grid)
        else:
            rated = Grade(
                level=item["difficulty"],
                score=item["score"],
                hardest=item["hardest_technique"],
                techniques=item["techniques"],
            )
        row = puzzle_row(
            grid=grid,
            solution=solution,
            rated=rated,
            symmetry=item.get("symmetry", Symmetry.NONE),
            source=Source.GENERATED,
            key=key,
        )
        if grid.size > REGRADE_MAX_SIZE:  # the file's grade: as old as the file's grader
            row.grader_version = item.get("grader_version", 0)
        try:
            with transaction.atomic():
                row.save()
                puzzle_techniques_store(puzzle=row)
        except IntegrityError:
            continue
        added += 1
    if progress:
        stock = bank_stock()
        for (size, level), have in sorted(stock.items()):
            progress(f"{size}x{size} {level}: {have}")
    return added
