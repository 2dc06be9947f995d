"""Generation of Diagonal, Jigsaw and Killer puzzles at a level, from a seed.

- **Diagonal**: a random grid that obeys the diagonals, then clues dug as for the classic.
- **Jigsaw**: regions drawn at random (:func:`random_regions`: the boxes, then cells swapped
  between neighbouring regions while both stay connected), checked to admit a filled grid
  (a random fill within a node budget; a layout that fails is drawn again), then dug.
- **Killer**: a random classic grid, cages drawn over it (:func:`draw_cages`: connected
  cells, mostly 2 to 5, no value twice), then givens added where two solutions differ
  until one remains; expert keeps only cage sets that need no givens at all, and hard gives
  one cell of those that need none if the medium techniques still cannot finish it then.

Diagonal and Jigsaw are dug as :mod:`solver.generation.general_dig` says. The level is the variant
logic's (:func:`solver.logic.general.variant_logic_solve`); Killer's expert is the level
with no givens (and more than singles and cage combinations needed), found by
:func:`solver.generation.general_dig.logic_level` (the same steps, none written) with only the
techniques that can tell whether an attempt is at the asked level (:func:`_cap`); a
Killer that passes them is graded in full for its hardest technique.
Every answer is a pure function of the arguments.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from solver.generation.general_dig import dig, logic_level, singles_solve
from solver.generation.jigsaw_regions import neighbours, random_regions
from solver.grid import BudgetExceeded, Grid, Shape
from solver.logic.general import LEVELS
from solver.rules.ruleset import VARIANTS, Cage, Rules
from solver.search.exact import has_other_solution, random_solution, solutions

GENERATED_LEVELS = ("easy", "medium", "hard", "expert")
FILL_TRIES = 10
"""Random fills of a Jigsaw layout, a node per cell each, before the layout is dropped:
how long a random fill takes varies widely, so many short tries find one sooner than a
few long ones (9x9: 90% of layouts filled in 2.4 ms, against 78% in 3.3 ms with three
tries of four nodes per cell)."""
KILLER_BUDGET = 1000
"""Nodes a Killer's search may take before its cages are drawn again (a few cage sets
with no givens take seconds to prove; most take tens of nodes)."""
MAX_ATTEMPTS = 200
GIVEN_TRIES = 8
"""Cells tried as the one given of a hard Killer whose cages alone need no givens (one
random given lets the medium techniques finish about half of those that are hard)."""
CAGE_SIZES = {
    "easy": (1, 2, 2, 2, 3, 3, 3),
    "medium": (2, 2, 3, 3, 3, 4),
    "hard": (2, 3, 3, 3, 4, 4, 5),
    "expert": (2, 3, 3, 4, 4, 5, 5),
}


def supported_variant_levels(variant: str, size: int) -> tuple[str, ...]:
    """The levels :func:`generate_variant` offers for ``variant`` at ``size``: every one at
    9x9 and 8x8; 6x6 Killer has no hard (its cages are solved by medium techniques or need
    no givens at all) and 4x4 is easy."""
    if size == 4:
        return ("easy",)
    if variant == "killer" and size == 6:
        return ("easy", "medium", "expert")
    return GENERATED_LEVELS


class VariantGenerationFailed(RuntimeError):
    """No attempt reached the asked level (rare; another seed will do)."""


@dataclass(frozen=True, slots=True)
class VariantGenerated:
    """A generated variant puzzle: its rules, givens, solution and level."""

    rules: Rules
    puzzle: Grid
    solution: Grid
    level: str
    hardest: str | None
    seed: int | str
    attempts: int = field(default=1, compare=False)
    searches: int = field(default=0, compare=False)


def generate_variant(
    variant: str,
    size: int = 9,
    *,
    level: str | None = None,
    seed: int | str = 0,
    stop: Callable[[], bool] | None = None,
) -> VariantGenerated:
    """A ``variant`` puzzle (``diagonal``, ``jigsaw``, ``killer``) with exactly one solution.

    ``level`` None takes the first puzzle made, whatever its level. Raises ValueError for
    an unknown variant, size or level, :class:`VariantGenerationFailed` when no attempt
    reached the level, or when ``stop`` answers True before an attempt (the first attempt is
    always made: a caller with a time budget finishes the attempt under way)."""
    if variant not in VARIANTS or variant == "classic":
        raise ValueError(f"unknown variant {variant!r}: use diagonal, jigsaw or killer")
    if size not in (4, 6, 8, 9):
        raise ValueError(f"{variant} puzzles are made in 4x4, 6x6, 8x8 and 9x9, not {size}")
    if level is not None and level not in GENERATED_LEVELS:
        raise ValueError(f"unknown level {level!r}: use one of {', '.join(GENERATED_LEVELS)}")
    if level is not None and level not in supported_variant_levels(variant, size):
        offered = ", ".join(supported_variant_levels(variant, size))
        raise ValueError(f"{variant} {size}x{size} puzzles reach only {offered}")
    shape = Shape.for_size(size)
    searches = 0
    for attempt in range(1, MAX_ATTEMPTS + 1):
        if stop is not None and attempt > 1 and stop():
            raise VariantGenerationFailed(f"stopped after {attempt - 1} attempts for {seed!r}")
        rng = random.Random(f"{variant}:{size}:{level}:{seed}:{attempt}")
        if variant == "killer":
            made = _killer(shape, level, rng)
            if made is None:
                continue
            rules, puzzle, solution, n_searches = made
        else:
            drawn = _rules_and_fill(variant, shape, rng)
            if drawn is None:
                continue
            rules, solution = drawn
            puzzle, n_searches = dig(rules, solution, rng, level)
        searches += n_searches
        cap = _cap(rules, level)
        found, hardest = logic_level(rules, puzzle, cap)
        if found == "master" and cap is not None:
            # past the cap: every level beyond it is offered alike, so one stands for all
            rated = _level(rules, puzzle, LEVELS[LEVELS.index(cap) + 1])
            if rated != level:
                continue
            found, hardest = logic_level(rules, puzzle)  # the hardest technique, in full
        rated = _level(rules, puzzle, found)
        if level is None or rated == level:
            return VariantGenerated(
                rules, puzzle, solution, rated, hardest, seed, attempt, searches
            )
    raise VariantGenerationFailed(
        f"no {level} {variant} {shape.label} puzzle in {MAX_ATTEMPTS} attempts for {seed!r}"
    )


def _level(rules: Rules, puzzle: Grid, found: str) -> str:
    """The level offered for the logic's level ``found``: the logic's, with master as
    expert. Killer: expert is a puzzle with no givens that needs more than singles and
    cage combinations; with givens, the logic's hard, expert and master are all hard."""
    rated = "expert" if found == "master" else found
    if rules.cages:
        if puzzle.clues == 0 and rated != "easy":
            return "expert"
        return "hard" if rated == "expert" else rated
    return rated


KILLER_CAPS = {"hard": "medium", "expert": "easy"}
"""The hardest techniques that tell whether a Killer is at these levels: one the medium
techniques cannot finish is hard (with givens); one the easy ones cannot finish, with no
givens, is expert."""


def _cap(rules: Rules, level: str | None) -> str | None:
    """The hardest techniques worth trying to tell whether a puzzle is at ``level``: the
    level's own, for Killer those of :data:`KILLER_CAPS`; None (all) for any level."""
    if level is None:
        return None
    return KILLER_CAPS.get(level, level) if rules.cages else level


def _rules_and_fill(variant: str, shape: Shape, rng: random.Random) -> tuple[Rules, Grid] | None:
    """Rules for Diagonal or Jigsaw, and a random grid that obeys them (None: none found)."""
    if variant == "diagonal":
        rules = Rules.make(shape, diagonals=True)
        return rules, random_solution(shape, rng, rules=rules)
    rules = Rules.make(shape, regions=random_regions(shape, rng))
    for _ in range(FILL_TRIES):
        found = _fill(rules, rng, budget=shape.ncells)
        if found is not None:
            return rules, found
    return None  # this layout may admit no grid at all: draw another


def _fill(rules: Rules, rng: random.Random, budget: int) -> Grid | None:
    """A random grid obeying ``rules`` within ``budget`` nodes; None if none was found."""
    from solver.search.house_lanes import variant_lanes
    from solver.search.lanes import _grid_of, _search, _start

    lz = variant_lanes(rules)
    empty = Grid.empty(rules.shape)
    start = _start(empty, lz)
    if start is None:
        return None
    try:
        for board in _search(start, lz, budget, rng=rng):
            return _grid_of(rules.shape, board, lz)
    except BudgetExceeded:
        return None
    return None


# ---------------------------------------------------------------------------------------
# Killer


def draw_cages(solution: Grid, rng: random.Random, sizes: tuple[int, ...]) -> tuple[Cage, ...]:
    """Cages over ``solution``: from each uncaged cell in a random order, a cage grown to a
    size drawn from ``sizes`` by adding neighbours whose value it does not hold yet."""
    n = solution.size
    sol = solution.cells
    cage_of = [-1] * len(sol)
    cages: list[list[int]] = []
    order = list(range(len(sol)))
    rng.shuffle(order)
    for start in order:
        if cage_of[start] >= 0:
            continue
        target = rng.choice(sizes)
        cells = [start]
        held = 1 << sol[start]
        cage_of[start] = len(cages)
        while len(cells) < target:
            options = sorted(
                {
                    d
                    for c in cells
                    for d in neighbours(c, n)
                    if cage_of[d] < 0 and not held >> sol[d] & 1
                }
            )
            if not options:
                break
            d = rng.choice(options)
            cells.append(d)
            held |= 1 << sol[d]
            cage_of[d] = len(cages)
        cages.append(sorted(cells))
    return tuple(Cage(tuple(c), sum(sol[x] for x in c)) for c in cages)


def _killer(
    shape: Shape, level: str | None, rng: random.Random
) -> tuple[Rules, Grid, Grid, int] | None:
    """One Killer attempt: rules, givens, solution and searches; None when expert (no
    givens allowed) drew cages with more than one solution, or hard cages with one that
    no single given keeps beyond the medium techniques."""
    solution = random_solution(shape, rng)
    cages = draw_cages(solution, rng, CAGE_SIZES[level or "medium"])
    rules = Rules.make(shape, cages=cages)
    cells = [0] * shape.ncells
    searches = 0
    while True:
        searches += 1
        try:
            found = solutions(Grid(shape, tuple(cells)), limit=2, rules=rules, budget=KILLER_BUDGET)
        except BudgetExceeded:
            return None  # cages that take long to prove: draw others
        if len(found) == 1:
            if level == "hard" and not any(cells):
                # no givens: easy or expert as it stands; one given may leave it hard
                given = _given_keeping_hard(rules, solution, rng)
                if given is None:
                    return None
                cells[given] = solution.cells[given]
                return rules, Grid(shape, tuple(cells)), solution, searches
            break
        if level == "expert":
            return None
        differ = [c for c in range(shape.ncells) if found[0].cells[c] != found[1].cells[c]]
        c = rng.choice(differ)
        cells[c] = solution.cells[c]
    # A given added early may have become unneeded: take those out (fewer is harder).
    for c in [c for c in range(shape.ncells) if cells[c]][:-1]:
        cells[c] = 0
        searches += 1
        fewer = Grid(shape, tuple(cells))
        try:
            other = has_other_solution(
                fewer, c, solution.cells[c], rules=rules, budget=KILLER_BUDGET
            )
        except BudgetExceeded:
            other = True
        if other:
            cells[c] = solution.cells[c]
    return rules, Grid(shape, tuple(cells)), solution, searches


def _given_keeping_hard(rules: Rules, solution: Grid, rng: random.Random) -> int | None:
    """A cell to give in a Killer that needs no givens so that it rates hard, not expert:
    None unless the medium techniques cannot finish it without givens, else the first of
    :data:`GIVEN_TRIES` random cells (in cages of two or more: a lone cell's value is its
    sum) after whose value they still cannot (None if every one lets them)."""
    shape, cap = rules.shape, KILLER_CAPS["hard"]
    if logic_level(rules, Grid.empty(shape), cap)[0] != "master":
        return None
    cells = [c for cage in rules.cages if len(cage.cells) > 1 for c in cage.cells]
    for c in rng.sample(cells, min(GIVEN_TRIES, len(cells))):
        given = [0] * shape.ncells
        given[c] = solution.cells[c]
        if logic_level(rules, Grid(shape, tuple(given)), cap)[0] == "master":
            return c
    return None


__all__ = [
    "GENERATED_LEVELS",
    "LEVELS",
    "VariantGenerated",
    "VariantGenerationFailed",
    "draw_cages",
    "generate_variant",
    "random_regions",
    "singles_solve",
    "supported_variant_levels",
]
