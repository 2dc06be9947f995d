"""Lesson examples: one real step of the engine on a real board for each technique.

An example is the position the logic engine reached on a puzzle just before it first used
the technique (values and candidates), and that step (its units, pattern cells, placements
and eliminations). ``python manage.py build_lessons`` makes them from practice puzzles
(:func:`solver.generation.practice.generate_requiring`, so the same seed gives the same examples)
and, for techniques the generator does not reach, from puzzle files it is given; they are
shipped in ``learn/data/examples.json`` so a lesson page costs no solving.

A variant technique's example (:func:`examples_from_variant_puzzle`) also carries the
puzzle's rules as the API gives them (``variant``, ``regions``, ``diagonals``, ``cages``),
so the page draws the cages; its puzzle comes from
:func:`solver.generation.general_practice.generate_variant_requiring`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from puzzles.variants import rules_json
from solver import Grid, Shape, format_line
from solver.logic.classic import run
from solver.logic.general import variant_logic_solve
from solver.logic.houses import VBoard
from solver.logic.techniques import ORDER
from solver.logic.techniques.base import Board, Step, values_of
from solver.rules.ruleset import Rules

EXAMPLES_FILE = Path(__file__).resolve().parent / "data" / "examples.json"


def examples_from_puzzle(grid: Grid, wanted: set[str]) -> dict[str, dict[str, Any]]:
    """For each technique of ``wanted`` that the engine's solution of ``grid`` uses: the
    position before its first use, and that step."""
    board = Board.from_grid(grid)
    if board is None:
        return {}
    steps, _ = run(board, ORDER)
    return _first_uses(grid, steps, wanted, lambda i: position_before(grid, steps, i), {})


def _first_uses(
    grid: Grid,
    steps: list[Step],
    wanted: set[str],
    position_at: Callable[[int], Board | VBoard],
    rules: dict[str, Any],
) -> dict[str, dict[str, Any]]:
    """The example of each technique of ``wanted`` at its first step in ``steps``."""
    found: dict[str, dict[str, Any]] = {}
    for index, step in enumerate(steps):
        slug = step.technique
        if slug not in wanted or slug in found:
            continue
        found[slug] = example_entry(slug, grid, rules, index, position_at(index), step)
    return found


def example_entry(
    slug: str, grid: Grid, rules: dict[str, Any], index: int, position: Any, step: Any
) -> dict[str, Any]:
    """A lesson's example as stored: the puzzle, the position before ``step`` (its
    ``index``-th) with its candidates, and the step."""
    return {
        "technique": slug,
        "size": grid.shape.size,
        "box_rows": grid.shape.box_rows,
        "box_cols": grid.shape.box_cols,
        **rules,
        "givens": format_line(grid),
        "index": index,
        "values": format_line(position.grid()),
        "candidates": [values_of(m) for m in position.cand],
        "step": step.to_dict(),
    }


def position_before(grid: Grid, steps: list[Any], index: int) -> Board:
    """The board after the first ``index`` steps of ``steps`` on ``grid``."""
    board = Board.from_grid(grid)
    assert board is not None
    for step in steps[:index]:
        board.apply(step)
    return board


def examples_from_variant_puzzle(
    rules: Rules, grid: Grid, wanted: set[str]
) -> dict[str, dict[str, Any]]:
    """:func:`examples_from_puzzle` under ``rules``, by the variant logic engine."""
    steps = variant_logic_solve(rules, grid).steps
    return _first_uses(
        grid, steps, wanted, lambda i: variant_position_before(rules, grid, steps, i),
        rules_json(rules),
    )  # fmt: skip


def variant_position_before(rules: Rules, grid: Grid, steps: list[Step], index: int) -> VBoard:
    """The variant board after the first ``index`` steps of ``steps`` on ``grid``."""
    board = VBoard.from_grid(rules, grid)
    assert board is not None
    for step in steps[:index]:
        board.apply(step)
    return board


def example_rules(example: dict[str, Any]) -> Rules | None:
    """The rules of a variant example (None for a classic one)."""
    if example.get("variant", "classic") == "classic":
        return None
    shape = Shape(example["box_rows"], example["box_cols"])
    return Rules.make(
        shape,
        regions=example["regions"],
        diagonals=example["diagonals"],
        cages=[(c["cells"], c["sum"]) for c in example["cages"]],
    )


def examples_dump(found: dict[str, dict[str, Any]]) -> str:
    """The examples file's text: one technique per line, so a change diffs by technique."""
    lines = [
        f"{json.dumps(slug)}: {json.dumps(ex, separators=(',', ':'))}" for slug, ex in found.items()
    ]
    return "{\n" + ",\n".join(lines) + "\n}\n"


@cache
def examples(path: Path = EXAMPLES_FILE) -> dict[str, dict[str, Any]]:
    """Technique slug -> its example, from the shipped file (read once)."""
    if not path.exists():
        return {}
    return json.loads(path.read_text())


def example_of(slug: str) -> dict[str, Any] | None:
    return examples().get(slug)
