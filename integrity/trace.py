"""One game's trace for the evidence across games (pure: no Django).

For each right placement of a game, from the position just before it (right values only,
plus the eliminations the logic engine made on the way, as it carries them):

- ``gap``: the game-clock time since the previous right placement (or the start): the
  thinking, note-taking and mistakes that led to this placement;
- ``effort``: how hard the step was to find. With ``k`` cells placeable by a single among
  ``empty`` empty cells, a scan finds one after about ``empty / k`` looks; when no single is
  left, the harder techniques the engine needed first multiply that by
  ``1 + score / EFFORT_SCALE`` (their summed scores, ``solver.logic.techniques.ORDER``);
- ``options``: ``k``, how many cells a single could place (1: the move was forced);
- ``engine``: whether the cell is the logic engine's next placement from that position, or
  the next cell of the engine's own path through the puzzle from its givens (a script may
  follow either).

``game_trace`` computes it in one pass over the events, carrying one board forward (a
placement is one ``Board.place``; the board is rebuilt only when a right value is erased),
so a 9x9 game costs a few milliseconds. ``integrity.player_signals`` reads the traces of a
player's recent games.

The engine is the puzzle's (:func:`solver.logic.engines.engine_for`): a variant game is traced
with the variant logic (its houses, cages and techniques; Killer's own techniques weigh
``solver.logic.engines.VARIANT_SCORES``), so its trace joins the evidence like a classic one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from solver import Shape
from solver.logic.engines import LogicEngine, engine_for
from solver.logic.techniques import ORDER, SINGLES

from .signals import Event

EFFORT_SCALE = 20
"""A technique of this score (a naked triple is 25, a pointing 60, a chain 400) doubles
the effort of the step it is needed for."""

PASS_LIMIT = 60
"""Harder steps the engine may take looking for one placement; past it the step's effort
is unknown (None) and its engine placement too."""

GAME_PASS_LIMIT = 300
"""Harder steps for a whole game: once used up, positions without a single are not
judged (their effort is None), so a big grid's trace stays bounded."""

TRACE_LIMIT = 120
"""Right placements traced per game at most (a 9x9 has at most 64; the rest of a bigger
game is not traced, so the cost stays bounded)."""

PATH_BUDGET = 3000
"""Technique passes for the engine's own path through the puzzle (``logic_solve``)."""

_SINGLES = tuple(t for t in ORDER if t.slug in SINGLES)
HARDER = tuple(t for t in ORDER if t.slug not in SINGLES)


@dataclass(frozen=True, slots=True)
class Step:
    """What the engine sees from one position: its next cell, the cells a single places,
    and the effort."""

    engine_cell: int | None
    options: int
    effort: float | None
    passes: int = 0  # harder steps taken


def single_cells(board: Any, engine: LogicEngine | None = None) -> tuple[int | None, set[int]]:
    """The engine's first single (full house, then naked, then hidden), and every cell any
    single places."""
    first: int | None = None
    cells: set[int] = set()
    for tech in _SINGLES if engine is None else engine.singles:
        for step in tech.find(board):
            cell = step.placements[0][0]
            if first is None:
                first = cell
            cells.add(cell)
    return first, cells


def position_step(board: Any, limit: int = PASS_LIMIT, engine: LogicEngine | None = None) -> Step:
    """The engine's view of ``board`` (which it may change: the eliminations it needs),
    taking at most ``limit`` harder steps; ``engine``: the board's (default classic)."""
    engine = engine or engine_for(board.shape)
    empty = board.values.count(0)
    score = 0
    for passes in range(limit + 1):
        first, cells = single_cells(board, engine)
        if cells:
            effort = empty / len(cells) * (1 + score / EFFORT_SCALE)
            return Step(first, len(cells), round(effort, 2), passes)
        if passes == limit:
            break
        step = next((s for tech in engine.harder for s in tech.find(board)), None)
        if step is None:
            break
        score += engine.score(step.technique)
        if step.placements:
            effort = empty * (1 + score / EFFORT_SCALE)
            return Step(step.placements[0][0], 1, round(effort, 2), passes + 1)
        board.apply(step)
    return Step(None, 0, None, limit)


def engine_path(
    shape: Shape, givens: Sequence[int], engine: LogicEngine | None = None
) -> list[int]:
    """The cells in the order the logic engine places them from the givens (as far as it
    gets within ``PATH_BUDGET``)."""
    return (engine or engine_for(shape)).path(givens, PATH_BUDGET)


def game_trace(
    events: Iterable[Event],
    *,
    shape: Shape,
    givens: Sequence[int],
    solution: Sequence[int],
    engine: LogicEngine | None = None,
) -> dict[str, list[Any]]:
    """The trace of one game (module docstring), JSON-ready: parallel lists ``gaps`` (ms),
    ``efforts`` (None: unknown), ``options`` and ``engine`` (1 or 0). ``engine``: the
    puzzle's rules' logic engine (default the classic one of ``shape``)."""
    engine = engine or engine_for(shape)
    values = list(givens)
    known = [v if v == solution[c] else 0 for c, v in enumerate(values)]
    board = engine.board(known)
    path = engine_path(shape, givens, engine)
    path_at = 0
    trace: dict[str, list[Any]] = {"gaps": [], "efforts": [], "options": [], "engine": []}
    mark = 0
    passes_left = GAME_PASS_LIMIT
    for event in events:
        right = (
            event.placement
            and event.correct
            and event.cell is not None
            and not known[event.cell]
            and board is not None
            and len(trace["gaps"]) < TRACE_LIMIT
        )
        if right:
            assert board is not None and event.cell is not None
            seen = position_step(board, min(PASS_LIMIT, passes_left), engine)
            passes_left -= seen.passes
            while path_at < len(path) and known[path[path_at]]:
                path_at += 1
            path_next = path[path_at] if path_at < len(path) else None
            trace["gaps"].append(max(0, event.clock_ms - mark))
            trace["efforts"].append(seen.effort)
            trace["options"].append(seen.options)
            trace["engine"].append(int(event.cell in (seen.engine_cell, path_next)))
            mark = max(mark, event.clock_ms)
        erased = False
        for cell, value in event.entries:
            values[cell] = value
            now = value if value == solution[cell] else 0
            if now == known[cell]:
                continue
            if now and board is not None and board.place(cell, now):
                known[cell] = now
            else:
                known[cell] = now
                erased = True
        if erased:
            board = engine.board(known)
    return trace
