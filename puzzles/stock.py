"""Keeping the bank stocked: the shipped starter file and the periodic top-up."""

from __future__ import annotations

import json
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
    puzzle_key,
    puzzle_row,
)
from puzzles.chunks import MAX_REPLACEMENTS
from puzzles.models import Puzzle, PuzzlePack, Source, Symmetry
from puzzles.packs import PACK_MAX_COUNT, PackNameTaken, pack_create
from puzzles.techniques import puzzle_techniques_store
from solver import count_solutions, format_line, is_solution, parse
from solver.generate import GenerationFailed, generate
from solver.grade import GRADER_VERSION, Grade, grade


def bank_stock() -> dict[tuple[int, str], int]:
    """Classic puzzles in the bank per (size, level); a player's typed-in puzzle is not the
    bank's."""
    rows = (
        Puzzle.objects.filter(variant="classic")
        .exclude(source=Source.TYPED)
        .values("size", "difficulty")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {(row["size"], row["difficulty"]): row["n"] for row in rows}


def bank_top_up(
    *,
    minimum: int | None = None,
    target: int | None = None,
    sizes: tuple[int, ...] = BANK_SIZES,
    queue: str | None = None,
) -> list[PuzzlePack]:
    """Queue a pack for every size and level with fewer than ``minimum`` puzzles and no
    pack already on its way, to bring it up to ``target``. Returns the packs queued."""
    minimum = settings.PUZZLE_BANK_MINIMUM if minimum is None else minimum
    target = settings.PUZZLE_BANK_TARGET if target is None else target
    stock = bank_stock()
    created = []
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    for size in sizes:
        for level in bank_levels(size):
            have = stock.get((size, level), 0)
            if have >= minimum:
                continue
            busy = PuzzlePack.objects.filter(
                variant="classic", size=size, difficulty=level, status__in=PuzzlePack.ACTIVE
            ).exists()
            if busy:
                continue
            try:
                pack = pack_create(
                    name=f"top-up {size}x{size} {level} {stamp}",
                    size=size,
                    difficulty=level,
                    count=min(max(target - have, 1), PACK_MAX_COUNT),
                    queue=queue,
                )
            except PackNameTaken:
                continue  # another top-up ran this very second
            created.append(pack)
    return created


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
