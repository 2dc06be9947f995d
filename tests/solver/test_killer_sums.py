"""Killer's techniques past the first 45 rule (solver.logic.killer_sums): sound at every
position of a solve, explained in both languages, and what makes Killers finish by logic."""

from __future__ import annotations

import gc
import random
from collections import Counter
from functools import partial

import pytest
from django.utils import translation

from solver.generation.general import draw_cages
from solver.grid import Grid, Shape
from solver.logic.general import techniques_for
from solver.logic.houses import VBoard
from solver.logic.killer_sums import (
    _every_way,
    _support,
    cage_splits,
    hidden_cages,
    innies_outies_large,
    killer_subsets,
    known_sums,
)
from solver.rules.ruleset import Rules
from solver.search.exact import random_solution
from solving.steps import step_localized
from tests.i18n.english import english_words

FINDERS = {
    "innies_outies_large": innies_outies_large,
    "cage_split": cage_splits,
    "hidden_cage": hidden_cages,
    "killer_pair": partial(killer_subsets, k=2),
    "killer_triple": partial(killer_subsets, k=3),
}


def _cages_over(seed: int) -> tuple[Rules, Grid]:
    rng = random.Random(seed)
    solution = random_solution(Shape.for_size(9), rng)
    cages = draw_cages(solution, rng, (2, 3, 3, 4, 5), ones=True)
    assert cages is not None
    return Rules.make(9, cages=cages), solution


def _walk(rules: Rules, solution: Grid, found: Counter, steps: dict) -> None:
    """Every step of every new finder at every position of a solve from no givens (many
    solutions, but a sound step keeps every one) is true of ``solution``."""
    sol = solution.cells
    board = VBoard.from_grid(rules, Grid.empty(rules.shape))
    assert board is not None
    order = techniques_for(rules)
    while not board.is_solved():
        for slug, find in FINDERS.items():
            for step in find(board):
                assert all(sol[c] == v for c, v in step.placements), step.sentence
                assert all(sol[c] != v for c, v in step.eliminations), step.sentence
                assert step.sentence and step.technique == slug
                found[slug] += 1
                steps.setdefault(slug, step)
        step = next((s for t in order for s in t.find(board)), None)
        if step is None or not board.apply(step):
            break


def test_every_new_killer_step_is_true_and_each_kind_turns_up():
    found: Counter = Counter()
    steps: dict = {}
    for seed in range(2):
        rules, solution = _cages_over(seed)
        _walk(rules, solution, found, steps)
    assert sum(found.values()) > 50
    assert {"innies_outies_large", "cage_split", "killer_pair"} <= set(found), found


def test_known_sums_are_true_of_the_solution():
    for seed in range(3):
        rules, solution = _cages_over(seed)
        sums = known_sums(rules)
        assert {k.kind for k in sums} >= {"innies", "outies", "split"}
        for known in sums:
            assert sum(solution.cells[c] for c in known.cells) == known.total, known


@pytest.mark.parametrize("slug", ["innies_outies_large", "cage_split", "killer_pair"])
def test_each_new_killer_step_reads_in_chinese_with_no_english_left(slug):
    found: Counter = Counter()
    steps: dict = {}
    for seed in range(6):
        rules, solution = _cages_over(seed)
        _walk(rules, solution, found, steps)
        if slug in steps:
            break
    step = step_localized(steps[slug].to_dict())
    with translation.override("zh-hans"):
        chinese = step_localized(steps[slug].to_dict())
    assert step["sentence"] and step["name"] != slug
    assert english_words(chinese["sentence"]) == [], chinese["sentence"]
    assert english_words(chinese["name"]) == [], chinese["name"]


def test_a_sum_over_cells_that_may_repeat_keeps_only_the_values_some_way_gives():
    # two pairs of cells that see each other, the pairs apart: 1-3 in every cell
    masks, seeing = (0b111,) * 4, (0b0010, 0b0001, 0b1000, 0b0100)
    # 8: every value has a way (1+3+1+3, 2+1+2+3, ...), though four different values
    # from three cannot make it: no step, shown without the full search
    assert _every_way(masks, 8, seeing, (0, 0, 0, 0))
    assert _support(masks, 8, seeing) == masks
    # 6: only 1+2 in each pair, so 3 leaves every cell, found by the full search
    assert not _every_way(masks, 6, seeing, (0, 0, 0, 0))
    assert _support(masks, 6, seeing) == (0b011,) * 4


def test_grading_a_killer_leaves_no_reference_cycles_for_the_collector():
    """The Killer searches' recursive helpers are freed when they return: a generator
    grades hundreds of cage sets a puzzle, and cycles left to the collector cost its
    sweeps (about 5% of 9x9 expert generation time)."""
    from solver.logic.general import variant_logic_solve

    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for seed in range(3):
            rules, _ = _cages_over(seed)
            variant_logic_solve(rules, Grid.empty(rules.shape), explain=False)
        assert gc.collect() == 0
    finally:
        if was_enabled:
            gc.enable()
