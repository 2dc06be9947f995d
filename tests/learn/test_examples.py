"""Every lesson example is a real step of the engine on a real board, and it is sound."""

from __future__ import annotations

import pytest

from learn.examples import examples, position_before
from solver import parse, solve
from solver.logic.classic import run
from solver.logic.techniques import BY_SLUG, ORDER
from solver.logic.techniques.base import Board, values_of

EXAMPLES = {slug: ex for slug, ex in examples().items() if "variant" not in ex}
"""The classic engine's examples (tests/learn/test_variant_examples.py has the others)."""


def test_every_technique_has_an_example() -> None:
    assert set(EXAMPLES) == {t.slug for t in ORDER}


@pytest.mark.parametrize("slug", sorted(EXAMPLES))
def test_the_example_is_the_engines_own_step_on_its_board(slug: str) -> None:
    ex = EXAMPLES[slug]
    grid = parse(ex["givens"], box_rows=ex["box_rows"], box_cols=ex["box_cols"])
    board = Board.from_grid(grid)
    assert board is not None
    steps, _ = run(board)
    assert steps[ex["index"]].technique == slug
    assert steps[ex["index"]].to_dict() == ex["step"]
    position = position_before(grid, steps, ex["index"])
    assert [values_of(m) for m in position.cand] == ex["candidates"]
    # The technique itself finds the step on that position.
    found = [s.to_dict() for s in BY_SLUG[slug].find(position)]
    assert ex["step"] in found


@pytest.mark.parametrize("slug", sorted(EXAMPLES))
def test_the_example_keeps_the_solution(slug: str) -> None:
    ex = EXAMPLES[slug]
    grid = parse(ex["givens"], box_rows=ex["box_rows"], box_cols=ex["box_cols"])
    solution = solve(grid)
    assert solution is not None
    step = ex["step"]
    assert step["eliminations"] or step["placements"]
    for e in step["eliminations"]:
        assert solution.cells[e["cell"]] != e["value"]
        assert e["value"] in ex["candidates"][e["cell"]]
    for p in step["placements"]:
        assert solution.cells[p["cell"]] == p["value"]


def test_every_technique_has_a_lesson_text_of_its_own() -> None:
    from learn.lessons import FALLBACK, lesson_text

    assert [t.slug for t in ORDER if lesson_text(t.slug) == FALLBACK] == []
