"""Variant puzzles in the bank: their stored rules, their API JSON, and how they are made.

A puzzle's rules live in two columns: ``variant`` (a name people know) and ``rules``
(JSON: ``regions`` only when irregular, ``diagonals``, ``cages``). The engine reads a
:class:`solver.variant.Rules`; this module turns one into the other and back.

Making a variant puzzle (:func:`variant_puzzle_make`) is a thin adapter over the engine's
exact search (``random_solution`` and ``count_solutions`` with ``rules=``) until the
engine offers its own generator and grader for variants: a random solution under the
rules (random connected regions for Jigsaw, random cages for Killer), then givens taken
away while the solution stays unique. The level comes from how far the digging went
(:data:`VARIANT_LEVELS`); Killer's hardest level has no givens at all.
"""

from __future__ import annotations

import hashlib
import json
import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from solver import Grid, Shape, count_solutions, format_line, random_solution
from solver.grid import BudgetExceeded, tables
from solver.variant import Cage, Rules, RulesError

if TYPE_CHECKING:
    from puzzles.models import Puzzle

VARIANT_LEVELS: dict[str, tuple[str, ...]] = {
    "diagonal": ("easy", "medium", "hard"),
    "jigsaw": ("easy", "medium", "hard"),
    "killer": ("easy", "medium", "hard", "expert"),
}
"""The levels the bank makes of each variant; Killer's ``expert`` has no givens."""

# Givens put back after digging to a minimal puzzle, as a share of the cells, per level.
_EXTRA_GIVENS = {"easy": 0.18, "medium": 0.08, "hard": 0.0}
_SCORES = {"easy": 300, "medium": 900, "hard": 2000, "expert": 4000}
GEN_BUDGET = 200_000
"""Search nodes one uniqueness check may use while digging."""


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
    from solver.variant import layout

    return layout(rules_of(puzzle)).peers


def rules_payload(puzzle: Puzzle) -> dict[str, Any]:
    """The API's rules of a puzzle: variant, regions (always), diagonals, cages."""
    rules = rules_of(puzzle)
    return {
        "variant": puzzle.variant,
        "regions": list(rules.regions),
        "diagonals": rules.diagonals,
        "cages": [{"cells": list(c.cells), "sum": c.total} for c in rules.cages],
    }


def variant_key(grid: Grid, rules: Rules) -> str:
    """The canonical key of a variant puzzle: its exact givens and rules (no symmetry
    reduction yet: the engine's canonical form knows boxes only)."""
    raw = json.dumps(
        [
            rules.variant,
            grid.shape.box_rows,
            grid.shape.box_cols,
            format_line(grid),
            rules_stored(rules),
        ],
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(("variant:" + raw).encode()).hexdigest()


# --- Making them -----------------------------------------------------------------------


def _connected(cells: set[int], n: int) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        for d in _neighbours(c, n):
            if d in cells and d not in seen:
                seen.add(d)
                todo.append(d)
    return len(seen) == len(cells)


def _neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    out = []
    if r > 0:
        out.append(cell - n)
    if r < n - 1:
        out.append(cell + n)
    if c > 0:
        out.append(cell - 1)
    if c < n - 1:
        out.append(cell + 1)
    return out


def random_regions(shape: Shape, rng: random.Random, *, swaps: int | None = None) -> list[int]:
    """Irregular regions of N connected cells each: the boxes with many border cells
    swapped between neighbouring regions (each swap keeps both regions connected)."""
    n = shape.size
    regions = list(tables(shape).box_of)
    members = [set() for _ in range(n)]
    for cell, r in enumerate(regions):
        members[r].add(cell)
    wanted = swaps if swaps is not None else n * n // 2
    done = tries = 0
    while done < wanted and tries < wanted * 40:
        tries += 1
        a = rng.randrange(n * n)
        ra = regions[a]
        others = [d for d in _neighbours(a, n) if regions[d] != ra]
        if not others:
            continue
        rb = regions[rng.choice(others)]
        back = [c for c in members[rb] if any(regions[d] == ra for d in _neighbours(c, n))]
        c = rng.choice(back)
        new_a = (members[ra] - {a}) | {c}
        new_b = (members[rb] - {c}) | {a}
        if _connected(new_a, n) and _connected(new_b, n):
            members[ra], members[rb] = new_a, new_b
            regions[a], regions[c] = rb, ra
            done += 1
    return regions


def random_cages(solution: Grid, rng: random.Random, *, largest: int = 4) -> list[Cage]:
    """Cages that cover the grid: grown from random cells, 1 to ``largest`` cells each,
    never repeating a value of ``solution``; each cage's sum is its values' sum."""
    n = solution.size
    values = solution.cells
    free = set(range(n * n))
    order = list(range(n * n))
    rng.shuffle(order)
    cages = []
    for start in order:
        if start not in free:
            continue
        cells = [start]
        free.discard(start)
        goal = rng.randint(2, largest)
        while len(cells) < goal:
            used = {values[c] for c in cells}
            options = sorted(
                {d for c in cells for d in _neighbours(c, n) if d in free and values[d] not in used}
            )
            if not options:
                break
            pick = rng.choice(options)
            cells.append(pick)
            free.discard(pick)
        cages.append(Cage(tuple(sorted(cells)), sum(values[c] for c in cells)))
    return cages


def _unique(grid: Grid, rules: Rules) -> bool:
    try:
        return count_solutions(grid, limit=2, budget=GEN_BUDGET, rules=rules) == 1
    except BudgetExceeded:
        return False


def _dig(
    solution: Grid, rules: Rules, rng: random.Random, *, keep: frozenset[int] = frozenset()
) -> list[int]:
    """Take givens away in random order while the puzzle keeps one solution."""
    cells = list(solution.cells)
    order = [c for c in range(len(cells)) if c not in keep]
    rng.shuffle(order)
    for c in order:
        value, cells[c] = cells[c], 0
        if not _unique(solution.with_cells(cells), rules):
            cells[c] = value
    return cells


def variant_rules_make(variant: str, shape: Shape, rng: random.Random) -> tuple[Rules, Grid]:
    """Rules of ``variant`` and a solution that obeys them."""
    for _attempt in range(50):
        try:
            if variant == "diagonal":
                rules = Rules.make(shape, diagonals=True)
                return rules, random_solution(shape, rng, rules=rules)
            if variant == "jigsaw":
                rules = Rules.make(shape, regions=random_regions(shape, rng))
                return rules, random_solution(shape, rng, rules=rules)
            if variant == "killer":
                solution = random_solution(shape, rng)
                rules = Rules.make(shape, cages=random_cages(solution, rng))
                return rules, solution
        except (ValueError, RulesError):
            continue  # regions no grid fits: draw others
        raise ValueError(f"unknown variant {variant!r}")
    raise ValueError(f"no {variant} rules could be made")


def variant_puzzle_make(
    *, variant: str, shape: Shape, level: str, seed: str
) -> tuple[Grid, Grid, Rules]:
    """A puzzle of ``variant`` at ``level`` with one solution: (givens, solution, rules).

    Reproducible from ``seed``. Killer ``expert`` has no givens: cages are drawn again
    until the cages alone make the solution unique."""
    if level not in VARIANT_LEVELS.get(variant, ()):
        raise ValueError(f"{variant} puzzles are not made at level {level!r}")
    rng = random.Random(seed)
    for _attempt in range(40):
        rules, solution = variant_rules_make(variant, shape, rng)
        if level == "expert":
            empty = Grid.empty(shape)
            if _unique(empty, rules):
                return empty, solution, rules
            continue
        cells = _dig(solution, rules, rng)
        extra = round(_EXTRA_GIVENS[level] * shape.ncells)
        empties = [c for c, v in enumerate(cells) if not v]
        for c in rng.sample(empties, min(extra, len(empties))):
            cells[c] = solution.cells[c]
        return solution.with_cells(cells), solution, rules
    raise ValueError(f"no {variant} {level} puzzle could be made from seed {seed!r}")


def variant_score(level: str) -> int:
    """A provisional score for a variant level (the engine does not grade variants yet)."""
    return _SCORES[level]
