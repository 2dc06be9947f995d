"""The Killer logic's steps and grades stay what they were: ``data/killer_steps.jsonl``
holds generated Killers (9x9 easy to master, 6x6 easy to hard) with every step the logic
took on them (technique, placements, eliminations) and the grade. A speed-up must keep
each one exactly, and the generator must still make the same puzzle from a seed; a change
meant to move them (a new technique, a new way of generating) records them again, from
the same sizes, levels and seeds, and says so in its commit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.generation.general import generate_variant
from solver.generation.general_dig import logic_level
from solver.grid import Grid, Shape
from solver.logic.general import variant_logic_solve
from solver.rules.ruleset import Rules

DATA = Path(__file__).parent / "data" / "killer_steps.jsonl"
ROWS = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def _puzzle(row: dict) -> tuple[Rules, Grid]:
    shape = Shape.for_size(row["size"])
    rules = Rules.from_dict(row["rules"], shape)
    return rules, Grid(shape, tuple(int(ch) for ch in row["puzzle"]))


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['size']}-{r['level']}-{r['seed']}")
def test_killer_logic_takes_the_recorded_steps_and_grade(row: dict) -> None:
    rules, puzzle = _puzzle(row)
    result = variant_logic_solve(rules, puzzle, explain=False)
    steps = [
        [s.technique, [list(p) for p in s.placements], [list(e) for e in s.eliminations]]
        for s in result.steps
    ]
    assert steps == row["steps"]
    assert result.level == row["grade"]
    assert logic_level(rules, puzzle)[0] == row["grade"]


@pytest.mark.parametrize(
    "row",
    [
        r
        for r in ROWS
        if (r["size"], r["level"], r["seed"]) in {(9, "easy", 0), (9, "hard", 2), (6, "hard", 0)}
    ],
    ids=lambda r: f"{r['size']}-{r['level']}-{r['seed']}",
)
def test_killer_generator_makes_the_recorded_puzzle_from_its_seed(row: dict) -> None:
    made = generate_variant("killer", row["size"], level=row["level"], seed=row["seed"])
    assert made.rules.to_dict() == row["rules"]
    assert "".join(str(v) for v in made.puzzle.cells) == row["puzzle"]
