"""The grader: levels and scores from the logic engine's steps, ordered like human ratings."""

from __future__ import annotations

import importlib
import re
from collections import Counter
from itertools import pairwise

import pytest

from bench import spearman
from solver.grid import BudgetExceeded, parse
from solver.logic.classic import MultipleSolutions, NoSolution, Step, logic_solve
from solver.logic.grade import (
    LEVELS,
    RATINGS,
    TECHNIQUES,
    Grade,
    grade,
    grade_of_steps,
    length_bonus,
    path_score,
    path_step,
    step_score,
)
from solver.logic.techniques import ORDER

from .datasets import load, load_rated

QQWING = ("qqwing_simple", "qqwing_easy", "qqwing_intermediate", "qqwing_expert")


def grades(name: str, count: int, stride: int = 1) -> list[Grade]:
    return [grade(parse(puzzle)) for puzzle in load(name)[::stride][:count]]


def test_qqwing_levels_get_harder_from_simple_to_expert():
    """Share graded easy falls and the mean score rises across QQWing's four levels."""
    easy_share, mean_score = [], []
    for name in QQWING:
        sample = grades(name, 200)
        easy_share.append(sum(g.level == "easy" for g in sample) / len(sample))
        mean_score.append(sum(g.score for g in sample) / len(sample))
    assert all(a >= b for a, b in pairwise(easy_share)), easy_share
    assert easy_share[0] > easy_share[-1]
    assert all(a < b for a, b in pairwise(mean_score)), mean_score


def test_score_follows_se_ratings_on_the_held_out_file():
    """A regression guard: the score was chosen on se_rated_diabolical only, so its rank
    correlation with SE on a quarter of the other file (0.88 on the whole of it, see
    docs/grading.md) stays above this floor."""
    rated = load_rated("se_rated_diabolical_b")[::4]
    se = [rating for _, rating in rated]
    scores = [float(grade(parse(puzzle)).score) for puzzle, _ in rated]
    assert spearman(scores, se) > 0.84


def test_level_is_the_hardest_technique_and_score_that_of_the_steps():
    checked = 0
    for puzzle in [parse(line) for line in load("qqwing_expert")[:40]]:
        result = logic_solve(puzzle)
        g = grade(puzzle)
        assert g.solved_by_logic == result.solved
        if not result.solved:
            continue
        checked += 1
        assert g.hardest == result.hardest
        assert g.level == TECHNIQUES[g.hardest][1]
        assert g.score == path_score([path_step(s) for s in result.steps])
        assert g.techniques == dict(Counter(s.technique for s in result.steps))
    assert checked >= 30  # the sums were compared on most of the sample, not skipped


def test_puzzle_the_logic_cannot_finish_is_master():
    for g in grades("forum_hardest_1106", 5):
        assert g.level == "master"
        assert g.hardest == "search"
        assert not g.solved_by_logic
        assert g.techniques["search"] >= 1


def test_master_puzzles_score_above_the_others():
    others = grades("qqwing_expert", 60)
    masters = grades("forum_hardest_1106", 5)
    top = max(g.score for g in others if g.level != "master")
    assert min(g.score for g in masters) > top


def test_chains_score_more_when_longer():
    def chain(technique: str, length: int) -> Step:
        return Step(technique, "", "", cells=tuple(range(length)), eliminations=((80, 1),))

    for technique in ("xy_chain", "alternating_chain"):
        assert step_score(chain(technique, 6)) > step_score(chain(technique, 4))
        assert step_score(chain(technique, 3)) == TECHNIQUES[technique][2]


def test_levels_run_from_easy_to_master_in_the_order_techniques_are_tried():
    assert LEVELS == ("easy", "medium", "hard", "expert", "master")
    order = [LEVELS.index(t.level) for t in ORDER]
    assert order == sorted(order)
    assert TECHNIQUES["search"][1] == "master"


def test_docstring_table_matches_the_techniques():
    # the package exports the function grade, so fetch the module itself by name
    doc = importlib.import_module("solver.logic.grade").__doc__ or ""
    rows = re.findall(
        r"^([a-z_0-9]+) {2,}(.+?) {2,}(easy|medium|hard|expert|master) +(\d+)", doc, re.M
    )
    table = {slug: (name.strip(), level, int(score)) for slug, name, level, score in rows}
    assert table == TECHNIQUES


def test_grading_is_deterministic():
    puzzle = parse(load("se_rated_diabolical")[7].split()[0])
    assert grade(puzzle) == grade(puzzle)


def test_small_and_large_grids_are_graded():
    small = grade(parse(load("gen_4x4_unique")[0]))
    assert small.level == "easy" and small.solved_by_logic and small.score > 0
    large = grade(parse(load("gen_16x16_unique")[0]))
    assert large.level in LEVELS and large.score > small.score


def test_clashing_givens_cannot_be_graded():
    with pytest.raises(NoSolution):
        grade(parse("11" + "." * 79))


def test_budget_caps_grading():
    with pytest.raises(BudgetExceeded):
        grade(parse(load("forum_hardest_1106")[0]), budget=5)


def test_grade_of_steps_equals_grade_for_puzzles_logic_finishes():
    compared = 0
    for text in load("qqwing_intermediate")[:20] + load("qqwing_expert")[:20]:
        result = logic_solve(parse(text))
        if result.solved:
            assert grade_of_steps(result.steps) == grade(parse(text))
            compared += 1
    assert compared >= 20


def test_grade_refuses_a_nearly_empty_25x25_with_many_solutions_at_once():
    from solver.grid import Grid, Shape

    grid = Grid(Shape(5, 5), (1, 2, 3) + (0,) * 622)
    with pytest.raises(MultipleSolutions):
        grade(grid)


def test_grade_refuses_puzzles_with_two_solutions():
    for line in load("serg_multisolution_1000")[:20]:
        with pytest.raises(MultipleSolutions):
            grade(parse(line))


def test_grade_refuses_a_grid_with_no_solution():
    # consistent givens, but r1c9 can hold nothing: 1..8 in its row, 9 in its column
    with pytest.raises(NoSolution):
        grade(parse("12345678." + "........9" + "." * 63))


def test_budget_error_names_the_budget_that_was_given():
    puzzle = parse(load("forum_hardest_1106")[0])
    for budget in (194, 1000):
        with pytest.raises(BudgetExceeded, match=rf"\b{budget}\b"):
            grade(puzzle, budget=budget)


def test_grade_with_the_known_solution_skips_the_search_and_agrees():
    from solver.search.exact import solve

    puzzle = parse(load("qqwing_expert")[3])
    assert grade(puzzle, solution=solve(puzzle)) == grade(puzzle)


def test_every_technique_has_a_rating_on_se_scale_rising_with_its_level():
    assert set(RATINGS) == set(TECHNIQUES)
    assert all(1.0 <= r <= 10.0 for r in RATINGS.values())
    assert RATINGS["search"] == max(RATINGS.values())


def test_length_bonus_follows_se_ceilings():
    # ceilings 4, 6, 8, 12, 16...: 0.1 for each one passed
    assert [length_bonus(n, 4) for n in (4, 5, 6, 7, 8, 9, 12, 13)] == [
        0.0,
        0.1,
        0.1,
        0.2,
        0.2,
        0.3,
        0.3,
        0.4,
    ]


def test_score_weighs_the_hardest_step_then_the_effort():
    easy_long = [("hidden_single", 1, 1.5)] * 50 + [("pointing", 4, 2.6)] * 5
    one_chain = [("hidden_single", 1, 1.5)] * 5 + [("xy_chain", 4, 6.8)]
    assert path_score(one_chain) > path_score(easy_long)
    assert path_score([*one_chain, ("naked_pair", 4, 3.0)]) > path_score(one_chain)
