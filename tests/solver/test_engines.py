"""One face for the classic and the variant logic (solver.logic.engines): which engine judges a
puzzle, and that the variant engine's answers are sound against the solution."""

from __future__ import annotations

import pytest

from solver import Rules, Shape, parse, solve
from solver.generation.general import generate_variant
from solver.logic.engines import ClassicEngine, VariantEngine, engine_for
from solver.logic.general import BY_SLUG
from solver.logic.placement import easiest_placement
from tests.replays.factories import ANALYSED

NINE = Shape(3, 3)


def test_boxes_and_nothing_else_get_the_classic_engine():
    assert isinstance(engine_for(NINE), ClassicEngine)
    assert isinstance(engine_for(Rules.classic(NINE)), ClassicEngine)
    assert isinstance(engine_for(Rules.make(NINE, diagonals=True)), VariantEngine)
    assert engine_for(Rules.make(NINE, diagonals=True)) is engine_for(
        Rules.make(NINE, diagonals=True)
    )


def test_the_classic_engine_answers_as_the_classic_placement_does():
    grid = parse(ANALYSED)
    solution = solve(grid)
    engine = engine_for(NINE)
    for cell in (2, 78, 4):
        value = solution.cells[cell]
        assert engine.easiest_placement(grid.cells, cell, value) == easiest_placement(
            grid, cell, value
        )
    assert engine.easiest_placement(grid.cells, 2, 5) == "hidden_single"


@pytest.mark.parametrize(
    ("variant", "size", "level"),
    [
        ("killer", 9, "medium"),
        ("killer", 6, "easy"),
        ("jigsaw", 9, "hard"),
        ("diagonal", 6, "easy"),
    ],
)
def test_the_variant_engine_never_places_a_wrong_value(variant, size, level):
    made = generate_variant(variant, size, level=level, seed=f"engines:{variant}:{size}")
    engine = engine_for(made.rules)
    givens, solution = made.puzzle.cells, made.solution.cells
    found = 0
    empty = [c for c, v in enumerate(givens) if not v]
    # Every third empty cell of a 9x9 (each tried with every value): the engine's answer for
    # a cell depends on the position, not on which cells the test visits.
    for cell in empty[:: 3 if size == 9 else 1]:
        right = engine.easiest_placement(givens, cell, solution[cell])
        assert right is None or right in BY_SLUG
        found += right is not None
        for wrong in range(1, size + 1):
            if wrong != solution[cell]:
                assert engine.easiest_placement(givens, cell, wrong) is None
    assert found
    path = engine.path(givens, 3000)
    assert path and len(set(path)) == len(path)
    assert not any(givens[c] for c in path)


def test_the_variant_engines_next_technique_and_copies():
    made = generate_variant("killer", 6, level="easy", seed="engines:next")
    engine = engine_for(made.rules)
    givens = made.puzzle.cells
    first = engine.next_technique(givens, givens, made.solution)
    assert first in BY_SLUG
    assert engine.next_technique(givens, made.solution.cells, made.solution) is None
    board = engine.board(givens)
    copied = engine.copy(board)
    cell = next(c for c, v in enumerate(givens) if not v)
    assert copied.place(cell, made.solution.cells[cell])
    assert board.values[cell] == 0 and copied.values[cell] == made.solution.cells[cell]
