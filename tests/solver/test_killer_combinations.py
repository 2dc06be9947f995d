"""House combinations: every cage crossing a house filled together. Sound at every position
of a solve, exact on small cases, explained in both languages, and what finishes Killers
that the hard techniques leave stuck."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from django.utils import translation

from solver.generation.general import draw_cages
from solver.grid import Grid, Shape
from solver.logic.general import techniques_for, variant_logic_solve
from solver.logic.houses import VBoard
from solver.logic.killer_combinations import _fitting, cage_fillings, house_combinations
from solver.rules.ruleset import Rules
from solver.search.exact import random_solution
from solving.steps import step_localized
from tests.i18n.english import english_words

ROWS = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "killer_steps.jsonl").read_text().splitlines()
    if line.strip()
]


def _stuck_at_hard() -> list[tuple[Rules, Grid, Grid]]:
    """The recorded Killers the techniques up to hard cannot finish, with their solutions."""
    out = []
    for row in ROWS:
        shape = Shape.for_size(row["size"])
        rules = Rules.from_dict(row["rules"], shape)
        puzzle = Grid(shape, tuple(int(ch) for ch in row["puzzle"]))
        if variant_logic_solve(rules, puzzle, max_level="hard", explain=False).solved:
            continue
        full = variant_logic_solve(rules, puzzle, explain=False)
        if full.solved:
            out.append((rules, puzzle, full.grid))
    return out


def test_a_cages_fillings_are_every_way_to_make_its_sum_with_its_candidates():
    every = 0b111111111
    assert sorted(cage_fillings((every, every), 4)) == [(1, 3), (3, 1)]
    assert sorted(cage_fillings((0b1, every, every), 10)) == [
        (1, 2, 7),
        (1, 3, 6),
        (1, 4, 5),
        (1, 5, 4),
        (1, 6, 3),
        (1, 7, 2),
    ]
    assert cage_fillings((every, every), 18) == ()  # 9 + 9 repeats a value


def test_only_the_choices_that_fill_the_house_once_are_kept():
    # three pieces over values 1-3: {1}, {1 or 2}, {2 or 3} -> only 1, 2, 3 fits
    kept = _fitting([[0b001], [0b001, 0b010], [0b010, 0b100]], 0b111)
    assert kept == [{0b001}, {0b010}, {0b100}]
    assert _fitting([[0b001], [0b001]], 0b011) == [set(), set()]


def test_every_step_is_true_of_the_solution_at_every_position_of_a_solve():
    found: Counter = Counter()
    for seed in range(3):
        rng = random.Random(seed)
        solution = random_solution(Shape.for_size(9), rng)
        cages = draw_cages(solution, rng, (2, 3, 3, 4, 5), ones=True)
        rules = Rules.make(9, cages=cages)
        board = VBoard.from_grid(rules, Grid.empty(rules.shape))
        order = techniques_for(rules)
        while not board.is_solved():
            for step in house_combinations(board):
                sol = solution.cells
                assert all(sol[c] != v for c, v in step.eliminations), step.sentence
                assert step.sentence and step.units
                found[seed] += 1
            step = next((s for t in order for s in t.find(board)), None)
            if step is None or not board.apply(step):
                break
    assert sum(found.values()) > 20, found


def test_it_finishes_killers_the_hard_techniques_leave_stuck_and_is_their_hardest_step():
    stuck = _stuck_at_hard()
    assert stuck, "the recorded Killers include some past hard"
    finished_by_it = 0
    for rules, puzzle, solution in stuck:
        result = variant_logic_solve(rules, puzzle)
        assert result.solved and result.grid == solution
        for step in result.steps:
            assert all(solution.cells[c] != v for c, v in step.eliminations), step.sentence
        used = {s.technique for s in result.steps}
        finished_by_it += "house_combination" in used and result.hardest == "house_combination"
        assert result.level == "expert"
    assert finished_by_it * 2 > len(stuck)  # the hardest step of most of them


def test_the_step_reads_in_chinese_with_no_english_left():
    rules, puzzle, _ = _stuck_at_hard()[0]
    step = next(
        s for s in variant_logic_solve(rules, puzzle).steps if s.technique == "house_combination"
    )
    english = step_localized(step.to_dict())
    assert english["name"] == "House Combinations"
    assert "cross it" in english["sentence"]
    with translation.override("zh-hans"):
        chinese = step_localized(step.to_dict())
    assert english_words(chinese["sentence"]) == [], chinese["sentence"]
    assert english_words(chinese["name"]) == [], chinese["name"]
