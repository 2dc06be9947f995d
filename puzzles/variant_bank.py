"""Variant puzzles into the bank: stored once, checked unique under their rules, seeded.

A stored variant puzzle carries the grade of the variant grader
(:mod:`solver.logic.variant_grade`) and its version; ``puzzles.regrade`` grades it again when
that version moves on.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from django.utils.translation import gettext as _

from puzzles.bank import PuzzleNotUnique, one_solution
from puzzles.models import Puzzle, Source, Symmetry
from puzzles.variants import (
    VARIANT_LEVELS,
    rules_stored,
    variant_key,
    variant_levels,
    variant_puzzle_make,
)
from solver import Grid, Shape, format_line
from solver.generation.general import VariantGenerationFailed
from solver.logic.general import variant_logic_solve
from solver.logic.grade import Grade
from solver.logic.variant_grade import VARIANT_GRADER_VERSION, variant_grade
from solver.rules.ruleset import Rules, RulesError, check_puzzle
from sudokusite.unique import insert_or_existing

VARIANT_BANK_SIZES = (6, 9)
"""Sizes the bank seeds of each variant."""

VARIANT_SEED_COUNT = 2
"""Puzzles ``seed_bank`` makes per variant, size and level."""

SEED_ATTEMPTS = 40
"""Attempts ``seed_bank`` gives one variant puzzle before it leaves the level to the workers'
top-up (a 9x9 Killer hard or expert takes 100 and more, 15-25 s of CPU: a deploy must not
wait for it). A count, not a clock, so that a rerun makes or skips the same puzzles."""

SEED_RETRIES = 3
"""Further seeds tried when one reaches no puzzle of the level (6x6 Killer hard may not)."""

CHECK_BUDGET = 2_000_000
"""Search nodes allowed to prove a variant puzzle from elsewhere has one solution."""


def variant_solution_checked(grid: Grid, rules: Rules, *, budget: int = CHECK_BUDGET) -> Grid:
    """The one solution of ``grid`` under ``rules``; PuzzleNotUnique saying why not."""
    try:
        check_puzzle(rules, grid)
    except RulesError as exc:
        raise PuzzleNotUnique(
            _("The puzzle has no solution: %(why)s.") % {"why": str(exc)}, code="no_solution"
        ) from None
    return one_solution(grid, budget=budget, rules=rules)


def _existing(key: str) -> Puzzle | None:
    return Puzzle.objects.filter(canonical_key=key).first()


def variant_puzzle_store(
    *,
    grid: Grid,
    rules: Rules,
    solution: Grid | None = None,
    source: str = Source.IMPORTED,
    graded: Grade | None = None,
) -> tuple[Puzzle, bool]:
    """The stored puzzle with these givens and rules, or a new one (checked unique first
    unless the caller proved it and passes ``solution``; graded here unless the caller
    passes the variant grader's ``graded``)."""
    key = variant_key(grid, rules)
    found = _existing(key)
    if found is not None:
        return found, False
    if solution is None:
        solution = variant_solution_checked(grid, rules)
    row = variant_puzzle_row(
        grid=grid, rules=rules, solution=solution, source=source, graded=graded
    )
    return insert_or_existing(row, lambda: _existing(key))


def variant_puzzle_row(
    *,
    grid: Grid,
    rules: Rules,
    solution: Grid,
    source: str,
    graded: Grade | None = None,
) -> Puzzle:
    """An unsaved row for a variant puzzle proven to have one solution, with the variant
    grader's level, score and techniques (what lessons and practice count; graded here
    unless the caller passes ``graded``); the caller saves."""
    if graded is None:
        graded = variant_grade(rules, grid)
    return Puzzle(
        size=grid.size,
        box_rows=grid.shape.box_rows,
        box_cols=grid.shape.box_cols,
        givens=format_line(grid),
        solution=format_line(solution),
        clue_count=grid.clues,
        symmetry=Symmetry.NONE,
        variant=rules.variant,
        rules=rules_stored(rules),
        canonical_key=variant_key(grid, rules),
        source=source,
        difficulty=graded.level,
        score=graded.score,
        techniques=dict(graded.techniques),
        hardest_technique=graded.hardest,
        grader_version=VARIANT_GRADER_VERSION,
    )


def variant_bank_seed(
    *,
    sizes: tuple[int, ...] = VARIANT_BANK_SIZES,
    count: int = VARIANT_SEED_COUNT,
    progress: Callable[[str], None] | None = None,
) -> int:
    """Make ``count`` puzzles of each variant, size and level the bank has fewer of
    (seeds ``variant:<variant>:<size>:<level>:<i>``, so a rerun makes the same ones).
    Returns the puzzles added."""
    added = 0
    for variant in VARIANT_LEVELS:
        for size in sizes:
            shape = Shape.for_size(size)
            for level in variant_levels(variant, size):
                have = Puzzle.objects.filter(
                    variant=variant, size=size, difficulty=level, constrained=False
                )
                if have.count() >= count:
                    continue
                for i in range(count + SEED_RETRIES):
                    if have.count() >= count:
                        break
                    seed = f"variant:{variant}:{size}:{level}:{i}"
                    attempts = itertools.count(1)
                    try:
                        grid, solution, rules, _ = variant_puzzle_make(
                            variant=variant,
                            shape=shape,
                            level=level,
                            seed=seed,
                            stop=lambda attempts=attempts: next(attempts) >= SEED_ATTEMPTS,
                        )
                    except VariantGenerationFailed:
                        break  # slow or out of reach here: the workers' top-up makes it
                    _, created = variant_puzzle_store(
                        grid=grid,
                        rules=rules,
                        solution=solution,
                        source=Source.GENERATED,
                    )
                    added += created
                if progress is not None:
                    progress(f"{variant} {size}x{size} {level}: {count}")
    return added


TECHNIQUES_BACKFILL_LIMIT = 500


def variant_techniques_backfill(*, limit: int = TECHNIQUES_BACKFILL_LIMIT) -> int:
    """Record the techniques of variant puzzles stored without them (before they were
    recorded), ``limit`` at a time; returns how many were written. Idempotent."""
    from puzzles.variants import rules_of
    from solver import parse

    missing = (
        Puzzle.objects.exclude(variant="classic")
        .filter(techniques={})
        .only("pk", "givens", "box_rows", "box_cols", "rules", "size")
        .order_by("pk")[:limit]
    )
    written = 0
    for puzzle in missing:
        grid = parse(puzzle.givens, box_rows=puzzle.box_rows, box_cols=puzzle.box_cols)
        techniques = variant_logic_solve(rules_of(puzzle), grid, explain=False).techniques
        written += Puzzle.objects.filter(pk=puzzle.pk, techniques={}).update(techniques=techniques)
    return written
