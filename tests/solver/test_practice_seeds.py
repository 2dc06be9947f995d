"""Practice puzzles of the rare techniques, grown from seed puzzles."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from solver.generation import practice_seeds
from solver.generation.classic import GenerationFailed, generate
from solver.generation.classic_dig import is_symmetric
from solver.generation.practice import generator_reaches
from solver.generation.practice_dig import dig_requiring, require_attempts
from solver.generation.practice_seeds import SEEDED, grow_requiring, seed_puzzles
from solver.grid import Grid, Shape
from solver.logic.grade import grade
from solver.logic.techniques import BY_SLUG
from solver.rules.canon import canonical_key
from solver.rules.checks import is_solution

NINE = Shape.for_size(9)


def test_the_seed_file_holds_the_seeded_techniques_only():
    names = Counter(line.split()[0] for line in practice_seeds.SEED_FILE.read_text().splitlines())
    assert names == dict.fromkeys(SEEDED, practice_seeds.SEEDS_PER_TECHNIQUE)


@pytest.mark.slow
@pytest.mark.parametrize("slug", SEEDED)
def test_every_seed_puzzle_needs_its_technique_and_nothing_harder(slug):
    level = BY_SLUG[slug].level
    for puzzle, solution in seed_puzzles(slug):
        rated = grade(Grid(NINE, puzzle))
        assert slug in rated.techniques
        assert rated.level == level
        assert is_solution(Grid(NINE, puzzle), Grid(NINE, solution))


@pytest.mark.parametrize("slug", SEEDED)
def test_a_grown_puzzle_needs_its_technique_and_is_no_seed_in_disguise(slug):
    made = generate(9, require=slug, seed="grown")
    assert made.attempts <= 3
    assert is_solution(made.puzzle, made.solution)
    assert slug in made.grade.techniques
    assert made.grade.level == BY_SLUG[slug].level
    seeds = {canonical_key(Grid(NINE, puzzle)) for puzzle, _ in seed_puzzles(slug)}
    assert canonical_key(made.puzzle) not in seeds


def test_grown_puzzles_are_reproducible_from_the_seed_and_differ_between_seeds():
    first = generate(9, require="hidden_quad", seed=3)
    again = generate(9, require="hidden_quad", seed=3)
    others = {generate(9, require="hidden_quad", seed=s).puzzle for s in range(4, 8)}
    assert first.puzzle == again.puzzle
    keys = {canonical_key(p) for p in others | {first.puzzle}}
    assert len(keys) == 5


def test_a_disguise_is_the_same_puzzle_with_its_own_solution():
    puzzle, solution = seed_puzzles("jellyfish")[0]
    for seed in range(6):
        cells, answer = practice_seeds._disguise(NINE, puzzle, solution, random.Random(seed))
        assert canonical_key(Grid(NINE, tuple(cells))) == canonical_key(Grid(NINE, puzzle))
        assert is_solution(Grid(NINE, tuple(cells)), Grid(NINE, answer))


def test_a_symmetric_request_is_dug_from_scratch():
    made = generate(9, require="unique_rectangle_2", symmetry="rotational", seed=0)
    assert is_symmetric(made.puzzle, "rotational")
    assert "unique_rectangle_2" in made.grade.techniques


def test_growing_runs_out_of_attempts_with_a_clear_error(monkeypatch):
    monkeypatch.setattr(practice_seeds, "DRIFT_STEPS", 1)
    with pytest.raises(GenerationFailed, match="needing Jellyfish grown in 2 attempts"):
        grow_requiring(NINE, "jellyfish", seed=0, attempts=2)


def test_a_technique_without_seeds_is_not_grown():
    with pytest.raises(ValueError, match="X-Wing has no seed puzzles"):
        grow_requiring(NINE, "x_wing", seed=0, attempts=1)
    assert generator_reaches("unique_rectangle_5")
    assert not generator_reaches("unique_rectangle_5", "rotational")


def test_seeds_are_made_from_scratch_from_fixed_seeds():
    line = practice_seeds.make_seeds(("x_wing",), 1)
    made = dig_requiring(NINE, "x_wing", "none", "seedbank:0", require_attempts(NINE, "x_wing"))
    assert line == [f"x_wing {''.join(map(str, made.puzzle.cells))}"]


def test_the_seed_command_prints_a_line_per_seed_and_refuses_an_unknown_slug(capsys):
    assert practice_seeds.main(["xy_wing", "--count", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["xy_wing", "xy_wing"]
    with pytest.raises(SystemExit) as stopped:
        practice_seeds.main(["no_such_wing"])
    assert stopped.value.code == 2
    assert "unknown technique 'no_such_wing'" in capsys.readouterr().err
