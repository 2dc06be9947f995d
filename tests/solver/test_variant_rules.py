"""The rules object of the variants, and both exact engines under it, against brute force."""

import itertools
import random

import pytest

from solver import Grid, Shape
from solver.rules.checks import is_variant_solution
from solver.rules.ruleset import Cage, Rules, RulesError, layout
from solver.search.dlx import dlx_count, dlx_solutions
from solver.search.exact import count_solutions, random_solution, solutions

SHAPE = Shape(2, 2)
# Every variant keeps rows and columns, so the 576 Latin squares hold every solution.
ALL_4X4 = [
    tuple(v for row in rows for v in row)
    for rows in itertools.product(itertools.permutations((1, 2, 3, 4)), repeat=4)
    if all(len({row[c] for row in rows}) == 4 for c in range(4))
]
JIGSAW_4 = (0, 0, 0, 1, 2, 0, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3)
RULES_4 = [
    Rules.make(4, diagonals=True),
    Rules.make(4, regions=JIGSAW_4),
    Rules.make(4, cages=[((0, 1), 3), ((2, 3), 7), ((12, 13), None), ((5, 9), 5)]),
    Rules.make(4, cages=[((0, 4), 5), ((1, 2), 5), ((10, 11, 15), 7)], diagonals=True),
    Rules.make(4, regions=JIGSAW_4, cages=[((0, 1, 2), 6)]),
]


def brute_count(rules: Rules, cells: list[int]) -> int:
    """Solutions by trying every grid of rows that are permutations (no engine involved)."""
    puzzle = Grid(SHAPE, tuple(cells))
    return sum(
        all(c in (0, g[i]) for i, c in enumerate(cells))
        and is_variant_solution(rules, puzzle, Grid(SHAPE, g))
        for g in ALL_4X4
    )


@pytest.mark.parametrize("rules", RULES_4, ids=lambda r: r.variant)
def test_both_engines_count_every_4x4_variant_as_brute_force_does(rules):
    rng = random.Random(rules.variant)
    empty = [0] * 16
    assert count_solutions(Grid(SHAPE, tuple(empty)), limit=1000, rules=rules) == brute_count(
        rules, empty
    )
    for _ in range(40):
        grid = rng.choice(ALL_4X4)
        cells = [v if rng.random() < 0.3 else 0 for v in grid]
        expected = brute_count(rules, cells)
        puzzle = Grid(SHAPE, tuple(cells))
        assert count_solutions(puzzle, limit=1000, rules=rules) == expected
        assert dlx_count(puzzle, limit=1000, rules=rules) == expected


@pytest.mark.parametrize("rules", RULES_4, ids=lambda r: r.variant)
def test_every_solution_both_engines_find_obeys_the_rules(rules):
    empty = Grid.empty(SHAPE)
    ours = solutions(empty, limit=1000, rules=rules)
    theirs = dlx_solutions(empty, limit=1000, rules=rules)
    assert sorted(g.cells for g in ours) == sorted(g.cells for g in theirs)
    assert all(is_variant_solution(rules, empty, g) for g in ours)


def test_brute_force_knows_the_576_latin_squares_of_4x4():
    assert len(ALL_4X4) == 576


def test_a_4x4_diagonal_grid_count_is_a_sixth_of_the_classic():
    # 288 classic grids; the two diagonals keep 48 (checked by brute force above too).
    assert count_solutions(Grid.empty(SHAPE), limit=1000, rules=Rules.make(4, diagonals=True)) == 48


@pytest.mark.parametrize("size", [6, 9])
@pytest.mark.parametrize("diagonals", [False, True])
def test_random_solutions_obey_diagonals(size, diagonals):
    rules = Rules.make(size, diagonals=diagonals)
    rng = random.Random(size)
    for _ in range(20):
        grid = random_solution(rules.shape, rng, rules=rules)
        assert is_variant_solution(rules, Grid.empty(rules.shape), grid)


def test_classic_rules_take_the_classic_path():
    assert Rules.classic(9).is_classic
    assert Rules.classic(9).variant == "classic"
    assert not Rules.make(9, diagonals=True).is_classic


def test_variant_names_follow_the_rules():
    assert Rules.make(9, diagonals=True).variant == "diagonal"
    assert Rules.make(4, regions=JIGSAW_4).variant == "jigsaw"
    assert Rules.make(4, cages=[((0, 1), 3)]).variant == "killer"


def test_rules_round_trip_through_the_api_dict():
    for rules in RULES_4:
        data = rules.to_dict()
        assert set(data) >= {"variant", "regions", "diagonals", "cages"}
        assert len(data["regions"]) == 16
        assert Rules.from_dict(data) == rules


def test_layout_names_the_houses_and_lists_cage_mates_as_peers():
    rules = Rules.make(4, diagonals=True, cages=[((0, 6), 3)])
    lay = layout(rules)
    assert lay.names[12] == "diagonal 1"
    assert lay.unit_ids[12:] == (12, 13)
    assert lay.houses[12] == (0, 5, 10, 15)
    assert lay.houses[13] == (12, 9, 6, 3)
    assert 6 in lay.peers[0]
    assert lay.combos[0] == (0b11,)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"size": 4, "regions": [0] * 16}, "region 1 has 16 cells"),
        ({"size": 4, "regions": [0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 0, 1, 3, 2, 1, 0]}, "not connected"),
        ({"size": 4, "regions": [0] * 15}, "15 region numbers"),
        ({"size": 4, "regions": [9] * 16}, "region number must be 0 to 3"),
        ({"size": 4, "cages": [{"cells": [0, 1], "sum": 3}, {"cells": [1, 2]}]}, "overlap"),
        ({"size": 4, "cages": [{"cells": [0, 1], "sum": 8}]}, "cannot add up to 8"),
        ({"size": 4, "cages": [{"cells": [0, 99], "sum": 3}]}, "not a cell"),
        ({"size": 4, "cages": [{"cells": [], "sum": 3}]}, "no cells"),
        ({"size": 4, "cages": [{"cells": [0, 1, 2, 3, 4], "sum": 10}]}, "at most 4"),
        ({"size": 4, "cages": [{"cells": "01", "sum": 3}]}, "list of cell indexes"),
        ({"size": 4, "cages": [{"cells": [0, True], "sum": 3}]}, "cell indexes"),
        ({"size": 4, "cages": [{"cells": [0, 1], "sum": "3"}]}, "whole number"),
        ({"size": 4, "cages": [{"cells": [0, 0], "sum": 3}]}, "twice"),
        ({"size": 4, "diagonals": "yes"}, "true or false"),
        ({"size": 7}, "size 7"),
        ({"size": "9"}, "whole number"),
        ({"size": 4, "cages": [{"cells": [0]}] * 700}, "at most"),
        ("nope", "must be an object"),
    ],
)
def test_bad_rules_are_refused_with_a_clear_message(data, message):
    with pytest.raises(RulesError, match=message):
        Rules.from_dict(data)


def test_a_cage_without_a_sum_only_forbids_repeats():
    rules = Rules.make(4, cages=[Cage((0, 5), None)])
    # r1c1 and r2c2 share a box: the cage adds nothing, so all 288 grids remain.
    assert count_solutions(Grid.empty(SHAPE), limit=1000, rules=rules) == 288


def test_windoku_windows_are_houses_too():
    rules = Rules.make(9, windows=True, diagonals=True)
    grid = random_solution(rules.shape, random.Random(9), rules=rules)
    assert is_variant_solution(rules, Grid.empty(rules.shape), grid)
    assert layout(rules).names[-1] == "window 4"
    puzzle = grid.with_cells([v if i % 3 else 0 for i, v in enumerate(grid.cells)])
    assert count_solutions(puzzle, limit=5, rules=rules) == dlx_count(puzzle, limit=5, rules=rules)
