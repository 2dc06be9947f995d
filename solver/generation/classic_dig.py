"""The digger both generators share: clues removed from a random solution, orbit by orbit
of a symmetry, each removal kept when the puzzle keeps one solution within a ceiling
(:mod:`solver.generation.classic` for a level, :mod:`solver.generation.practice` for a
technique)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from solver.grid import BudgetExceeded, Grid, Shape, tables
from solver.logic.classic import logic_solve
from solver.logic.grade import Grade
from solver.logic.techniques.base import unit_spread
from solver.search.exact import count_solutions

SYMMETRIES = ("none", "rotational", "mirror", "diagonal")

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
                once, hidden = unit_spread(cand, unit)
                if once != all_mask:
                    return False
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
