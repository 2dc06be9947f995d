"""The analysis of a finished game: what each placement needed, where the time went.

Pure: works on the puzzle's lines and the event log as plain data (see
:mod:`replays.timeline`), imports nothing of Django, so the worker task, the benchmark and
the tests call the same function.

The puzzle's rules choose the logic engine (:func:`solver.logic.engines.engine_for`): the
classic one for boxes and nothing else, the variant one (its houses and cages, its
techniques such as cage combinations and the 45 rule) for Diagonal, Jigsaw and Killer. The
analysis reads the engine's answers only, so every variant gets the same fields.

For each value the player placed (a ``value`` event with a value that changed the board):
whether it was right; for a right one, the easiest technique that would have placed it from
the board as it stood (:func:`solver.logic.placement.easiest_placement`; the player's wrong
entries are left out of that board, since no deduction starts from them), or None when no
technique gets there: a guess; and the thinking time before it, in game time, since the
previous placement (the player's or a hint's).

The summary: the hardest technique used, the three longest stalls with the technique the
engine would have used at the start of each (``solver.logic.classic.next_step``; ``search`` when no
technique applies), guesses, mistakes, hints, and the share of thinking time per technique
level (plus ``guess`` and ``mistake``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solver.grid import SYMBOLS, Grid, Shape, cell_name
from solver.logic.engines import LogicEngine, engine_for
from solver.rules.ruleset import Rules

from .timeline import EMPTY, Position

VERSION = 1
STALLS = 3
GUESS = "guess"
MISTAKE = "mistake"


def _value(sym: str) -> int:
    return 0 if sym == EMPTY else SYMBOLS.index(sym) + 1


def _values(entries: Sequence[str], solution: str) -> tuple[int, ...]:
    """The board's values, the entries that disagree with the solution left out."""
    return tuple(_value(e) if e == s else 0 for e, s in zip(entries, solution, strict=True))


def technique_info(slug: str | None, engine: LogicEngine | None = None) -> dict[str, Any] | None:
    """Slug, name and level of a technique under ``engine`` (default: the classic one;
    level None for one outside its table)."""
    if slug is None:
        return None
    return (engine or engine_for(Shape(3, 3))).info(slug)


def _available(
    engine: LogicEngine, givens: Sequence[int], entries: str, solution: str
) -> str | None:
    """The technique the logic engine would use first from this board (None if solved)."""
    return engine.next_technique(
        givens, _values(entries, solution), Grid(engine.shape, _values(solution, solution))
    )


def analyse(
    *,
    givens: str,
    solution: str,
    box_rows: int,
    box_cols: int,
    events: Sequence[Mapping[str, Any]],
    hints_used: int = 0,
    rules: Rules | None = None,
) -> dict[str, Any]:
    """The analysis of one game (JSON-ready) from its puzzle and its ordered event log;
    ``rules`` for a variant puzzle (None: the classic rules of the box shape)."""
    shape = Shape(box_rows, box_cols)
    engine = engine_for(shape if rules is None else rules)
    givens_values = tuple(_value(g) for g in givens)
    position = Position.start(givens)
    placements: list[dict[str, Any]] = []
    # Where the current stretch of thinking began: its game time and the board then.
    mark_ms, mark_entries = 0, givens
    hints_applied = 0
    for event in events:
        kind = event["kind"]
        changes = event.get("changes") or {}
        elapsed = int(event.get("elapsed_ms") or 0)
        cell, value = event.get("cell"), int(event.get("value") or 0)
        placed = (
            kind == "value"
            and value
            and cell is not None
            and any(c == cell for c, _, _ in changes.get("entries", ()))
        )
        if placed:
            correct = solution[cell] == SYMBOLS[value - 1]
            slug = None
            if correct:
                slug = engine.easiest_placement(_values(position.entries, solution), cell, value)
            placements.append(
                {
                    "seq": event.get("seq"),
                    "cell": cell,
                    "cell_name": cell_name(shape, cell),
                    "value": value,
                    "correct": correct,
                    "technique": technique_info(slug, engine),
                    "deducible": slug is not None,
                    "elapsed_ms": elapsed,
                    "thinking_ms": max(0, elapsed - mark_ms),
                    "_mark_entries": mark_entries,
                }
            )
        position.apply(changes)
        if kind == "hint":
            hints_applied += 1
        if placed or kind == "hint":
            mark_ms, mark_entries = elapsed, position.line
    return _summarise(placements, engine, givens_values, solution, hints_used, hints_applied)


def _summarise(
    placements: list[dict[str, Any]],
    engine: LogicEngine,
    givens: Sequence[int],
    solution: str,
    hints_used: int,
    hints_applied: int,
) -> dict[str, Any]:
    used = [p["technique"]["slug"] for p in placements if p["technique"]]
    hardest = max((s for s in used if engine.known(s)), key=engine.rank, default=None)
    by_level: dict[str, int] = dict.fromkeys((*engine.levels, GUESS, MISTAKE), 0)
    for p in placements:
        if not p["correct"]:
            key = MISTAKE
        elif p["technique"] is None or p["technique"]["level"] is None:
            key = GUESS
        else:
            key = p["technique"]["level"]
        by_level[key] += p["thinking_ms"]
    total = sum(by_level.values())
    longest = sorted(
        (p for p in placements if p["thinking_ms"] > 0),
        key=lambda p: (-p["thinking_ms"], p["seq"] or 0),
    )[:STALLS]
    stalls = [
        {
            "seq": p["seq"],
            "cell_name": p["cell_name"],
            "thinking_ms": p["thinking_ms"],
            "from_ms": p["elapsed_ms"] - p["thinking_ms"],
            "to_ms": p["elapsed_ms"],
            "available": technique_info(
                _available(engine, givens, p["_mark_entries"], solution), engine
            ),
        }
        for p in longest
    ]
    for p in placements:
        del p["_mark_entries"]
    return {
        "version": VERSION,
        "placements": placements,
        "summary": {
            "placements": len(placements),
            "hardest": technique_info(hardest, engine),
            "stalls": stalls,
            "guesses": sum(1 for p in placements if p["correct"] and not p["deducible"]),
            "mistakes": sum(1 for p in placements if not p["correct"]),
            "hints": hints_used,
            "hints_applied": hints_applied,
            "thinking_ms": total,
            "time_by_level": [
                {"level": level, "ms": ms, "share": round(ms / total, 3) if total else 0.0}
                for level, ms in by_level.items()
            ],
        },
    }
