"""The fast exact engine: constraint propagation over bitmasks plus depth-first search.

Glossary (see :mod:`solver.grid`): a *candidate mask* is an int whose bit v-1 is set when
value v may still go in the cell; a cell is *placed* when its mask has one bit.

- *naked single*: a cell with one candidate left; its value is removed from every peer
  (by a worklist, so each placement is spread exactly once);
- *hidden single*: a value that fits in only one cell of a unit; found unit by unit with two
  masks, ``once`` (seen in some cell) and ``twice`` (seen in two cells);
- *search*: when propagation stalls, branch on the open cell with the fewest candidates
  (minimum remaining values), trying each value on a copy of the masks. The search keeps its
  own stack, so depth is bounded by the number of cells, never by Python's recursion limit.

A *node* is one guess tried by the search; ``budget`` caps the nodes and raises
:class:`BudgetExceeded` when they run out, so a hostile grid cannot hold a worker for long.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

from solver.grid import BudgetExceeded, Grid, Shape, tables

DEFAULT_NODE_BUDGET = 20_000
"""A node budget callers may pass to answer any grid quickly (see the module docstring)."""

Masks = list[int]
CellLists = tuple[tuple[int, ...], ...]
EngineTables = tuple[int, int, CellLists, CellLists, tuple[tuple[int, int, int], ...]]


@cache
def _engine_tables(shape: Shape) -> EngineTables:
    """(n, all_mask, peers, units, cell_units) as plain tuples for fast local access."""
    t = tables(shape)
    return t.n, t.all_mask, t.peers, t.units, t.cell_units


def _initial(grid: Grid) -> Masks | None:
    """Candidate masks after the givens are placed and spread; None if the givens clash."""
    n, allm, peers, units, cell_units = _engine_tables(grid.shape)
    used = [0] * (3 * n)
    cells = grid.cells
    for c, v in enumerate(cells):
        if v:
            bit = 1 << (v - 1)
            for u in cell_units[c]:
                if used[u] & bit:
                    return None
                used[u] |= bit
    cand: Masks = []
    queue: list[int] = []
    for c, v in enumerate(cells):
        if v:
            cand.append(1 << (v - 1))
        else:
            r, k, b = cell_units[c]
            m = allm & ~(used[r] | used[k] | used[b])
            if not m:
                return None
            if not m & (m - 1):
                queue.append(c)
            cand.append(m)
    if not _propagate(cand, queue, peers, units, allm):
        return None
    return cand


def _propagate(
    cand: Masks,
    queue: list[int],
    peers: tuple[tuple[int, ...], ...],
    units: tuple[tuple[int, ...], ...],
    allm: int,
) -> bool:
    """Spread naked and hidden singles until nothing changes; False on a contradiction."""
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
        for unit in units:
            once = twice = 0
            for c in unit:
                m = cand[c]
                twice |= once & m
                once |= m
            if once != allm:
                return False
            hidden = once & ~twice
            if hidden:
                for c in unit:
                    m = cand[c]
                    h = m & hidden
                    if h and h != m:
                        if h & (h - 1):
                            return False
                        cand[c] = h
                        queue.append(c)
        if not queue:
            return True


def _search(
    cand: Masks, shape: Shape, budget: int | None, order: random.Random | None = None
) -> Iterator[Masks]:
    """Yield every complete assignment below ``cand`` (depth first, explicit stack)."""
    n, allm, peers, units, _ = _engine_tables(shape)
    ncells = len(cand)
    nodes = 0
    stack: list[tuple[Masks, int, int]] = []
    current: Masks | None = cand
    while True:
        if current is not None:
            best = -1
            best_count = n + 1
            for c in range(ncells):
                m = current[c]
                if m & (m - 1):
                    k = m.bit_count()
                    if k < best_count:
                        best, best_count = c, k
                        if k == 2:
                            break
            if best < 0:
                yield current
            else:
                stack.append((current, best, current[best]))
            current = None
        if not stack:
            return
        base, cell, rest = stack[-1]
        if order is not None and rest & (rest - 1):
            bits = [1 << v for v in range(n) if rest >> v & 1]
            bit = order.choice(bits)
        else:
            bit = rest & -rest
        rest ^= bit
        if rest:
            stack[-1] = (base, cell, rest)
            trial = base[:]
        else:
            stack.pop()
            trial = base
        nodes += 1
        if budget is not None and nodes > budget:
            raise BudgetExceeded(f"search used up its budget of {budget} nodes")
        trial[cell] = bit
        if _propagate(trial, [cell], peers, units, allm):
            current = trial


def _to_grid(shape: Shape, cand: Masks) -> Grid:
    return Grid(shape, tuple(m.bit_length() for m in cand))


def solutions(grid: Grid, *, limit: int, budget: int | None = None) -> list[Grid]:
    """Up to ``limit`` solutions, in a deterministic order."""
    if limit < 1:
        return []
    cand = _initial(grid)
    if cand is None:
        return []
    out: list[Grid] = []
    for found in _search(cand, grid.shape, budget):
        out.append(_to_grid(grid.shape, found))
        if len(out) >= limit:
            break
    return out


def solve(grid: Grid, *, budget: int | None = None) -> Grid | None:
    """The first solution, or None when there is none."""
    found = solutions(grid, limit=1, budget=budget)
    return found[0] if found else None


def count_solutions(grid: Grid, *, limit: int = 2, budget: int | None = None) -> int:
    """The number of solutions, counting no further than ``limit`` (2 answers "unique?")."""
    if limit < 1:
        return 0
    cand = _initial(grid)
    if cand is None:
        return 0
    count = 0
    for _ in _search(cand, grid.shape, budget):
        count += 1
        if count >= limit:
            break
    return count


def random_solution(shape: Shape, rng: random.Random) -> Grid:
    """A random complete grid of ``shape``, drawn with ``rng`` (same rng state, same grid)."""
    empty = Grid.empty(shape)
    while True:
        cand = _initial(empty)
        assert cand is not None
        try:
            for found in _search(cand, shape, budget=50 * shape.ncells, order=rng):
                return _to_grid(shape, found)
        except BudgetExceeded:
            continue  # an unlucky start: draw again
