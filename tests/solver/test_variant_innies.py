"""The 45 rule over houses, runs of lines and groups of neighbouring regions: sound, and
reaching what no single house or run of lines reaches."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from solver.generation.general import draw_cages, generate_variant, random_regions
from solver.grid import Grid, Shape
from solver.logic.general import techniques_for
from solver.logic.houses import VBoard
from solver.logic.innies import house_groups, innies_outies, region_groups
from solver.logic.sentences import render
from solver.rules.ruleset import Rules

# Rows 1-3 of the grid whose row r holds (3r + r//3 + c) mod 9 + 1.
TOP = ((1, 2, 3, 4, 5, 6, 7, 8, 9), (4, 5, 6, 7, 8, 9, 1, 2, 3), (7, 8, 9, 1, 2, 3, 4, 5, 6))
# Cages over boxes 1 and 2 leaving r1c1 out: three of them cross from one box to the other,
# so each box alone leaves too many cells inside, and every row, column or run of them
# holds uncaged cells of other boxes.
TWO_BOX_CAGES = (
    ((0, 1), (0, 2), (0, 3), (1, 3)),
    ((0, 4), (0, 5), (1, 5), (2, 5)),
    ((1, 0), (1, 1), (1, 2), (2, 2), (2, 3)),
    ((2, 0), (2, 1)),
    ((1, 4), (2, 4)),
)


def two_box_rules() -> Rules:
    cages = [
        ([r * 9 + c for r, c in cage], sum(TOP[r][c] for r, c in cage)) for cage in TWO_BOX_CAGES
    ]
    return Rules.make(9, cages=cages)


def test_only_the_two_box_group_places_the_cell_its_cages_leave_out():
    rules = two_box_rules()
    board = VBoard.from_grid(rules, Grid.empty(Shape.for_size(9)))
    assert board is not None
    steps = list(innies_outies(board))
    assert steps, "the 45 rule found nothing"
    first = steps[0]
    assert first.units == (18, 19)
    assert first.placements == ((0, 1),)  # 90 less the cages' 89
    assert first.sentence == (
        "The values in boxes 1 and 2 add up to a fixed total and the cages wholly inside "
        "account for all but r1c1, so r1c1 is 1."
    )
    # every step it finds comes from a group of boxes: no house or run of lines yields
    assert all(len(s.units) > 1 and min(s.units) >= 18 for s in steps)


def test_three_boxes_are_named_as_boxes():
    params = {"variant": "innies", "units": (18, 19, 21), "cells": (0, 1), "count": 9}
    english = render("innies_outies", params, size=9, eliminations=[(0, 9)])
    assert english is not None and english.startswith("The values in boxes 1, 2 and 4 add up")


def test_box_groups_are_the_pairs_and_ls_that_are_no_run_of_lines():
    groups = [hs for hs, _ in house_groups(Rules.classic(9))]
    boxes = [hs for hs in groups if len(hs) > 1 and hs[0] >= 18]
    assert len(boxes) == 12 + 16  # side by side, one above the other; the Ls of a 2x2 block
    assert (18, 19, 20) not in boxes  # the top band: rows 1-3, already there
    assert groups.index((18, 19)) > groups.index((9, 10, 11, 12, 13, 14, 15, 16))
    masks = [mask for _, mask in house_groups(Rules.classic(9))]
    assert len(set(masks)) == len(masks)


def test_a_diagonal_is_a_group_of_its_own():
    diagonal = Rules.make(9, diagonals=True)
    assert ((27,), sum(1 << (i * 10) for i in range(9))) in house_groups(diagonal)


@pytest.mark.parametrize("seed", range(3))
def test_irregular_regions_group_with_every_neighbour(seed):
    shape = Shape.for_size(9)
    regions = random_regions(shape, random.Random(seed))
    n = 9

    sides = {
        frozenset((regions[c], regions[d]))
        for c in range(n * n)
        for d in (c + 1, c + n)
        if d < n * n and (d == c + n or d % n) and regions[c] != regions[d]
    }

    def touch(a: int, b: int) -> bool:
        return frozenset((a, b)) in sides

    pairs = {p for p in combinations(range(n), 2) if touch(*p)}
    threes = {
        t for t in combinations(range(n), 3) if sum(touch(a, b) for a, b in combinations(t, 2)) >= 2
    }
    assert region_groups(n, regions) == [*sorted(pairs), *sorted(threes)]


def check_sound(rules: Rules, puzzle: Grid, solution: Grid) -> tuple[int, int]:
    """Every 45 rule step at every position of the logic's solve is true of the solution:
    (steps checked, of them from groups of regions)."""
    sol = solution.cells
    n = rules.size
    order = techniques_for(rules)
    board = VBoard.from_grid(rules, puzzle)
    assert board is not None
    checked = grouped = 0
    while not board.is_solved():
        for step in innies_outies(board):
            assert all(sol[c] == v for c, v in step.placements), step.sentence
            assert all(sol[c] != v for c, v in step.eliminations), step.sentence
            assert step.sentence
            checked += 1
            grouped += len(step.units) > 1 and min(step.units) >= 2 * n
        found = next((s for t in order for s in t.find(board)), None)
        if found is None or not board.apply(found):
            break
    return checked, grouped


@pytest.mark.parametrize(
    ("size", "level"), [(9, "hard"), (9, "master"), (6, "medium"), (6, "hard")]
)
def test_every_45_rule_step_on_generated_killers_is_sound(size, level):
    checked = grouped = 0
    for i in range(2 if size == 9 else 4):
        made = generate_variant("killer", size, level=level, seed=f"innies:{i}")
        a, b = check_sound(made.rules, made.puzzle, made.solution)
        checked, grouped = checked + a, grouped + b
    assert checked > 20
    assert size == 6 or level == "master" or grouped > 0  # groups of boxes: hard shows them


def test_the_45_rule_is_sound_on_killer_with_irregular_regions():
    checked = grouped = 0
    for seed in range(4):
        jigsaw = generate_variant("jigsaw", 9, level="easy", seed=f"jigsaw killer:{seed}")
        cages = draw_cages(jigsaw.solution, random.Random(seed), (2, 3, 3, 4, 5))
        rules = Rules.make(9, regions=jigsaw.rules.regions, cages=cages)
        # No givens: many solutions, but a sound step keeps every one of them.
        a, b = check_sound(rules, Grid.empty(rules.shape), jigsaw.solution)
        checked, grouped = checked + a, grouped + b
    assert checked > 20 and grouped > 0
