"""Logic steps from the constraints (:mod:`solver.rules.constraints`): each constraint's own
propagators, run on the board's candidates, are the deductions a human makes with it.

A thermometer's cells bounded by their place on it, a kropki dot's or an X's pairs, an
arrow's sum bounded by its cells, a whisper's forbidden middle values, a sandwich's
possible fillings, a renban's runs: one step per propagator that removes something, its
sentence naming the constraint (``constraint:<kind>`` in :mod:`solver.logic.sentences`).
Anti-knight, anti-king, extra regions and the other cells a constraint makes differ are
peers, so a placement clears them as a row does.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from solver.logic.techniques.base import Step, values_of
from solver.rules.constraints import (
    XV,
    Arrow,
    Constraint,
    Kropki,
    LittleKiller,
    Sandwich,
    Whispers,
)
from solver.rules.constraints.base import Propagator

if TYPE_CHECKING:
    from solver.logic.houses import VBoard
    from solver.rules.ruleset import Rules


@lru_cache(maxsize=16)
def _propagators(rules: Rules) -> tuple[tuple[Constraint, Propagator], ...]:
    return tuple((con, p) for con in rules.constraints for p in con.propagators(rules))


def _params(con: Constraint, prop: Propagator, n: int) -> dict[str, Any]:
    kind = con.kind
    params: dict[str, Any] = {"cells": prop.cells}
    if isinstance(con, Kropki):
        kind = f"kropki_{con.colour}"
        params["count"] = con.value
    elif isinstance(con, XV | LittleKiller | Sandwich):
        params["count"] = con.total
    elif isinstance(con, Whispers):
        params["count"] = con.gap(n)
    elif isinstance(con, Arrow):
        params = {"cells": con.line, "circle_cells": con.circle}
    if isinstance(con, Sandwich):
        params["value"] = n
    return {"variant": kind, **params}


def constraint_steps(board: VBoard) -> Iterator[Step]:
    """Candidates a constraint rules out, one propagator at a time."""
    values, cand = board.values, board.cand
    for con, prop in _propagators(board.rules):
        masks = tuple((1 << (values[c] - 1)) if values[c] else cand[c] for c in prop.cells)
        out = prop(masks)
        if out is None or out == masks:
            continue  # a contradiction shows when a cell runs out of candidates
        elim = [
            (c, v)
            for c, m, o in zip(prop.cells, masks, out, strict=True)
            if not values[c]
            for v in values_of(m & ~o)
        ]
        if elim:
            yield board.step(
                "constraint",
                "Constraint",
                _params(con, prop, board.n),
                cells=prop.cells,
                eliminations=elim,
            )
