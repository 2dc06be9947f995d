"""Constraints as data: the exact engine counts what a brute force written from the rules
counts, propagation never loses the solution, and the JSON round-trips."""

from __future__ import annotations

import random

import pytest

from solver.generation.constrained import DRAWN, draw_constraints, make_constrained
from solver.grid import BudgetExceeded, Grid, Shape
from solver.rules.checks import is_variant_solution
from solver.rules.constraints import (
    XV,
    Arrow,
    BetweenLine,
    Kropki,
    LittleKiller,
    Palindrome,
    RegionSumLine,
    Renban,
    Sandwich,
    Thermometer,
    Whispers,
)
from solver.rules.ruleset import Rules, RulesError, check_puzzle, layout
from solver.search.exact import count_solutions, solutions
from tests.solver.constraint_oracle import backtrack_count, brute_count, holds, sudoku_grids

FOUR = Shape.for_size(4)
SIX = Shape.for_size(6)
NINE = Shape.for_size(9)
GRIDS_4 = sudoku_grids(4)


def _path(n: int, rng: random.Random, length: int) -> tuple[int, ...]:
    path = [rng.randrange(n * n)]
    while len(path) < length:
        r, k = divmod(path[-1], n)
        steps = [
            (r + dr) * n + k + dk
            for dr in (-1, 0, 1)
            for dk in (-1, 0, 1)
            if 0 <= r + dr < n and 0 <= k + dk < n and (r + dr) * n + k + dk not in path
        ]
        path.append(rng.choice(steps))
    return tuple(path)


def _arbitrary(rng: random.Random, n: int) -> list:
    """A few constraints drawn without a grid: some puzzles have none, some many."""
    pick = rng.randrange(9)
    if pick == 0:
        return [Thermometer(_path(n, rng, 3))]
    if pick == 1:
        return [Whispers(_path(n, rng, 3))]
    if pick == 2:
        return [Renban(_path(n, rng, 3)), Palindrome(_path(n, rng, 3))]
    if pick == 3:
        return [BetweenLine(_path(n, rng, 3))]
    if pick == 4:
        return [RegionSumLine(_path(n, rng, 4))]
    if pick == 5:
        p = _path(n, rng, 3)
        return [Arrow(p[:1], p[1:])]
    if pick == 6:
        k = rng.randrange(n - 1)
        return [LittleKiller.make(n, -1, k, "DR", rng.randrange(1, n * (n - 1 - k) + 1))]
    if pick == 7:
        return [Sandwich(rng.choice(["row", "column"]), rng.randrange(n), rng.choice([0, 2, 3, 5]))]
    c = rng.randrange(n * n - 1)
    if c % n == n - 1:
        c -= 1
    return [
        Kropki(rng.choice(["white", "black"]), (c, c + 1), rng.choice([1, 2])),
        XV((c, c + 1), 5),
    ]


@pytest.mark.parametrize("kind", DRAWN)
def test_exact_counts_of_4x4_drawn_constraints_match_brute_force(kind):
    rng = random.Random(kind)
    for _ in range(6):
        grid = Grid(FOUR, rng.choice(GRIDS_4))
        rules = Rules.make(FOUR, constraints=draw_constraints(kind, grid, rng))
        empty = [0] * 16
        assert count_solutions(Grid.empty(FOUR), limit=1000, rules=rules) == brute_count(
            rules, empty, GRIDS_4
        )
        givens = [v if rng.random() < 0.25 else 0 for v in grid.cells]
        expected = brute_count(rules, givens, GRIDS_4)
        assert count_solutions(Grid(FOUR, tuple(givens)), limit=1000, rules=rules) == expected


def test_exact_counts_of_arbitrary_4x4_mixes_match_brute_force():
    rng = random.Random(4)
    for _ in range(60):
        rules = Rules.make(FOUR, constraints=_arbitrary(rng, 4) + _arbitrary(rng, 4))
        expected = brute_count(rules, [0] * 16, GRIDS_4)
        assert count_solutions(Grid.empty(FOUR), limit=1000, rules=rules) == expected, (
            rules.to_dict()
        )
        for found in solutions(Grid.empty(FOUR), limit=1000, rules=rules):
            assert is_variant_solution(rules, Grid.empty(FOUR), found)


@pytest.mark.parametrize("kind", DRAWN)
def test_6x6_generated_puzzles_are_unique_by_an_independent_backtracker(kind):
    made = make_constrained(kind, SIX, 6)
    assert made is not None
    cons = [c.to_dict() for c in made.rules.constraints]
    assert all(holds(c, cons, made.solution.cells, 6, made.rules.regions) for c in cons)
    assert count_solutions(made.puzzle, rules=made.rules) == 1
    # The backtracker is plain, so it gets a fuller grid: 16 givens, then two taken away.
    rng = random.Random(kind)
    cells = list(made.puzzle.cells)
    for c in rng.sample(range(36), 36):
        if sum(1 for v in cells if v) >= 16:
            break
        cells[c] = made.solution.cells[c]
    assert backtrack_count(made.rules, cells, 2) == 1
    for c in rng.sample([c for c in range(36) if cells[c]], 2):
        cells[c] = 0
    fewer = Grid(SIX, tuple(cells))
    assert count_solutions(fewer, limit=3, rules=made.rules) == backtrack_count(
        made.rules, cells, 3
    )


@pytest.mark.parametrize(
    "kind", ["thermometer", "arrow", "kropki", "antiking", "parity", "xv_negative"]
)
def test_9x9_generated_puzzles_solve_to_their_solution(kind):
    made = make_constrained(kind, NINE, 9)
    assert made is not None
    assert solutions(made.puzzle, limit=2, rules=made.rules) == [made.solution]
    assert is_variant_solution(made.rules, made.puzzle, made.solution)


@pytest.mark.parametrize("kind", DRAWN)
def test_propagators_never_remove_the_solution_value(kind):
    rng = random.Random(kind + "p")
    made = make_constrained(kind, SIX, 3)
    assert made is not None
    sol = made.solution.cells
    for con in made.rules.constraints:
        for prop in con.propagators(made.rules):
            for _ in range(20):
                masks = tuple((1 << (sol[c] - 1)) | rng.randrange(64) for c in prop.cells)
                out = prop(masks)
                assert out is not None
                assert all(m >> (sol[c] - 1) & 1 for m, c in zip(out, prop.cells, strict=False))
                assert all(o & ~m == 0 for o, m in zip(out, masks, strict=False))


@pytest.mark.parametrize("kind", DRAWN)
def test_rules_with_constraints_round_trip_through_json(kind):
    made = make_constrained(kind, SIX, 5)
    assert made is not None
    data = made.rules.to_dict()
    assert Rules.from_dict(data) == made.rules
    assert all(isinstance(c["type"], str) for c in data["constraints"])


def test_thermometer_cells_are_peers_and_the_rules_are_not_classic():
    rules = Rules.make(NINE, constraints=[Thermometer((0, 1, 11, 21))])
    assert not rules.is_classic
    assert 21 in layout(rules).peers[0] and 21 in layout(rules).mates[0]


@pytest.mark.parametrize(
    "data, message",
    [
        ({"type": "thermometer", "cells": [0]}, "thermometer"),
        ({"type": "kropki", "colour": "white", "cells": [0, 2]}, "neighbours"),
        ({"type": "xv", "cells": [0, 1], "sum": 7}, "xv"),
        ({"type": "little_killer", "clue": [0, 0], "direction": "DR", "sum": 5}, "outside"),
        ({"type": "spiral"}, "'spiral' constraint is not offered"),
        ({"type": "sandwich", "line": "row", "index": 0, "sum": 99}, "sandwich"),
    ],
)
def test_bad_constraints_are_refused_by_name(data, message):
    with pytest.raises(RulesError, match=message):
        Rules.from_dict({"size": 9, "constraints": [data]})


def test_repeated_or_endless_constraints_are_refused():
    with pytest.raises(RulesError, match="given twice"):
        Rules.make(FOUR, constraints=[Thermometer((0, 1)), Thermometer((0, 1))])
    lines = [Thermometer((a, b)) for a in range(16) for b in range(16) if a != b]
    with pytest.raises(RulesError, match="at most 128"):
        Rules.make(FOUR, constraints=lines)


def test_givens_that_break_a_constraint_are_refused():
    rules = Rules.make(FOUR, constraints=[Thermometer((0, 1, 2))])
    with pytest.raises(RulesError, match="thermometer"):
        check_puzzle(rules, Grid(FOUR, (3, 2) + (0,) * 14))


def test_an_open_search_answers_budget_exceeded_instead_of_hanging():
    rules = Rules.make(NINE, constraints=[Whispers((0, 1, 2, 3))])
    with pytest.raises(BudgetExceeded):
        count_solutions(Grid.empty(NINE), limit=10**9, budget=50, rules=rules)


@pytest.mark.parametrize("kind", [*DRAWN, "mix"])
def test_logic_steps_of_constraints_keep_the_solution_and_read_in_words(kind):
    from solver.logic.general import variant_logic_solve

    made = make_constrained(kind, SIX, 7)
    assert made is not None
    result = variant_logic_solve(made.rules, made.puzzle)
    sol = made.solution.cells
    for step in result.steps:
        assert all(sol[c] != v for c, v in step.eliminations), step.sentence
        assert all(sol[c] == v for c, v in step.placements), step.sentence
    if result.solved:
        assert result.grid == made.solution
    for step in result.steps:
        if step.technique == "constraint":
            assert step.sentence.endswith(".") and "remove" in step.sentence


def test_a_thermometer_bounds_its_cells_by_their_place_in_a_step():
    from solver.logic.general import variant_next_step

    rules = Rules.make(FOUR, constraints=[Thermometer((0, 1, 2))])
    step = variant_next_step(rules, Grid.empty(FOUR))
    assert step is not None and step.technique == "constraint"
    assert step.sentence.startswith("Values rise along the thermometer through r1c1")


def test_a_thermometer_puzzle_is_made_at_the_level_asked():
    from solver.generation.constrained import generate_constrained
    from solver.logic.general import variant_logic_solve

    graded = generate_constrained("thermometer", SIX, "easy", 1)
    assert graded is not None and graded.level == "easy"
    made = graded.made
    assert count_solutions(made.puzzle, rules=made.rules) == 1
    assert variant_logic_solve(made.rules, made.puzzle).level == "easy"
    with pytest.raises(ValueError, match="not made at a level"):
        generate_constrained("palindrome", SIX, "easy", 1)


def test_a_search_with_constraints_stops_at_its_time_budget_too(monkeypatch):
    import solver.search.constraint_lanes as plan

    monkeypatch.setattr(plan, "SECONDS_PER_NODE", -1.0)  # the deadline has passed already
    rules = Rules.make(NINE, constraints=[Whispers((0, 1, 2, 3))])
    with pytest.raises(BudgetExceeded, match="time budget"):
        count_solutions(Grid.empty(NINE), limit=10**9, budget=10**6, rules=rules)
    assert count_solutions(Grid.empty(NINE), limit=2, rules=rules) == 2  # no budget: no clock
