"""Which technique a placement needed: the logic engine's step machinery, aimed at one cell.

:func:`easiest_placement` answers "could a player have known that ``value`` goes in
``cell`` on this board, and with what?". It starts from the board as it stands (placed
values only, no player notes):

1. the singles that place the value in that cell directly (full house, naked single, hidden
   single, in the engine's order);
2. failing those, the singles elsewhere taken as far as they go: when they get there, the
   single that places the value is the answer. A player who fills an easy puzzle in reading
   order knows each value from singles further on; without this step, the harder
   techniques' eliminations alone reached the cell first, and the replay named a Naked Quad
   as the hardest step of an easy puzzle;
3. failing those, from the board as it stood, the engine's harder techniques are allowed
   one more at a time, in the engine's order, each time taking the board as far as the
   allowed ones go (their eliminations, and the rare placement a technique such as BUG+1
   makes; no singles elsewhere); the answer is the technique whose arrival lets a single
   place the value (a naked pair and then a hidden single is a naked pair);
4. None when no technique the engine knows gets there (a guess), when the value is not a
   candidate of the cell, or when the round budget runs out.

Pure and bounded: ``max_rounds`` caps the harder-technique rounds. The same steps serve
any rules (:func:`placement_technique`, called by :mod:`solver.logic.engines` with a variant's
board, houses and techniques).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.grid import Grid
from solver.logic.techniques import ORDER, SINGLES
from solver.logic.techniques.base import Board, Step

__all__ = ["easiest_placement", "placement_technique", "single_for"]

_SINGLES = tuple(t for t in ORDER if t.slug in SINGLES)
_HARDER = tuple(t for t in ORDER if t.slug not in SINGLES)
MAX_ROUNDS = 200


def single_for(
    board: Any, cell: int, value: int, houses: Sequence[Sequence[int]] | None = None
) -> str | None:
    """The easiest single placing ``value`` in ``cell`` on ``board`` now, else None.

    ``houses``: the cells of each house of ``cell`` (default: its row, column and box);
    any board with ``values`` and ``cand`` will do (a variant's too)."""
    bit = 1 << (value - 1)
    cand, values = board.cand, board.values
    if values[cell] or not cand[cell] & bit:
        return None
    if houses is None:
        t = board.t
        houses = [t.units[u] for u in t.cell_units[cell]]
    for house in houses:
        if all(values[c] or c == cell for c in house) and cand[cell] == bit:
            return "full_house"
    if cand[cell] == bit:
        return "naked_single"
    for house in houses:
        if not any(cand[c] & bit for c in house if c != cell):
            return "hidden_single"
    return None


def _by_singles(
    board: Any,
    cell: int,
    value: int,
    houses: Sequence[Sequence[int]],
    singles: Sequence[Any],
    max_rounds: int,
) -> str | None:
    """The single that places ``value`` in ``cell`` once singles elsewhere have been
    taken as far as they go on ``board`` (changed in place), else None."""
    bit = 1 << (value - 1)
    for _ in range(max_rounds):
        if not board.cand[cell] & bit:
            return None
        step = next((s for tech in singles if (s := _first_change(board, tech))), None)
        if step is None:
            return None
        if (cell, value) in step.placements:
            return step.technique
        if not board.apply(step):
            return None
        found = single_for(board, cell, value, houses)
        if found is not None:
            return found
    return None


def _first_change(board: Any, tech: Any) -> Step | None:
    """The first step of ``tech`` that changes the board (places or eliminates)."""
    cand, values = board.cand, board.values
    for step in tech.find(board):
        if any(not values[c] for c, _ in step.placements) or any(
            cand[c] & (1 << (v - 1)) for c, v in step.eliminations
        ):
            return step
    return None


def easiest_placement(
    grid: Grid, cell: int, value: int, *, max_rounds: int = MAX_ROUNDS
) -> str | None:
    """The slug of the easiest technique that places ``value`` in ``cell`` from ``grid``.

    ``grid`` holds the givens and the values placed so far (each assumed right); None
    means no technique up to the hardest the engine knows places it (see the module
    docstring).
    """
    board = Board.from_grid(grid)
    if board is None or not 0 <= cell < grid.shape.ncells or grid.cells[cell]:
        return None
    t = board.t
    houses = [t.units[u] for u in t.cell_units[cell]]
    return placement_technique(
        board,
        cell,
        value,
        houses=houses,
        singles=_SINGLES,
        harder=_HARDER,
        max_rounds=max_rounds,
    )


def placement_technique(
    board: Any,
    cell: int,
    value: int,
    *,
    houses: Sequence[Sequence[int]],
    singles: Sequence[Any],
    harder: Sequence[Any],
    max_rounds: int = MAX_ROUNDS,
) -> str | None:
    """:func:`easiest_placement` on any engine's board (changed in place): ``houses`` are
    the cells of ``cell``'s houses, ``singles`` and ``harder`` the engine's singles and the
    techniques past them, in its order (:mod:`solver.logic.engines`)."""
    found = single_for(board, cell, value, houses)
    if found is None:
        found = _by_singles(board.copy(), cell, value, houses, singles, max_rounds)
    if found is not None:
        return found
    bit = 1 << (value - 1)
    rounds = 0
    # Allow one more technique at a time, in the engine's order, and take the board as far
    # as the techniques allowed so far go (eliminations only keep holding when another
    # technique is allowed): the technique whose arrival lets a single place the value is
    # the easiest that does.
    for top, newest in enumerate(harder):
        allowed = harder[: top + 1]
        while True:
            if not board.cand[cell] & bit:
                return None  # ruled out: the value is wrong here, or the board is broken
            step = None
            for tech in allowed:
                step = _first_change(board, tech)
                if step is not None:
                    break
            if step is None:
                break
            rounds += 1
            if rounds > max_rounds:
                return None
            if (cell, value) in step.placements:
                return newest.slug
            if not board.apply(step):
                return None
            if single_for(board, cell, value, houses) is not None:
                return newest.slug
    return None
