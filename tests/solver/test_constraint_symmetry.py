"""Constraints follow the grid: a puzzle moved by a symmetry of the square with
``Constraint.moved``, or relabelled where ``complemented`` and ``any_labels`` allow it, is
still a unique puzzle, and its solution is the original's moved or relabelled alike. A
renaming the rules did not allow would break this, and two puzzles would share a key."""

from __future__ import annotations

import random

import pytest

from solver.generation.constrained import DRAWN, make_constrained
from solver.grid import Grid, Shape
from solver.rules.constraints import (
    KINDS,
    LittleKiller,
    RegionSumLine,
    Sandwich,
    Thermometer,
    Whispers,
)
from solver.rules.ruleset import Rules
from solver.rules.symmetry import Move, square_moves
from solver.search.exact import solutions

KINDS_MADE = (*DRAWN, "mix")


def _made(kind: str, size: int):
    made = make_constrained(kind, Shape.for_size(size), seed=3)
    assert made is not None
    return made


def _moved(grid: Grid, move: Move) -> Grid:
    cells = [0] * len(grid.cells)
    for cell, v in enumerate(grid.cells):
        cells[move.cell(cell)] = v
    return grid.with_cells(cells)


def _relabelled(grid: Grid, label) -> Grid:
    return grid.with_cells([label(v) if v else 0 for v in grid.cells])


def _only_solution(grid: Grid, rules: Rules) -> Grid:
    found = solutions(grid, limit=2, rules=rules)
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize("kind", KINDS_MADE)
def test_a_puzzle_moved_with_its_constraints_solves_to_the_moved_solution(kind):
    made = _made(kind, 6)
    for move in square_moves(6):
        regions = [0] * 36
        for cell, region in enumerate(made.rules.regions):
            regions[move.cell(cell)] = region
        rules = Rules.make(
            made.rules.shape,
            regions=regions,
            constraints=[c.moved(move) for c in made.rules.constraints],
        )
        found = _only_solution(_moved(made.puzzle, move), rules)
        assert found == _moved(made.solution, move)


SLOW_AT_NINE = ("nonconsecutive", "little_killer", "sandwich")


@pytest.mark.parametrize(
    "kind, size",
    [(k, 6) for k in KINDS_MADE] + [(k, 9) for k in KINDS_MADE if k not in SLOW_AT_NINE],
)
def test_a_complement_the_constraints_allow_is_the_same_puzzle_relabelled(kind, size):
    made = _made(kind, size)
    flipped = [c.complemented(made.rules) for c in made.rules.constraints]
    if any(c is None for c in flipped):
        return  # no complement: the key does not try one
    rules = Rules.make(made.rules.shape, constraints=flipped)
    label = lambda d: size + 1 - d  # noqa: E731
    found = _only_solution(_relabelled(made.puzzle, label), rules)
    assert found == _relabelled(made.solution, label)


@pytest.mark.parametrize("kind", KINDS_MADE)
def test_constraints_blind_to_labels_hold_under_any_renaming(kind):
    made = _made(kind, 6)
    if not all(c.any_labels for c in made.rules.constraints):
        return
    names = list(range(1, 7))
    random.Random(kind).shuffle(names)
    label = lambda d: names[d - 1]  # noqa: E731
    found = _only_solution(_relabelled(made.puzzle, label), made.rules)
    assert found == _relabelled(made.solution, label)


def test_every_constraint_type_says_how_it_moves():
    made = {type(c) for kind in KINDS_MADE for c in _made(kind, 6).rules.constraints}
    assert made == set(KINDS.values())


def test_which_types_allow_the_complement():
    """Only where the rule reads the same on N + 1 - d: an arrow's sum, a sandwich's (how
    many cells lie between the 1 and the N is the solution's) and a ratio do not."""
    allowed = {
        kind
        for kind in KINDS_MADE
        if all(c.complemented(_made(kind, 6).rules) for c in _made(kind, 6).rules.constraints)
    }
    assert {"thermometer", "whispers", "renban", "palindrome", "between", "parity"} <= allowed
    assert {"little_killer", "nonconsecutive", "antiknight", "extra_region"} <= allowed
    assert not {"arrow", "sandwich", "kropki_negative", "xv_negative", "xv"} & allowed


def test_a_thermometer_complemented_turns_round():
    rules = Rules.classic(6)
    assert Thermometer((0, 1, 2)).complemented(rules) == Thermometer((2, 1, 0))


def test_a_region_sum_line_has_a_complement_only_with_as_many_cells_in_each_box():
    rules = Rules.classic(6)  # boxes of 2 rows by 3 columns
    assert RegionSumLine((1, 2, 3, 4)).complemented(rules) is not None  # 2 and 2
    assert RegionSumLine((2, 3, 4)).complemented(rules) is None  # 1 and 2


def test_a_little_killer_clue_turns_with_the_grid():
    clue = LittleKiller.make(6, -1, 0, "DR", 12)  # above r1c1, down the long diagonal
    quarter, _, _, mirror = square_moves(6)[1:5]
    turned = clue.moved(quarter)  # (r, c) -> (c, 5 - r): above the grid becomes right of it
    assert (turned.clue, turned.direction) == ((0, 6), "DL")
    assert turned.diagonal == tuple(quarter.cell(c) for c in clue.diagonal)
    mirrored = clue.moved(mirror)  # (r, c) -> (r, 5 - c)
    assert (mirrored.clue, mirrored.direction) == ((-1, 5), "DL")


def test_a_sandwich_row_clue_becomes_a_column_clue_when_transposed():
    transposed = square_moves(6)[6]
    assert Sandwich("row", 1, 9).moved(transposed) == Sandwich("column", 1, 9)
    upside_down = square_moves(6)[5]
    assert Sandwich("row", 1, 9).moved(upside_down) == Sandwich("row", 4, 9)
    assert Sandwich("column", 1, 9).moved(upside_down) == Sandwich("column", 1, 9)


def test_whispers_with_the_default_difference_written_out_read_as_the_default():
    same = square_moves(9)[0]
    assert Whispers((0, 1), 5).moved(same) == Whispers((0, 1)).moved(same)
    assert Whispers((0, 1), 4).moved(same) != Whispers((0, 1)).moved(same)
    assert Whispers((1, 0)).moved(same) == Whispers((0, 1))
