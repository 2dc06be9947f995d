"""Every generated variant puzzle lands at the level asked, measured on hundreds per level.

``data/level_corpus/`` holds the generator's puzzles for seeds 0..N-1 of each (variant,
size, level) it offers (:mod:`bench.level_corpus` writes them; making them takes minutes,
grading them seconds). Each is graded again here by the bank's grader, counted by the
exact engine and, below master, solved by the logic with every step explained; the first
seeds are made again, so a changed generator fails here until the corpus is rewritten.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from bench.level_corpus import (
    COMMAND,
    COUNTS,
    Case,
    all_cases,
    case_name,
    case_path,
    decoded,
    puzzle_record,
    read_case,
    regenerate_hint,
)
from solver.generation.general_dig import solutions_past_the_logic
from solver.grid import Grid
from solver.logic.general import variant_logic_solve
from solver.logic.grade import Grade
from solver.logic.techniques.base import Step
from solver.logic.variant_grade import variant_grade, variant_grade_of
from solver.rules.checks import is_variant_solution
from solver.rules.ruleset import Rules
from solver.search.exact import count_solutions

EXPECTED_MISSING: set[Case] = set()
"""Cases the corpus may lack (see :data:`bench.level_corpus.NOT_YET`): none."""
COUNTED_IN_PART = {("killer", 9, "hard"): 10, ("killer", 9, "expert"): 10}
"""Cases whose puzzles the exact engine counts only for the first seeds: a 9x9 Killer
without givens takes it 0.7 s on average (up to several seconds) against milliseconds
for the rest. Their other puzzles are proved to have one solution by the logic, which
finishes them with no technique that assumes one (the uniqueness techniques are not used
on variants), ending on the stored solution."""
COUNTED_FROM_THE_LOGIC = {("killer", 9, "master")}
"""Cases whose puzzles the exact engine counts from the board where every technique
stalls (:func:`solver.generation.general_dig.solutions_past_the_logic`), as the generator
proves them: 0.15 s a 9x9 master Killer, where from the empty grid it takes up to 20 s."""
GRADED_TWICE = 10
"""Seeds of each case graded by :func:`variant_grade` beside the explained solve."""
REGENERATED = 2
"""Seeds of each case made again and compared with the stored puzzles."""

STORED = [case for case in all_cases() if case_path(case).exists()]


@cache
def puzzles(case: Case) -> list[tuple[int, Rules, Grid, Grid]]:
    """The stored puzzles of ``case``: (seed, rules, givens, solution), failed seeds left out."""
    return [(r["seed"], *decoded(r)) for r in read_case(case) if not r.get("failed")]


def by_case(test: Any) -> Any:
    return pytest.mark.parametrize("case", STORED, ids=case_name)(test)


def test_every_level_the_generator_offers_is_in_the_corpus():
    missing = {case for case in all_cases() if not case_path(case).exists()}
    unexpected = sorted(missing - EXPECTED_MISSING)
    assert not unexpected, [regenerate_hint(case) for case in unexpected]
    made = sorted(EXPECTED_MISSING - missing)
    assert not made, f"{made} are in the corpus now: take them out of EXPECTED_MISSING"


@by_case
def test_a_case_holds_every_seed_of_its_size_with_few_failures(case):
    records = read_case(case)
    assert [r["seed"] for r in records] == list(range(COUNTS[case[1]]))
    assert all((r["variant"], r["size"], r["level"]) == case for r in records)
    failed = [r["seed"] for r in records if r.get("failed")]
    assert len(failed) <= len(records) // 20, f"seeds that made no puzzle: {failed}"


def grade_and_steps(rules: Rules, puzzle: Grid, asked: str, seed: int) -> tuple[Grade, list[Step]]:
    """The bank's grade of ``puzzle`` and, when asked below master, the explained steps.

    Asked at master, :func:`variant_grade` grades it. Below, the grade is the same
    function's on the explained solve (the bank's grade passes ``explain=False``, which
    only leaves the sentences out), so one solve serves both; on the first seeds of each
    case :func:`variant_grade` is asked too and must agree."""
    if asked == "master":
        return variant_grade(rules, puzzle), []
    result = variant_logic_solve(rules, puzzle, explain=True)
    grade = variant_grade_of(result)
    if seed < GRADED_TWICE:
        assert variant_grade(rules, puzzle) == grade, seed
    return grade, result.steps


@by_case
def test_every_puzzle_regrades_at_its_asked_level_and_below_master_the_logic_explains_it(case):
    level = case[2]
    wrong, unfinished, unsound = [], [], []
    for seed, rules, puzzle, solution in puzzles(case):
        grade, steps = grade_and_steps(rules, puzzle, level, seed)
        if grade.level != level:
            wrong.append((seed, grade.level))
        if level != "master" and not grade.solved_by_logic:
            unfinished.append(seed)
        sol = solution.cells
        unsound += [
            (seed, step.sentence)
            for step in steps
            if not step.sentence
            or any(sol[c] != v for c, v in step.placements)
            or any(sol[c] == v for c, v in step.eliminations)
        ]
    assert not wrong, f"(seed, grade) not at {level}: {wrong}"
    assert not unfinished, f"seeds the logic does not finish: {unfinished}"
    assert not unsound, f"steps unexplained or unsound: {unsound[:5]}"


@by_case
def test_every_stored_puzzle_obeys_its_rules_and_has_one_solution(case):
    counted = COUNTED_IN_PART.get(case)
    bad = []
    for seed, rules, puzzle, solution in puzzles(case):
        if rules.variant != case[0]:
            bad.append((seed, f"a {rules.variant} puzzle"))
        elif not is_variant_solution(rules, puzzle, solution):
            bad.append((seed, "the solution breaks the rules or the givens"))
        elif case in COUNTED_FROM_THE_LOGIC:
            if solutions_past_the_logic(rules, puzzle) != [solution]:
                bad.append((seed, "not one solution"))
        elif (counted is None or seed < counted) and count_solutions(
            puzzle, limit=2, rules=rules
        ) != 1:
            bad.append((seed, "not one solution"))
    assert not bad


@pytest.mark.parametrize("case", [c for c in STORED if c[0] == "killer"], ids=case_name)
def test_stored_killers_have_no_givens_from_hard_and_no_one_cell_cage_from_medium(case):
    level = case[2]
    for seed, rules, puzzle, _ in puzzles(case):
        if level not in ("easy", "medium"):
            assert puzzle.clues == 0, seed
        if level != "easy":
            assert all(len(cage.cells) > 1 for cage in rules.cages), seed


@by_case
def test_the_corpus_is_what_the_generator_makes_now(case):
    stored = read_case(case)[:REGENERATED]
    made = [puzzle_record(case, seed) for seed in range(REGENERATED)]
    assert made == stored, (
        f"the generator changed: regenerate the corpus with {COMMAND} "
        f"(this case alone: {regenerate_hint(case)})"
    )
