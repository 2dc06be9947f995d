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
proves one solution and an easy puzzle); then :func:`solver.search.count_solutions` with
``limit=2``, the one uniqueness search, followed under a ceiling of medium, hard or expert
by the logic engine (:func:`solver.logic.logic_solve` with ``max_level``). A search that
needs more than :data:`SEARCH_BUDGET` nodes keeps the clue (the budget counts nodes, so the
outcome is still a function of the seed). Every removal is tried once: with fewer clues a
puzzle only gains solutions, so a pass with no ceiling (and no budget) leaves a *minimal*
puzzle: no clue can be removed.

Levels: the dig takes the asked level as its ceiling, and :func:`solver.grade.grade` rates
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
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from solver.grade import LEVELS, Grade, grade
from solver.grid import BudgetExceeded, Grid, Shape, tables
from solver.logic import logic_solve
from solver.search import count_solutions, random_solution
from solver.techniques import BY_SLUG

SYMMETRIES = ("none", "rotational", "mirror", "diagonal")

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

SEARCH_BUDGET = {9: 2000, 12: 100}
"""Search nodes one uniqueness check may use, by the largest size it applies to (bigger
grids use the last); past it the clue stays."""


class GenerationFailed(RuntimeError):
    """No attempt reached the asked level (rare; a different seed will do)."""


@dataclass(frozen=True, slots=True)
class Generated:
    """A generated puzzle with its solution and grade, and how it was made."""

    puzzle: Grid
    solution: Grid
    grade: Grade
    symmetry: str
    seed: int | str
    attempts: int = field(default=1, compare=False)
    searches: int = field(default=0, compare=False)  # count_solutions calls over all attempts


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
    harder than its level (see :mod:`solver.practice`); ``level`` is then that level.

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
    from solver.practice import dig_requiring, require_attempts  # it builds on this module

    tech = BY_SLUG.get(slug)
    if tech is None:
        raise ValueError(f"unknown technique {slug!r}")
    if minimal:
        raise ValueError("minimal is not offered with require")
    if level is not None and level != tech.level:
        raise ValueError(f"{tech.name} is a {tech.level} technique, not {level}")
    if symmetry not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}: use one of {', '.join(SYMMETRIES)}")
    return dig_requiring(shape, slug, symmetry, seed, require_attempts(shape, slug))


def _as_shape(shape: Shape | int) -> Shape:
    return shape if isinstance(shape, Shape) else Shape.for_size(shape)


def _search_budget(shape: Shape) -> int:
    """The node budget of one uniqueness check for this size (see SEARCH_BUDGET)."""
    fits = [budget for size, budget in SEARCH_BUDGET.items() if shape.size <= size]
    return fits[0] if fits else list(SEARCH_BUDGET.values())[-1]


@cache
def orbits(shape: Shape, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """The cells grouped into orbits of ``symmetry``, in cell order."""
    n = shape.size
    image: Callable[[int, int], tuple[int, int]]
    if symmetry == "none":
        return tuple((c,) for c in range(n * n))
    if symmetry == "rotational":
        image = lambda r, c: (n - 1 - r, n - 1 - c)  # noqa: E731
    elif symmetry == "mirror":
        image = lambda r, c: (r, n - 1 - c)  # noqa: E731
    elif symmetry == "diagonal":
        image = lambda r, c: (c, r)  # noqa: E731
    else:
        raise ValueError(f"unknown symmetry {symmetry!r}: use one of {', '.join(SYMMETRIES)}")
    out: list[tuple[int, ...]] = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        ir, ic = image(r, c)
        other = ir * n + ic
        if other == cell:
            out.append((cell,))
        elif cell < other:
            out.append((cell, other))
    return tuple(out)


def is_symmetric(grid: Grid, symmetry: str) -> bool:
    """True when the pattern of givens is unchanged by ``symmetry``."""
    cells = grid.cells
    return all(
        all(bool(cells[c]) == bool(cells[orbit[0]]) for c in orbit)
        for orbit in orbits(grid.shape, symmetry)
    )


class _Digger:
    """Removes clues from a solution (see the module docstring); counts its searches."""

    def __init__(self, shape: Shape, budget: int | None) -> None:
        t = tables(shape)
        self.shape = shape
        self.n = t.n
        self.all_mask = t.all_mask
        self.units = t.units
        self.cell_units = t.cell_units
        self.peers = t.peers
        self.searches = 0
        self.budget = budget

    def dig(
        self, solution: tuple[int, ...], order: list[tuple[int, ...]], ceiling: str | None
    ) -> tuple[list[int], bool]:
        """The givens left after one pass over ``order`` (a list of orbits), and whether
        singles alone solve them (then the puzzle is easy, with no need to grade it)."""
        cells = list(solution)
        used = [self.all_mask] * (3 * self.n)
        # While singles alone solve the puzzle, they may prove a removal; once they cannot,
        # they cannot for any smaller puzzle either.
        by_singles = True
        for orbit in order:
            for c in orbit:
                bit = 1 << (cells[c] - 1)
                for u in self.cell_units[c]:
                    used[u] ^= bit
                cells[c] = 0
            if self._forced(cells, used, orbit, solution):
                continue
            if by_singles and self._singles_fill(cells, orbit):
                continue
            if ceiling != "easy" and self._unique_within(cells, ceiling):
                by_singles = False
                continue
            for c in orbit:
                v = solution[c]
                cells[c] = v
                for u in self.cell_units[c]:
                    used[u] |= 1 << (v - 1)
        return cells, by_singles

    def _unique_within(self, cells: list[int], ceiling: str | None) -> bool:
        """True when ``cells`` has one solution and the logic up to ``ceiling`` finds it."""
        puzzle = Grid(self.shape, tuple(cells))
        self.searches += 1
        try:
            if count_solutions(puzzle, limit=2, budget=self.budget) != 1:
                return False
        except BudgetExceeded:
            return False  # not proven unique cheaply: keep the clue
        if ceiling is None or ceiling == "master":
            return True
        return logic_solve(puzzle, max_level=ceiling).solved

    def _forced(
        self, cells: list[int], used: list[int], orbit: tuple[int, ...], solution: tuple[int, ...]
    ) -> bool:
        """True when naked or hidden singles over the givens put back every removed clue."""
        cell_units = self.cell_units
        units = self.units
        all_mask = self.all_mask
        pending = list(orbit)
        restored: list[int] = []
        progress = True
        while pending and progress:
            progress = False
            for c in pending:
                v = solution[c]
                bit = 1 << (v - 1)
                r, k, b = cell_units[c]
                hit = (used[r] | used[k] | used[b] | bit) == all_mask
                if not hit:
                    for u in (r, k, b):
                        for e in units[u]:
                            if e != c and not cells[e]:
                                er, ek, eb = cell_units[e]
                                if not (used[er] | used[ek] | used[eb]) & bit:
                                    break
                        else:
                            hit = True
                            break
                if hit:
                    cells[c] = v
                    used[r] |= bit
                    used[k] |= bit
                    used[b] |= bit
                    restored.append(c)
                    pending.remove(c)
                    progress = True
                    break
        for c in restored:
            bit = 1 << (solution[c] - 1)
            for u in cell_units[c]:
                used[u] ^= bit
            cells[c] = 0
        return not pending

    def _singles_fill(self, cells: list[int], targets: tuple[int, ...]) -> bool:
        """True when naked and hidden singles put back every cell of ``targets``.

        Called only while singles solve the puzzle with those cells given, so putting them
        back means singles fill the grid: one solution, and an easy puzzle.
        """
        all_mask = self.all_mask
        units = self.units
        peers = self.peers
        used = [0] * (3 * self.n)
        for c, v in enumerate(cells):
            if v:
                bit = 1 << (v - 1)
                for u in self.cell_units[c]:
                    used[u] |= bit
        cand = []
        queue = []
        for c, v in enumerate(cells):
            if v:
                cand.append(1 << (v - 1))
            else:
                r, k, b = self.cell_units[c]
                m = all_mask & ~(used[r] | used[k] | used[b])
                if not m & (m - 1):
                    if not m:
                        return False
                    queue.append(c)
                cand.append(m)
        while True:
            while queue:
                c = queue.pop()
                m = cand[c]
                for p in peers[c]:
                    x = cand[p]
                    if x & m:
                        if x == m:
                            return False
                        x ^= m
                        cand[p] = x
                        if not x & (x - 1):
                            queue.append(p)
            if all(not cand[c] & (cand[c] - 1) for c in targets):
                return True
            for unit in units:
                once = twice = 0
                for c in unit:
                    m = cand[c]
                    twice |= once & m
                    once |= m
                if once != all_mask:
                    return False
                hidden = once & ~twice
                if hidden:
                    for c in unit:
                        m = cand[c]
                        h = m & hidden
                        if h and h != m:
                            if h & (h - 1):
                                return False  # two values that fit only here
                            cand[c] = h
                            queue.append(c)
            if not queue:
                return False
