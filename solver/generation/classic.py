"""Puzzle generation: a random solution, then clues taken away while one solution remains.

Glossary (see :mod:`solver.grid` for cells, units and masks):
- an *orbit* is a set of cells a symmetry maps onto each other (one cell, or a pair); clues
  are removed and kept an orbit at a time, so the pattern of givens keeps the symmetry;
- to *dig* is to visit the orbits once in a random order (a Knuth shuffle with the seeded
  RNG), removing an orbit's clues when the puzzle keeps one solution and stays within the
  *ceiling*, the hardest level it may need;
- a removed clue is *forced* when a naked or hidden single over the remaining givens puts
  it back: the puzzle then keeps its one solution and its level, with no search at all.

A removal is settled by the cheapest test that can: forced clues first; then naked and
hidden singles over the whole grid, while they still solve the puzzle (filling the grid
proves one solution and an easy puzzle); then :func:`solver.search.exact.count_solutions` with
``limit=2``, the one uniqueness search, followed under a ceiling of medium, hard or expert
by the logic engine (:func:`solver.logic.classic.logic_solve` with ``max_level``). A search that
needs more than :data:`SEARCH_BUDGET` nodes keeps the clue (the budget counts nodes, so the
outcome is still a function of the seed). Every removal is tried once: with fewer clues a
puzzle only gains solutions, so a pass with no ceiling (and no budget) leaves a *minimal*
puzzle: no clue can be removed.

Levels: the dig takes the asked level as its ceiling, and :func:`solver.logic.grade.grade` rates
the result. A result easier than asked starts a new attempt (a new solution and order drawn
from the same seed), so the answer stays a pure function of the arguments. Master (beyond
the logic engine) digs with no ceiling and keeps only results the engine cannot finish
(one minimal 9x9 puzzle in 20 to 40). :func:`supported_levels` lists the levels each size
reaches in practice (measured: see ``python -m bench``), in about two seconds or less;
others raise ValueError. With ``level=None`` the dig takes the hardest supported level as
its ceiling and the grade is whatever comes out.

Big grids need no clue floor: 25x25 puzzles are dug with singles only (search-free, about
265 givens left, under two seconds) and are easy; 16x16 reaches hard. ``minimal`` is
offered up to 12x12, where proving a sparse grid unique stays quick.

Symmetries: ``rotational`` (half turn), ``mirror`` (left-right), ``diagonal`` (reflection
in the main diagonal). Every grid here is square (N x N), so each symmetry applies to every
size; with boxes that are not square (6x6, 8x8, 12x12) the diagonal reflection maps a box
onto cells that are not a box, which does not matter: only the pattern of givens is
symmetric, never the solution. With a symmetry, ``minimal`` means no symmetric set of clues
can be removed (taking out a single clue would break the pattern).
"""

from __future__ import annotations

import random

from solver.generation.classic_dig import (
    SYMMETRIES,
    Generated,
    GenerationFailed,
    _as_shape,
    _Digger,
    _search_budget,
    is_symmetric,
    orbits,
)
from solver.grid import Grid, Shape
from solver.logic.grade import LEVELS, grade
from solver.logic.techniques import BY_SLUG
from solver.search.exact import random_solution

__all__ = [
    "SYMMETRIES",
    "Generated",
    "GenerationFailed",
    "generate",
    "is_symmetric",
    "orbits",
    "supported_levels",
]

MINIMAL_MAX_SIZE = 12

_SUPPORTED: dict[int, tuple[str, ...]] = {
    4: ("easy",),
    6: ("easy", "medium", "hard"),
    8: ("easy", "medium", "hard", "expert"),
    9: LEVELS,
    12: LEVELS,
    16: ("easy", "medium", "hard"),
    25: ("easy",),
}

MAX_ATTEMPTS = {4: 5000, 6: 5000, 8: 2000, 9: 2000, 12: 200, 16: 50, 25: 10}
"""Attempts before :class:`GenerationFailed` (cheap for small grids, where rare levels
need many)."""


def supported_levels(shape: Shape | int) -> tuple[str, ...]:
    """The levels :func:`generate` reaches in practice for this size, easiest first."""
    return _SUPPORTED.get(_as_shape(shape).size, ("easy",))


def generate(
    shape: Shape | int = 9,
    *,
    level: str | None = None,
    symmetry: str = "none",
    seed: int | str = 0,
    minimal: bool = False,
    require: str | None = None,
) -> Generated:
    """A puzzle with exactly one solution; the same arguments give the same puzzle.

    ``require`` names a technique the puzzle's logic solution must use, with nothing
    harder than its level (see :mod:`solver.generation.practice`); ``level`` is then that level.

    ``level`` None means any level the size supports; ``minimal`` asks that no clue (no
    orbit, under a symmetry) can be removed without losing uniqueness. Raises ValueError
    for a level the size does not support, :class:`GenerationFailed` if no attempt reached
    the level (very rare for supported levels; ``minimal`` with a level makes it likelier).
    """
    shape = _as_shape(shape)
    if require is not None:
        return _generate_requiring(shape, require, level, symmetry, seed, minimal)
    if symmetry not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}: use one of {', '.join(SYMMETRIES)}")
    if level is not None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}: use one of {', '.join(LEVELS)}")
        if level not in supported_levels(shape):
            raise ValueError(
                f"{shape.label} puzzles reach only {', '.join(supported_levels(shape))}; "
                f"{level} is not offered"
            )
    if minimal and shape.size > MINIMAL_MAX_SIZE:
        raise ValueError(
            f"minimal puzzles are offered up to {MINIMAL_MAX_SIZE}x{MINIMAL_MAX_SIZE}: "
            f"proving a sparse {shape.label} grid unique takes too long"
        )
    base = f"{shape.box_rows}x{shape.box_cols}:{level}:{symmetry}:{minimal}:{seed}"
    digger = _Digger(shape, budget=None if minimal else _search_budget(shape))
    top = supported_levels(shape)[-1]
    ceiling = None if minimal else (level or top)
    if ceiling == "master":
        ceiling = None
    attempts = MAX_ATTEMPTS.get(shape.size, 10)
    for attempt in range(1, attempts + 1):
        rng = random.Random(f"{base}:{attempt}")
        solution = random_solution(shape, rng)
        order = list(orbits(shape, symmetry))
        rng.shuffle(order)
        cells, easy = digger.dig(solution.cells, order, ceiling)
        if easy and level not in (None, "easy"):
            continue  # singles solve it: too easy, no need to grade
        puzzle = Grid(shape, tuple(cells))
        rated = grade(puzzle, solution=solution)
        if level is None or rated.level == level:
            return Generated(
                puzzle=puzzle,
                solution=solution,
                grade=rated,
                symmetry=symmetry,
                seed=seed,
                attempts=attempt,
                searches=digger.searches,
            )
    raise GenerationFailed(
        f"no {level} {shape.label} puzzle in {attempts} attempts for seed {seed!r}"
    )


def _generate_requiring(
    shape: Shape, slug: str, level: str | None, symmetry: str, seed: int | str, minimal: bool
) -> Generated:
    from solver.generation.practice import (  # it builds on this module
        make_requiring,
        require_attempts,
    )

    tech = BY_SLUG.get(slug)
    if tech is None:
        raise ValueError(f"unknown technique {slug!r}")
    if minimal:
        raise ValueError("minimal is not offered with require")
    if level is not None and level != tech.level:
        raise ValueError(f"{tech.name} is a {tech.level} technique, not {level}")
    if symmetry not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}: use one of {', '.join(SYMMETRIES)}")
    return make_requiring(shape, slug, symmetry, seed, require_attempts(shape, slug))
