"""Every puzzle of every shared data set: both engines agree, every solution is valid.

The exact engine and the Algorithm X oracle count each puzzle's solutions up to 2; the
solution the exact engine returns is checked by :func:`solver.rules.checks.is_solution`.
"""

import pytest

from solver import count_solutions, is_solution, parse, solutions
from solver.search.dlx import dlx_count
from tests.solver.datasets import load, names

SETS = names()
# Sets whose every puzzle is known to have exactly one solution, or exactly two with limit 2.
UNIQUE = ("gen_", "norvig_top95", "norvig_hardest", "qqwing_", "royle_", "magictour_", "forum_")


def test_every_shared_data_set_is_here():
    assert len(SETS) >= 15
    assert "serg_multisolution_1000.txt" in SETS
    assert "gen_25x25_unique.txt" in SETS


# Each set is checked on an even sample of at most this many puzzles: the data does not
# change, the engines do, and 300 of a set's puzzles cover its kinds.
SAMPLE = 300


@pytest.mark.slow
@pytest.mark.parametrize("name", SETS)
def test_both_engines_agree_and_every_solution_is_valid_on_a_sample(name):
    lines = load(name)
    assert lines
    stride = -(-len(lines) // SAMPLE)
    for number, line in list(enumerate(lines, start=1))[::stride]:
        puzzle = parse(line)
        found = solutions(puzzle, limit=2)
        where = f"{name} line {number}"
        assert dlx_count(puzzle, limit=2) == len(found), where
        assert all(is_solution(puzzle, s) for s in found), where
        if name.startswith(UNIQUE):
            assert len(found) == 1, where


def test_every_multisolution_puzzle_counts_two():
    lines = load("serg_multisolution_1000")
    assert len(lines) == 1000
    assert all(count_solutions(parse(line), limit=2) == 2 for line in lines)
