"""The classic's harder techniques on Diagonal, Jigsaw and Killer: sound, exercised, named.

The soundness tests walk the variant logic through puzzles (singles and cage combinations
first, then the easiest technique that applies) and, at every position where no single
applies, ask every finder from Skyscraper on for its first steps: none may remove the
solution's value. ``data/variant_walks.jsonl`` holds a few generated puzzles (rules, givens,
solution) on which every one of those finders finds steps in each variant, so the test
does not hang on what the generator happens to make; the generated ones check the rest.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver.generation.general import generate_variant, supported_variant_levels
from solver.grid import Grid, Shape
from solver.logic.classic_on_houses import HouseBoard, house_board, house_tables
from solver.logic.general import BY_SLUG, KILLER_ONLY, LEVELS, ORDER, SINGLES, techniques_for
from solver.logic.houses import VBoard
from solver.logic.techniques import BY_SLUG as CLASSIC
from solver.logic.techniques.base import Board
from solver.rules.ruleset import Rules, layout

HARDER = tuple(t for t in ORDER[ORDER.index(BY_SLUG["skyscraper"]) :] if t.slug != "swordfish")
"""The finders the classic engine lends (Swordfish is the variant engine's own)."""
WALKS = Path(__file__).parent / "data" / "variant_walks.jsonl"


def load_walks() -> list[tuple[str, Rules, Grid, Grid]]:
    out = []
    for line in WALKS.read_text().splitlines():
        data = json.loads(line)
        rules = Rules.from_dict(data["rules"])
        puzzle = Grid(rules.shape, tuple(int(ch) for ch in data["puzzle"]))
        solution = Grid(rules.shape, tuple(int(ch) for ch in data["solution"]))
        out.append((rules.variant, rules, puzzle, solution))
    return out


def positions(rules: Rules, puzzle: Grid) -> Iterator[VBoard]:
    """The positions of a logic solve where no single or cage combination applies."""
    order = techniques_for(rules)
    quick = [t for t in order if t.slug in (*SINGLES, "cage_combination")]
    board = VBoard.from_grid(rules, puzzle)
    assert board is not None
    while not board.is_solved():
        step = next((s for t in quick for s in itertools.islice(t.find(board), 1)), None)
        if step is None:
            yield board
            step = next((s for t in order for s in itertools.islice(t.find(board), 1)), None)
            if step is None:
                return
        assert board.apply(step), step.sentence


def check_walk(rules: Rules, puzzle: Grid, solution: Grid, per_position: int) -> Counter[str]:
    """Each harder finder's first steps at every position: (slug -> steps), all sound."""
    found: Counter[str] = Counter()
    sol = solution.cells
    for board in positions(rules, puzzle):
        for tech in HARDER:
            for step in itertools.islice(tech.find(board), per_position):
                found[tech.slug] += 1
                assert step.eliminations or step.placements
                wrong = [(c, v) for c, v in step.eliminations if sol[c] == v]
                wrong += [(c, v) for c, v in step.placements if sol[c] != v]
                assert not wrong, (rules.variant, step.sentence)
                assert step.sentence
    return found


@pytest.mark.parametrize("variant", ["diagonal", "jigsaw", "killer"])
def test_every_harder_technique_finds_sound_steps_in_each_variant(variant):
    found: Counter[str] = Counter()
    for name, rules, puzzle, solution in load_walks():
        if name == variant:
            found += check_walk(rules, puzzle, solution, per_position=2)
    assert sum(found.values()) > 300
    # a technique that reads cages (house combinations) has nothing to read without them
    expected = [t for t in HARDER if variant == "killer" or t.slug not in KILLER_ONLY]
    missing = [t.slug for t in expected if not found[t.slug]]
    assert not missing, missing


@pytest.mark.parametrize("variant", ["diagonal", "jigsaw", "killer"])
def test_harder_techniques_are_sound_on_generated_puzzles(variant):
    found: Counter[str] = Counter()
    for i in range(3):
        made = generate_variant(variant, 9, level="master", seed=f"techniques:{i}")
        found += check_walk(made.rules, made.puzzle, made.solution, per_position=2)
    assert sum(found.values()) > 100


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["diagonal", "jigsaw", "killer"])
@pytest.mark.parametrize("size", [6, 9])
def test_harder_techniques_are_sound_on_thousands_of_steps(variant, size):
    found: Counter[str] = Counter()
    made_quickly = [  # a 9x9 Killer expert takes half a minute
        lv
        for lv in supported_variant_levels(variant, size)
        if (variant, lv) != ("killer", "expert")
    ]
    levels = made_quickly[-2:]  # the two hardest
    count = 6 if (variant, size) == ("killer", 9) else 30  # a master 9x9 Killer: seconds
    for i in range(count):
        level = levels[i % 2]
        made = generate_variant(variant, size, level=level, seed=f"many techniques:{i}")
        found += check_walk(made.rules, made.puzzle, made.solution, per_position=3)
    assert sum(found.values()) > (1000 * count // 30 if size == 9 else 30)


def test_the_variant_levels_are_the_classics_and_uniqueness_stays_out():
    for tech in ORDER:
        if tech.slug in CLASSIC:
            assert tech.level == CLASSIC[tech.slug].level, tech.slug
    assert not [t.slug for t in ORDER if "unique" in t.slug or t.slug == "bug_plus_one"]
    levels = [LEVELS.index(t.level) for t in ORDER]
    assert levels == sorted(levels)  # a puzzle's level is its hardest technique's


def test_on_classic_rules_the_house_tables_are_the_classic_tables():
    shape = Shape(3, 3)
    rules = Rules.classic(shape)
    puzzle = Grid.from_string(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    )
    board = VBoard.from_grid(rules, puzzle)
    classic = Board.from_grid(puzzle)
    assert board is not None and classic is not None
    assert board.cand == classic.cand
    view = HouseBoard(board)
    assert view.t.units == classic.t.units
    assert view.t.peers == classic.t.peers
    assert view.t.box_of == classic.t.box_of
    assert view.positions() == classic.positions()


def test_the_shared_positions_follow_every_change_of_the_candidates():
    rules = Rules.make(4, diagonals=True)
    board = VBoard.from_grid(rules, Grid.empty(rules.shape))
    assert board is not None
    view = house_board(board)
    assert house_board(board) is view
    diagonal = 12  # house 12 of a 4x4 grid: diagonal 1, r1c1 to r4c4
    assert view.positions()[diagonal][0] == 0b1111
    board.cand[5] &= ~1  # r2c2 loses 1 behind the view's back, as a hint's notes do
    assert view.positions()[diagonal][0] == 0b1101
    assert board.place(0, 1)
    assert view.positions()[diagonal][0] == 0


def test_a_cage_is_no_unit_but_its_cells_are_peers():
    rules = Rules.make(4, cages=[((2, 4), None)])  # r1c3 and r2c1 share no house
    t = house_tables(rules)
    assert t.units == layout(rules).houses
    assert len(t.units) == 12  # rows, columns and regions: the cage is not among them
    assert 4 in t.peer_sets[2] and 2 in t.peer_sets[4]
    assert 4 not in house_tables(Rules.classic(4)).peer_sets[2]


def test_a_windows_step_names_the_window_not_the_house_index():
    rules = Rules.make(9, windows=True)
    board = VBoard.from_grid(rules, Grid.empty(rules.shape))
    assert board is not None
    first_window = 27  # house 27 (no diagonals) is unit 36: window 1
    step = HouseBoard(board).step(
        "w_wing",
        "W-Wing",
        params={
            "first_cell": 0,
            "second_cell": 80,
            "x_value": 1,
            "y_value": 2,
            "unit": first_window,
            "first_end_cell": 10,
            "second_end_cell": 12,
            "removed_cells": [8],
        },
        units=(first_window,),
        cells=(0, 10, 12, 80),
        eliminations=[(8, 2)],
    )
    assert step.units == (36,)
    assert dict(step.params)["unit"] == 36
    assert "window 1" in step.sentence
