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
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from solver.rules.constraints.base import Propagator

if TYPE_CHECKING:
    from solver.rules.ruleset import Rules
    from solver.search.lanes import State, _Lanes

PLANS_CACHED = 16


@dataclass(frozen=True, slots=True, eq=False)
class ConstraintLanes:
    """The propagators of one rules' constraints, and which of them watch each cell."""

    props: tuple[Propagator, ...]
    watchers: dict[int, tuple[int, ...]]  # cell -> indexes of the propagators on it
    cells: tuple[int, ...]  # every cell some propagator reads


@lru_cache(maxsize=PLANS_CACHED)
def constraint_lanes(rules: Rules) -> ConstraintLanes | None:
    """The plan for ``rules``; None when no constraint propagates (pairs only, or none)."""
    props = tuple(p for con in rules.constraints for p in con.propagators(rules))
    if not props:
        return None
    watchers: dict[int, list[int]] = {}
    for i, prop in enumerate(props):
        for c in prop.cells:
            watchers.setdefault(c, []).append(i)
    return ConstraintLanes(
        props, {c: tuple(w) for c, w in watchers.items()}, tuple(sorted(watchers))
    )


def propagate_constraints(board: int, open_: int, lz: _Lanes) -> State | None:
    """Singles, locked candidates, cages, then the constraints, until nothing changes;
    None on a contradiction (see the module docstring)."""
    from solver.search.house_lanes import _propagate_cages
    from solver.search.lanes import _propagate

    plan: ConstraintLanes = lz.constraints
    base = _propagate_cages if lz.cages else _propagate
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
        masks = {c: (grid >> (c * w)) & lane for c in plan.cells}
        before = dict(masks)
        queue = list(range(len(props) - 1, -1, -1))
        queued = [True] * len(props)
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
