"""The constraint lessons' examples: a real step of the variant engine on a puzzle with
that constraint, stored like the other lessons' (:mod:`learn.examples`) with the puzzle's
rules (``constraints`` in the API's shape) so the page draws them.

The puzzle is :func:`solver.generation.constrained.make_constrained`'s for the lesson's
drawn kind and a fixed seed (the first of a few seeds whose solution uses the step), so the
same seed gives the same example. Of the steps with the lesson's sentence, the example is
the one that removes the most candidates (the earliest on a tie): the first use often
takes out a single candidate, which shows little.

Anti-knight, anti-king and extra regions make peers, not steps: their example is a single
the engine places (the first whose cell was narrowed by the new peers, else the first whose
placement clears them), shown as the step of placing it and clearing the value from the
peers a row, column and box would not reach, as the board's own placement does
(:meth:`solver.logic.houses.VBoard.place`). The single's own step comes with it
(``single``), so the page can say why the cell takes that value.
"""

from __future__ import annotations

from typing import Any

from learn.constraint_lessons import LESSONS, ConstraintLesson
from learn.examples import example_entry
from puzzles.variants import rules_json
from solver import Shape
from solver.generation.constrained import make_constrained
from solver.grid import Grid
from solver.logic.general import SINGLES, variant_logic_solve
from solver.logic.houses import VBoard
from solver.logic.techniques.base import Step
from solver.rules.ruleset import Rules, layout

SEEDS = 6
"""Seeds tried per lesson before it is left without an example."""
BUDGET = 20_000
"""The generator's search budget: its time limit (0.5 ms a node, 10 s) is then out of reach
on a busy machine too, so the node count alone decides the puzzle and the example is the
same on every run (at the default 1 s a sandwich search under load ran out of time)."""


def constraint_examples(seed: int = 1) -> dict[str, dict[str, Any]]:
    """Lesson slug -> its example, for every lesson a puzzle of a few seeds gives one."""
    found: dict[str, dict[str, Any]] = {}
    for lesson in LESSONS:
        for k in range(SEEDS):
            made = make_constrained(lesson.drawn, Shape(3, 3), seed * 100 + k, budget=BUDGET)
            if made is None:
                continue
            example = lesson_example(lesson, made.rules, made.puzzle)
            if example is not None:
                found[lesson.slug] = example
                break
    return found


def lesson_example(lesson: ConstraintLesson, rules: Rules, grid: Grid) -> dict[str, Any] | None:
    """``lesson``'s example on ``grid`` under ``rules``; None when its solution shows none."""
    steps = variant_logic_solve(rules, grid).steps
    board = VBoard.from_grid(rules, grid)
    assert board is not None
    # (index, position, the step shown, the single it places: a peers lesson's)
    picked: tuple[int, VBoard, Step, Step | None] | None = None
    fallback: tuple[int, VBoard, Step, Step | None] | None = None
    for index, step in enumerate(steps):
        if lesson.peers:
            shown = peer_step(board, step)
            if shown is not None and shown[1] and picked is None:
                picked = (index, board.copy(), shown[0], step)
            elif shown is not None and fallback is None:
                fallback = (index, board.copy(), shown[0], step)
        elif _variant(step) in lesson.steps and (
            picked is None or len(step.eliminations) > len(picked[2].eliminations)
        ):
            picked = (index, board.copy(), step, None)
        board.apply(step)
    picked = picked or fallback
    if picked is None:
        return None
    index, position, step, single = picked
    entry = example_entry(lesson.slug, grid, rules_json(rules), index, position, step)
    return entry | ({"single": single.to_dict()} if single is not None else {})


def _variant(step: Step) -> str | None:
    if step.technique != "constraint":
        return None
    return dict(step.params).get("variant")


def peer_step(board: VBoard, step: Step) -> tuple[Step, bool] | None:
    """A single's placement on ``board`` as the step of clearing its value from the peers
    the constraints add, and whether those peers had narrowed its cell; None for any
    other step, or a single that clears nothing beyond its houses."""
    if step.technique not in SINGLES or not step.placements:
        return None
    cell, value = step.placements[0]
    extra = extra_peers(board.rules, cell)
    bit = 1 << (value - 1)
    cleared = [(c, value) for c in extra if not board.values[c] and board.cand[c] & bit]
    if not cleared:
        return None
    kind = next(con.kind for con in board.rules.constraints)
    shown = board.step(
        "constraint",
        "Constraint",
        {"variant": kind, "cell": cell, "value": value},
        cells=(cell, *extra),
        placements=[(cell, value)],
        eliminations=cleared,
    )
    plain = set(layout(Rules.classic(board.rules.shape)).peers[cell])
    seen = {board.values[c] for c in plain} | {0}
    return shown, any(board.values[c] not in seen for c in extra)


def extra_peers(rules: Rules, cell: int) -> list[int]:
    """The peers of ``cell`` that its row, column and box do not give it."""
    plain = set(layout(Rules.classic(rules.shape)).peers[cell])
    return [c for c in layout(rules).peers[cell] if c not in plain]
