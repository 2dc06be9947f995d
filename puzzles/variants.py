"""Variant puzzles in the bank: their stored rules, their API JSON, and how they are made.

A puzzle's rules live in two columns: ``variant`` (a name people know) and ``rules``
(JSON: ``regions`` only when irregular, ``diagonals``, ``cages``). The engine reads a
:class:`solver.rules.ruleset.Rules`; this module turns one into the other and back.

Making a variant puzzle (:func:`variant_puzzle_make`) calls the engine's generator
(``solver.generation.general``). Every variant puzzle is graded by one rule, the classic's
(:mod:`solver.logic.variant_grade`): the hardest technique the variant logic needs, and
``master`` when its techniques cannot finish it; the number of givens plays no part.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from solver import Grid, Shape
from solver.grid import tables
from solver.rules.ruleset import Rules

if TYPE_CHECKING:
    from puzzles.models import Puzzle

VARIANT_LEVELS: dict[str, tuple[str, ...]] = {
    "diagonal": ("easy", "medium", "hard", "expert", "master"),
    "jigsaw": ("easy", "medium", "hard", "expert", "master"),
    "killer": ("easy", "medium", "hard", "expert", "master"),
}
"""The levels the bank makes of each variant (``solver.generation.general.GENERATED_LEVELS``):
``expert`` is finished by the techniques, ``master`` is beyond them."""


def variant_levels(variant: str, size: int) -> tuple[str, ...]:
    """The levels the engine makes of ``variant`` at ``size`` (none for an unknown one)."""
    from solver.generation.general import supported_variant_levels

    if variant not in VARIANT_LEVELS or size not in (4, 6, 8, 9):
        return ()
    return supported_variant_levels(variant, size)


# --- Stored rules ----------------------------------------------------------------------


def rules_stored(rules: Rules) -> dict[str, Any]:
    """The ``Puzzle.rules`` JSON of ``rules``: {} for a classic puzzle."""
    if rules.is_classic:
        return {}
    out: dict[str, Any] = {}
    if rules.irregular:
        out["regions"] = list(rules.regions)
    if rules.diagonals:
        out["diagonals"] = True
    if rules.cages:
        out["cages"] = [{"cells": list(c.cells), "sum": c.total} for c in rules.cages]
    if rules.constraints:
        out["constraints"] = [c.to_dict() for c in rules.constraints]
    return out


@lru_cache(maxsize=512)
def _rules_cached(box_rows: int, box_cols: int, stored: str) -> Rules:
    data = json.loads(stored)
    shape = Shape(box_rows, box_cols)
    if not data:
        return Rules.classic(shape)
    return Rules.from_dict(data, shape)


def rules_of(puzzle: Puzzle) -> Rules:
    """The engine's rules of a stored puzzle (cached: a move reads them)."""
    stored = json.dumps(puzzle.rules or {}, sort_keys=True, separators=(",", ":"))
    return _rules_cached(puzzle.box_rows, puzzle.box_cols, stored)


def peers_of(puzzle: Puzzle) -> tuple[tuple[int, ...], ...]:
    """Each cell's peers: its houses' cells and its cage mates (the clash rule)."""
    if not puzzle.rules:
        return tables(puzzle.shape).peers
    from solver.rules.ruleset import layout

    return layout(rules_of(puzzle)).peers


def rules_payload(puzzle: Puzzle) -> dict[str, Any]:
    """The API's rules of a puzzle: variant, regions (always), diagonals, cages."""
    return {**rules_json(rules_of(puzzle)), "variant": puzzle.variant}


def rules_json(rules: Rules) -> dict[str, Any]:
    """Engine rules as the API gives them (:func:`rules_payload`); ``constraints`` only
    when the puzzle has some (docs/api.md, one shape per type)."""
    out = {
        "variant": rules.variant,
        "regions": list(rules.regions),
        "diagonals": rules.diagonals,
        "cages": [{"cells": list(c.cells), "sum": c.total} for c in rules.cages],
    }
    if rules.constraints:
        out["constraints"] = [c.to_dict() for c in rules.constraints]
    return out


def constraint_clashes(puzzle: Puzzle, values: list[int], cell: int) -> list[int]:
    """The cells a value at ``cell`` clashes with by a constraint (a thermometer out of
    order, a dot its pair breaks...), beyond the peers that hold the same value."""
    if not puzzle.rules or not puzzle.rules.get("constraints"):
        return []
    rules = rules_of(puzzle)
    out: set[int] = set()
    for con in rules.constraints:
        for group in con.clashes(rules, values):
            if cell in group:
                out.update(group)
    out.discard(cell)
    return sorted(out)


def variant_key(grid: Grid, rules: Rules) -> str:
    """The canonical key of a variant puzzle, the same for each copy of it under the grid's
    symmetries and the relabellings its rules allow (:mod:`puzzles.variant_keys`)."""
    from puzzles.variant_keys import variant_canonical_key

    return variant_canonical_key(grid, rules)


# --- Making them -----------------------------------------------------------------------


def variant_puzzle_make(
    *, variant: str, shape: Shape, level: str, seed: str, stop: Callable[[], bool] | None = None
) -> tuple[Grid, Grid, Rules, str]:
    """A puzzle of ``variant`` at ``level`` from the engine's generator: (givens, solution,
    rules, hardest technique). Reproducible from ``seed``; VariantGenerationFailed (a
    RuntimeError) when no attempt reached the level, ValueError for what is not made."""
    from solver.generation.general import generate_variant

    if level not in variant_levels(variant, shape.size):
        raise ValueError(f"{variant} {shape.label} puzzles are not made at level {level!r}")
    made = generate_variant(variant, shape.size, level=level, seed=seed, stop=stop)
    return made.puzzle, made.solution, made.rules, made.hardest or ""
