"""The fast exact engine: solving, counting and drawing grids, under any rules.

The engine itself, constraint propagation on lane bitboards plus depth-first search, is
:mod:`solver.search.lanes` (its glossary is there); the lanes of a variant's houses and cages
are :mod:`solver.search.house_lanes`. This module chooses the lanes for a grid's rules and
runs the search. ``budget`` caps the nodes and raises :class:`BudgetExceeded`, so a
hostile grid cannot hold a worker; with constraints it caps the time too
(:data:`solver.search.constraint_lanes.SECONDS_PER_NODE`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from solver.grid import BudgetExceeded, Grid, Shape
from solver.search.constraint_lanes import time_budget
from solver.search.house_lanes import variant_lanes
from solver.search.lanes import State, _grid_of, _Lanes, _lanes, _propagate, _search, _start

if TYPE_CHECKING:
    from solver.rules.ruleset import Rules

DEFAULT_NODE_BUDGET = 10_000
"""A node budget that bounds the work of one untrusted grid, of any size up to 25x25.

The pure functions search without limit unless given ``budget``; callers that serve
untrusted grids (the API, the CLI) pass this. A node costs more on a bigger grid, so the
budget lasts longer there. Real puzzles need far fewer nodes: a full uniqueness check of
every puzzle of the shared 9x9 and 16x16 sets fits well inside it.
"""


def _lanes_of(grid: Grid, rules: Rules | None) -> _Lanes:
    """The lanes for ``grid`` under ``rules`` (None or classic rules: the classic's)."""
    if rules is None or rules.is_classic:
        return _lanes(grid.shape)
    if rules.shape != grid.shape:
        raise ValueError(f"a {grid.shape.label} grid cannot have {rules.shape.label} rules")
    return variant_lanes(rules)


def solutions(
    grid: Grid, *, limit: int, budget: int | None = None, rules: Rules | None = None
) -> list[Grid]:
    """Up to ``limit`` solutions, in a deterministic order."""
    if limit < 1:
        return []
    lz = _lanes_of(grid, rules)
    return _listed(_start(grid, lz), lz, grid.shape, limit=limit, budget=budget)


def _listed(
    start: State | None, lz: _Lanes, shape: Shape, *, limit: int, budget: int | None
) -> list[Grid]:
    """Up to ``limit`` solutions below ``start`` (None: none), in a deterministic order."""
    out: list[Grid] = []
    if start is None:
        return out
    with time_budget(lz, budget):
        for board in _search(start, lz, budget):
            out.append(_grid_of(shape, board, lz))
            if len(out) >= limit:
                break
    return out


def solve(grid: Grid, *, budget: int | None = None, rules: Rules | None = None) -> Grid | None:
    """The first solution, or None when there is none."""
    found = solutions(grid, limit=1, budget=budget, rules=rules)
    return found[0] if found else None


def count_solutions(
    grid: Grid, *, limit: int = 2, budget: int | None = None, rules: Rules | None = None
) -> int:
    """The number of solutions, counting no further than ``limit`` (2 answers "unique?").

    ``rules`` adds the houses and cages of a variant (:class:`solver.rules.ruleset.Rules`)."""
    if limit < 1:
        return 0
    lz = _lanes_of(grid, rules)
    start = _start(grid, lz)
    if start is None:
        return 0
    count = 0
    with time_budget(lz, budget):
        for _ in _search(start, lz, budget):
            count += 1
            if count >= limit:
                break
    return count


def candidate_solutions(
    rules: Rules,
    values: list[int],
    cand: list[int],
    *,
    limit: int,
    budget: int | None = None,
) -> list[Grid]:
    """Up to ``limit`` solutions of a logic's board: ``values`` placed, and each open cell
    holding a value of its candidate mask ``cand`` (bit v-1: value v). The candidates a
    sound logic ruled out hold no solution, so these are the puzzle's own, found with a
    smaller search than from its givens."""
    shape = rules.shape
    lz = _lanes_of(Grid.empty(shape), rules)
    start = _start(Grid(shape, tuple(values)), lz)
    if start is None:
        return []
    board, open_ = start
    nc, bits = lz.ncells, lz.bits
    for cell, v in enumerate(values):
        ruled_out = 0 if v else ~cand[cell] & ((1 << shape.size) - 1)
        while ruled_out:
            low = ruled_out & -ruled_out
            ruled_out ^= low
            board &= ~bits[(low.bit_length() - 1) * nc + cell]
    start = (lz.propagate or _propagate)(board, open_, lz)
    return _listed(start, lz, shape, limit=limit, budget=budget)


def has_other_solution(
    grid: Grid, cell: int, value: int, *, budget: int | None = None, rules: Rules | None = None
) -> bool:
    """True when ``grid`` has a solution with something else than ``value`` at ``cell``.

    A digger's question: a puzzle with one solution, less its clue ``value`` at ``cell``,
    keeps one solution exactly when this is False (another would differ there). Cheaper
    than counting to two: the known solution is never searched for."""
    lz = _lanes_of(grid, rules)
    start = _start(grid, lz)
    if start is None:
        return False
    board, open_ = start
    p = (value - 1) * lz.ncells + cell
    if not open_ & lz.bits[p]:
        return False  # the givens place it
    with time_budget(lz, budget):
        state = (lz.propagate or _propagate)(board & ~lz.bits[p], open_, lz)
        if state is None:
            return False
        return any(True for _ in _search(state, lz, budget))


def random_solution(shape: Shape, rng: random.Random, *, rules: Rules | None = None) -> Grid:
    """A random complete grid of ``shape``, drawn with ``rng`` (same rng state, same grid).

    With ``rules`` the grid obeys them too; rules no grid obeys raise ValueError (after a
    full search, so only for layouts that really admit none)."""
    empty = Grid.empty(shape)
    lz = _lanes_of(empty, rules)
    start = _start(empty, lz)
    if start is None:
        raise ValueError("no grid obeys these rules")
    # A variant's layout may make draws fail more often: let the budget grow with each try.
    grow = lz.propagate is not None or not (rules is None or rules.is_classic)
    tries = 0
    while True:
        tries += 1
        try:
            budget = 4 * shape.ncells * (tries if grow else 1)
            for board in _search(start, lz, budget=budget, rng=rng):
                return _grid_of(shape, board, lz)
            raise ValueError("no grid obeys these rules")
        except BudgetExceeded:
            continue  # an unlucky draw of early values: start again
