"""Which technique a placement needed: the logic engine's step machinery, aimed at one cell.

:func:`easiest_placement` answers "could a player have known that ``value`` goes in
``cell`` on this board, and with what?". It looks at the board as it stands (placed values
only: no player notes, no placements elsewhere first):

1. the singles that place the value in that cell directly (full house, naked single, hidden
   single, in the engine's order);
2. failing those, the engine's harder techniques, easiest first, each applied for its
   eliminations only, until a single places the value in the cell; the answer is then the
   hardest technique used on the way (a naked pair and then a hidden single is a naked
   pair);
3. None when no technique the engine knows gets there (a guess), when the value is not a
   candidate of the cell, or when the round budget runs out.

Pure and bounded: ``max_rounds`` caps the harder-technique rounds.
"""

from __future__ import annotations

from solver.grid import Grid
from solver.logic import hardest_of
from solver.techniques import ORDER, SINGLES
from solver.techniques.base import Board, Step

__all__ = ["easiest_placement", "single_for"]

_HARDER = tuple(t for t in ORDER if t.slug not in SINGLES)
MAX_ROUNDS = 40


def single_for(board: Board, cell: int, value: int) -> str | None:
    """The easiest single placing ``value`` in ``cell`` on ``board`` now, else None."""
    bit = 1 << (value - 1)
    cand, values, t = board.cand, board.values, board.t
    if values[cell] or not cand[cell] & bit:
        return None
    units = t.cell_units[cell]
    for u in units:
        if all(values[c] or c == cell for c in t.units[u]) and cand[cell] == bit:
            return "full_house"
    if cand[cell] == bit:
        return "naked_single"
    for u in units:
        if not any(cand[c] & bit for c in t.units[u] if c != cell):
            return "hidden_single"
    return None


def _harder_step(board: Board) -> Step | None:
    """The first step of the easiest non-single technique that changes the board."""
    cand, values = board.cand, board.values
    for tech in _HARDER:
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
    steps: list[Step] = []
    for _ in range(max_rounds + 1):
        single = single_for(board, cell, value)
        if single is not None:
            steps.append(board.step(single, single, "", cells=(cell,)))
            return hardest_of(steps)
        if not board.cand[cell] & (1 << (value - 1)):
            return None  # ruled out: the value is not deducible here (or is wrong)
        step = _harder_step(board)
        if step is None:
            return None
        steps.append(step)
        if (cell, value) in step.placements:
            return hardest_of(steps)
        # No singles elsewhere are taken in between: a player placing this cell did not
        # take them first.
        board.apply(step)
    return None
