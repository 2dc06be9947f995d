"""Practice puzzles for the variants' own techniques (Killer's), and how often they come up.

Such a puzzle is a bank puzzle of the technique's variant whose ``techniques`` (the variant
logic's count per technique, written here when the puzzle is stored for practice) name
the technique. A practice request picks one the player has not played; when they have
played them all it makes one within the classic's time (each one made stays in the bank
for the next player), else replays the one they played longest ago, else the lesson's
own example puzzle, which needs the technique by construction. Celery beat keeps
``PRACTICE_MINIMUM`` of each in the bank (:func:`variant_practice_top_up`).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from learn.examples import example_of, example_rules
from play.models import Game
from puzzles.models import Puzzle, Source
from puzzles.practice import PRACTICE_MINIMUM
from puzzles.selectors import daily_puzzle_ids
from puzzles.variant_bank import variant_puzzle_store
from solver import Grid, parse
from solver.generation.general import VariantGenerated, VariantGenerationFailed
from solver.generation.general_practice import (
    generate_variant_requiring,
    technique_variant,
    variant_practice_sizes,
    variant_techniques,
)
from solver.logic.general import variant_logic_solve
from solver.logic.variant_grade import variant_grade_of
from solver.rules.ruleset import Rules

log = logging.getLogger(__name__)


def variant_practice_puzzle(
    *,
    technique: str,
    variant: str,
    size: int,
    games: QuerySet[Game],
    may_make: Callable[[], bool] | None,
    seconds: float,
) -> int | None:
    """The id of a ``variant`` puzzle of ``size`` that needs ``technique`` for the player
    whose games are ``games`` (see the module docstring for the order); ``may_make`` is
    asked before one is made (None: always)."""
    rows = _practice_rows(technique, variant, size)
    picked = first_unplayed(rows, games)
    if picked is not None:
        return picked
    made = (
        variant_practice_make(technique=technique, variant=variant, size=size, seconds=seconds)
        if may_make is None or may_make()
        else None
    )
    return (
        made
        or longest_ago(rows, games)
        or variant_practice_example_puzzle(technique=technique, variant=variant, size=size)
    )


def _practice_rows(technique: str, variant: str, size: int) -> QuerySet[Puzzle]:
    """The bank's ``variant`` puzzles of ``size`` known to need ``technique``; never one a
    player typed in, nor today's or tomorrow's daily puzzle (practice would spoil it)."""
    return (
        Puzzle.objects.filter(
            variant=variant, size=size, techniques__has_key=technique, constrained=False
        )
        .exclude(source=Source.TYPED)
        .exclude(pk__in=daily_puzzle_ids(since=timezone.localdate()))
    )


def first_unplayed(rows: QuerySet[Puzzle], games: QuerySet[Game]) -> int | None:
    """Of ``rows``, the first (by id) the player has no game of."""
    return (
        rows.exclude(pk__in=games.values("puzzle_id"))
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )


def longest_ago(rows: QuerySet[Puzzle], games: QuerySet[Game]) -> int | None:
    """Of ``rows``, the one the player last played longest ago. Asked only once they have
    played every one, so the rows it orders are no more than their games."""
    last = games.filter(puzzle_id=OuterRef("pk")).order_by("-created").values("created")
    return (
        rows.annotate(last_played=Subquery(last[:1]))
        .order_by(F("last_played").asc(nulls_first=True), "pk")
        .values_list("pk", flat=True)
        .first()
    )


def variant_practice_make(
    *, technique: str, variant: str, size: int, seconds: float, seed: str | None = None
) -> int | None:
    """Make a puzzle that needs ``technique``, store it and return its id; None when none
    was made within ``seconds`` (an attempt under way is finished first)."""
    seed = seed or f"practice:{secrets.token_hex(6)}"
    deadline = time.monotonic() + seconds
    try:
        made = generate_variant_requiring(
            variant, size, technique, seed=seed, stop=lambda: time.monotonic() > deadline
        )
    except (VariantGenerationFailed, ValueError):
        log.info("practice %s %s %sx%s: none in %.1f s", variant, technique, size, size, seconds)
        return None
    return _store(made)[0].pk


def _store(made: VariantGenerated) -> tuple[Puzzle, bool]:
    """The generated puzzle stored in the bank with its techniques; whether it is new."""
    puzzle, created = variant_puzzle_store(
        grid=made.puzzle,
        rules=made.rules,
        solution=made.solution,
        source=Source.GENERATED,
    )
    _techniques_record(puzzle, made.rules, made.puzzle)
    return puzzle, created


def variant_practice_top_up(*, minimum: int = PRACTICE_MINIMUM) -> int:
    """Make practice puzzles for every variant technique and size with fewer than
    ``minimum`` in the bank (Celery beat, ``learn.variant_practice_top_up``); returns how
    many it stored. The seeds (``stock:<k>`` for the k-th puzzle) make a redelivered task
    make the same puzzles, which the bank stores once."""
    stored = 0
    for tech in variant_techniques():
        variant = technique_variant(tech.slug)
        assert variant is not None
        for size in variant_practice_sizes(tech.slug):
            have = _practice_rows(tech.slug, variant, size)[:minimum].count()
            for k in range(have, minimum):
                try:
                    made = generate_variant_requiring(variant, size, tech.slug, seed=f"stock:{k}")
                except VariantGenerationFailed:
                    continue
                stored += _store(made)[1]
    return stored


def variant_practice_example_puzzle(*, technique: str, variant: str, size: int) -> int | None:
    """The id of the lesson's example puzzle (stored in the bank on first use) when it is
    of ``variant`` and ``size``."""
    example = example_of(technique)
    if example is None or example.get("variant") != variant or example["size"] != size:
        return None
    rules = example_rules(example)
    assert rules is not None
    grid = parse(example["givens"], box_rows=example["box_rows"], box_cols=example["box_cols"])
    logic = variant_logic_solve(rules, grid, explain=False)
    puzzle, _ = variant_puzzle_store(
        grid=grid, rules=rules, source=Source.GENERATED, graded=variant_grade_of(logic)
    )
    _techniques_record(puzzle, rules, grid, logic.techniques)
    return puzzle.pk


def _techniques_record(
    puzzle: Puzzle, rules: Rules, grid: Grid, techniques: dict[str, int] | None = None
) -> None:
    """Write the variant logic's techniques on a stored variant puzzle that has none yet
    (the same puzzle always gets the same, so a race writes the same value twice)."""
    if puzzle.techniques:
        return
    if techniques is None:
        techniques = variant_logic_solve(rules, grid, explain=False).techniques
    Puzzle.objects.filter(pk=puzzle.pk).update(techniques=techniques)
    puzzle.techniques = techniques


def variant_technique_frequency(*, technique: str, variant: str) -> list[dict[str, Any]]:
    """Per size and level: the bank's ``variant`` puzzles whose techniques are recorded,
    and how many of them use ``technique``."""
    rows = (
        Puzzle.objects.filter(variant=variant, constrained=False)
        .exclude(source=Source.TYPED)
        .exclude(techniques={})
        .values("size", "difficulty")
        .annotate(total=Count("id"), using=Count("id", filter=Q(techniques__has_key=technique)))
        .order_by("size", "difficulty")
    )
    return [
        {"size": r["size"], "level": r["difficulty"], "puzzles": r["total"], "using": r["using"]}
        for r in rows
    ]


__all__ = [
    "variant_practice_example_puzzle",
    "variant_practice_make",
    "variant_practice_puzzle",
    "variant_practice_top_up",
    "variant_technique_frequency",
]
