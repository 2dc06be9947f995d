"""The next hint step of a game under a variant's rules, from the engine's variant logic.

The same order as the classic hint (play.hints): wrong values on the board first, then the
easiest technique from the values and the eliminations earlier hints applied (never the
player's notes). The variant logic (``solver.logic.general``) reads the puzzle's houses and
cages; only the wrong-value step comes from the classic engine, which judges entries
against the solution alone (so it is given no givens, whose houses it would misread).

Where no technique applies (a puzzle beyond the engine's logic), the hint is a ``search``
step, as the classic's last resort: the solution's value in the open cell with the fewest
candidates. So a hint is never refused while the board is unsolved, and every one is true.
"""

from __future__ import annotations

from typing import Any

from puzzles.models import Puzzle
from puzzles.variants import rules_of
from solver import Grid
from solver.logic.classic import next_step
from solver.logic.general import techniques_for
from solver.logic.houses import VBoard
from solver.logic.techniques.base import Step


def variant_hint_step(
    *,
    puzzle: Puzzle,
    entries: Grid,
    eliminations: dict[int, set[int]],
    prefer: str | None = None,
) -> dict[str, Any] | None:
    """The step dict a hint reveals, or None when the board is solved.

    ``prefer`` (a practice game's technique) is looked for first, as the classic hint does."""
    solution = puzzle.solution_grid()
    if any(v and v != s for v, s in zip(entries.cells, solution.cells, strict=True)):
        step = next_step(Grid.empty(entries.shape), entries, solution=solution)
        return None if step is None else step.to_dict()
    rules = rules_of(puzzle)
    board = VBoard.from_grid(rules, entries)
    if board is None or board.is_solved():
        return None
    # The values applied hints eliminated (true in the solution), never the player's notes.
    for cell, values in eliminations.items():
        for value in values:
            board.cand[cell] &= ~(1 << (value - 1))
    order = techniques_for(rules)
    order = (*(t for t in order if t.slug == prefer), *(t for t in order if t.slug != prefer))
    for technique in order:
        step = next(technique.find(board), None)
        if step is not None:
            return step.to_dict()
    return _search_step(board, solution).to_dict()


def _search_step(board: VBoard, solution: Grid) -> Step:
    """The solution's value in the open cell with the fewest candidates left."""
    cand = board.cand
    open_cells = [c for c, v in enumerate(board.values) if not v]
    cell = min(open_cells, key=lambda c: (cand[c].bit_count(), c))
    value = solution.cells[cell]
    return board.step(
        "search",
        "Search",
        {"variant": "solution", "cell": cell, "value": value},
        cells=(cell,),
        placements=((cell, value),),
    )
