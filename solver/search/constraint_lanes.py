"""The constraints' propagation inside the exact search (:mod:`solver.search.lanes`).

A constraint's *differ pairs* are peers in the lanes' masks (placing a value clears it from
the partner), so anti-knight, anti-king, extra regions, renban and thermometers cost nothing
extra there. The rest is :func:`propagate_constraints`: after the singles, locked candidates
and cage combinations, it reads each constrained cell's candidate mask from the cell region,
runs every constraint's propagators (:mod:`solver.rules.constraints.base`) to a fixed point
(a propagator runs again when one of its cells lost a candidate), and clears what they
removed from the board; then the singles run again, until nothing changes. A propagator
that finds no fill, or a cell with no candidate left, is a contradiction. On a full grid
the propagators are exact, so the search never accepts a grid that breaks a constraint.

Pairs (a dot, a thermometer's step, a whisper's) are the commonest propagators: up to
16x16 they skip the memo and read their support from a table by mask, in one tight sweep.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from solver.grid import BudgetExceeded
from solver.rules.constraints.base import Pair, Propagator, support

if TYPE_CHECKING:
    from solver.rules.ruleset import Rules
    from solver.search.lanes import State, _Lanes

PLANS_CACHED = 16
SECONDS_PER_NODE = 0.0005
"""A search with constraints and a node budget also stops after this many seconds a node
of its budget (5 s for the API's 10,000): a node there costs more than a classic one, and
a heavy mix on 16x16 could spend a minute inside the node budget alone."""
_DEADLINE: ContextVar[float | None] = ContextVar("constraint_search_deadline", default=None)


@contextmanager
def time_budget(lanes: _Lanes, budget: int | None) -> Iterator[None]:
    """Within it, a search on ``lanes`` with constraints stops at its budget's time too."""
    if lanes.constraints is None or budget is None:
        yield
        return
    token = _DEADLINE.set(time.monotonic() + budget * SECONDS_PER_NODE)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


PAIR_TABLE_SIZE = 16
"""Pairs read their support from a table by mask up to this side (65,536 entries a table)."""
_SUPPORTS: dict[tuple[int, ...], tuple[int, ...]] = {}


def _supports(table: tuple[int, ...]) -> tuple[int, ...]:
    """The support of every mask by ``table``, shared by every pair with that relation."""
    found = _SUPPORTS.get(table)
    if found is None:
        found = _SUPPORTS[table] = tuple(support(table, m) for m in range(1 << len(table)))
    return found


@dataclass(frozen=True, slots=True, eq=False)
class ConstraintLanes:
    """The propagators of one rules' constraints, and which of them watch each cell."""

    props: tuple[Propagator, ...]  # all but the pairs
    watchers: dict[int, tuple[int, ...]]  # cell -> indexes of the propagators on it
    cells: tuple[int, ...]  # every cell some propagator or pair reads
    pairs: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]  # a, b, supports


@lru_cache(maxsize=PLANS_CACHED)
def constraint_lanes(rules: Rules) -> ConstraintLanes | None:
    """The plan for ``rules``; None when no constraint propagates (pairs only, or none)."""
    every = [p for con in rules.constraints for p in con.propagators(rules)]
    if not every:
        return None
    small = rules.size <= PAIR_TABLE_SIZE
    pairs = tuple(
        (p.cells[0], p.cells[1], _supports(p.table), _supports(p.back))
        for p in every
        if small and isinstance(p, Pair)
    )
    props = tuple(p for p in every if not (small and isinstance(p, Pair)))
    watchers: dict[int, list[int]] = {}
    for i, prop in enumerate(props):
        for c in prop.cells:
            watchers.setdefault(c, []).append(i)
    cells = set(watchers) | {c for a, b, _, _ in pairs for c in (a, b)}
    return ConstraintLanes(
        props, {c: tuple(w) for c, w in watchers.items()}, tuple(sorted(cells)), pairs
    )


def propagate_constraints(
    board: int, open_: int, lz: _Lanes, base: Callable[[int, int, _Lanes], State | None]
) -> State | None:
    """``base`` (singles and locked candidates, and the cages when there are some), then the
    constraints, until nothing changes; None on a contradiction (see the module docstring)."""
    plan: ConstraintLanes = lz.constraints
    deadline = _DEADLINE.get()
    if deadline is not None and time.monotonic() > deadline:
        raise BudgetExceeded("the search used up its time budget")
    props, watchers = plan.props, plan.watchers
    w, nc, cr = lz.width, lz.ncells, lz.cell_region
    lane = (1 << lz.n) - 1
    bits = lz.bits
    while True:
        state = base(board, open_, lz)
        if state is None:
            return None
        board, open_ = state
        grid = board >> cr
        masks = [0] * nc
        for c in plan.cells:
            masks[c] = (grid >> (c * w)) & lane
        before = masks[:]
        queue = list(range(len(props) - 1, -1, -1))
        queued = [True] * len(props)
        while True:
            if not _pairs(plan.pairs, masks, watchers, queue, queued):
                return None
            if not queue:
                break
            while queue:
                i = queue.pop()
                queued[i] = False
                prop = props[i]
                key = tuple([masks[c] for c in prop.cells])
                out = prop(key)
                if out is None:
                    return None
                if out != key:
                    for c, new in zip(prop.cells, out, strict=True):
                        if new != masks[c]:
                            masks[c] = new
                            for j in watchers[c]:
                                if not queued[j]:
                                    queued[j] = True
                                    queue.append(j)
        changed = False
        for c in plan.cells:
            cut = before[c] & ~masks[c]
            while cut:
                low = cut & -cut
                cut ^= low
                board &= ~bits[(low.bit_length() - 1) * nc + c]
                changed = True
        if not changed:
            return board, open_


def _pairs(
    pairs: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...],
    masks: list[int],
    watchers: dict[int, tuple[int, ...]],
    queue: list[int],
    queued: list[bool],
) -> bool:
    """Every pair to a fixed point, queueing the propagators of the cells they change;
    False on a contradiction."""
    changed = True
    while changed:
        changed = False
        for a, b, ab, ba in pairs:
            ma, mb = masks[a], masks[b]
            nb = mb & ab[ma]
            na = ma & ba[nb]
            if na != ma or nb != mb:
                if not na or not nb:
                    return False
                changed = True
                masks[a], masks[b] = na, nb
                for c in (a, b):
                    for j in watchers.get(c, ()):
                        if not queued[j]:
                            queued[j] = True
                            queue.append(j)
    return True
