"""The logic engine: hints from a player's position and whole-puzzle solving, on every size."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.grid import BudgetExceeded, Grid, Shape, cell_name, parse
from solver.logic.classic import (
    LogicResult,
    MultipleSolutions,
    NoSolution,
    Step,
    logic_solve,
    next_step,
    techniques_up_to,
)
from solver.logic.techniques import BY_SLUG, LEVELS
from solver.logic.techniques.base import Board
from solver.rules.checks import is_solution
from solver.search.exact import solve

from .datasets import load

SHAPES_FILE = Path(__file__).parent / "data" / "logic_shapes.txt"
CELL = re.compile(r"\br\d+c\d+\b")
TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def puzzles(name: str, count: int, step: int = 1) -> list[Grid]:
    return [parse(line.split()[0]) for line in load(name)[::step][:count]]


def shaped_puzzles() -> list[Grid]:
    out = []
    for line in SHAPES_FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            box, text = line.split()
            br, bc = (int(x) for x in box.split("x"))
            out.append(parse(text, box_rows=br, box_cols=bc))
    return out


def assert_sound(step: Step, solution: Grid) -> None:
    for cell, value in step.eliminations:
        assert solution.cells[cell] != value, f"{step.technique}: {step.sentence}"
    for cell, value in step.placements:
        assert solution.cells[cell] == value, f"{step.technique}: {step.sentence}"


def solution_of(grid: Grid) -> Grid:
    solution = solve(grid)
    assert solution is not None and is_solution(grid, solution)
    return solution


def with_value(grid: Grid, cell: int, value: int) -> Grid:
    cells = list(grid.cells)
    cells[cell] = value
    return grid.with_cells(cells)


# -- next_step from a player's position -------------------------------------------------


def test_wrong_entry_is_reported_before_any_technique():
    puzzle = parse(TOP95_FIRST)
    solution = solution_of(puzzle)
    cell = puzzle.cells.index(0)
    wrong = next(v for v in range(1, 10) if v != solution.cells[cell])
    step = next_step(puzzle, with_value(puzzle, cell, wrong))
    assert step is not None
    assert step.technique == "incorrect_entry"
    assert step.cells == (cell,)
    assert step.placements == () and step.eliminations == ()  # never gives the answer away
    assert cell_name(puzzle.shape, cell) in step.sentence


def test_every_wrong_entry_is_named_and_right_ones_are_not():
    puzzle = parse(TOP95_FIRST)
    solution = solution_of(puzzle)
    empty = [c for c, v in enumerate(puzzle.cells) if not v]
    entries = puzzle
    wrong_cells = empty[:2]
    for c in wrong_cells:
        entries = with_value(entries, c, solution.cells[c] % 9 + 1)
    right = empty[5]
    entries = with_value(entries, right, solution.cells[right])
    step = next_step(puzzle, entries)
    assert step is not None and step.technique == "incorrect_entry"
    assert step.cells == tuple(wrong_cells)
    assert cell_name(puzzle.shape, right) not in step.sentence


def test_solved_board_has_no_next_step():
    puzzle = parse(TOP95_FIRST)
    assert next_step(puzzle, solution_of(puzzle)) is None


def test_hint_on_the_givens_alone_is_sound():
    puzzle = parse(TOP95_FIRST)
    step = next_step(puzzle)
    assert step is not None and step.technique in BY_SLUG
    assert_sound(step, solution_of(puzzle))


def test_a_known_solution_gives_the_same_hints_without_searching(monkeypatch):
    puzzle = parse(TOP95_FIRST)
    solution = solution_of(puzzle)
    wrong = next(c for c, v in enumerate(puzzle.cells) if not v)
    entries = with_value(puzzle, wrong, solution.cells[wrong] % 9 + 1)
    expected = [next_step(puzzle), next_step(puzzle, entries)]

    def no_search(*args, **kwargs):
        raise AssertionError("next_step searched although the solution was given")

    monkeypatch.setattr("solver.logic.classic.solutions", no_search)
    assert next_step(puzzle, solution=solution) == expected[0]
    assert next_step(puzzle, entries, solution=solution) == expected[1]
    assert expected[1] is not None and expected[1].technique == "incorrect_entry"
    with pytest.raises(ValueError, match="solution is a 4x4 grid"):
        next_step(puzzle, solution=parse("1234341221434321"))


def test_clashing_givens_raise_no_solution():
    puzzle = parse("11" + "." * 79)
    with pytest.raises(NoSolution):
        next_step(puzzle)
    with pytest.raises(NoSolution):
        logic_solve(puzzle)


def test_unsolvable_puzzle_without_clash_raises_no_solution():
    # r1c1 sees 1-8 in its row and 9 in its column: no value is left for it
    puzzle = parse(".12345678" + "9" + "." * 71)
    with pytest.raises(NoSolution):
        next_step(puzzle)


def test_puzzle_with_several_solutions_raises_multiple_solutions():
    puzzle = parse(load("serg_multisolution_1000")[0])
    with pytest.raises(MultipleSolutions):
        next_step(puzzle)
    assert issubclass(MultipleSolutions, ValueError) and issubclass(NoSolution, ValueError)


def test_entries_that_change_a_given_are_rejected():
    puzzle = parse(TOP95_FIRST)
    with pytest.raises(ValueError, match="given"):
        next_step(puzzle, with_value(puzzle, 0, 9))


def test_notes_that_leave_out_the_solution_are_reported():
    puzzle = parse(TOP95_FIRST)
    solution = solution_of(puzzle)
    cell = puzzle.cells.index(0)
    notes = {cell: {v for v in range(1, 10) if v != solution.cells[cell]}}
    step = next_step(puzzle, None, notes)
    assert step is not None and step.technique == "incorrect_note"
    assert step.cells == (cell,)
    assert step.placements == () and step.eliminations == ()


def test_notes_narrow_the_candidates_the_engine_reasons_from():
    """A note holding only the right value makes that cell the next naked single."""
    puzzle = parse(TOP95_FIRST)
    solution = solution_of(puzzle)
    board = Board.from_grid(puzzle)
    assert board is not None
    assert not any(m and m & (m - 1) == 0 for m in board.cand)  # no naked single yet
    cell = max(range(81), key=lambda c: board.cand[c].bit_count())
    step = next_step(puzzle, None, {cell: {solution.cells[cell]}})
    assert step is not None and step.technique == "naked_single"
    assert step.placements == ((cell, solution.cells[cell]),)
    assert "ruled out" in step.sentence  # not by the row, column and box alone


def test_notes_never_add_a_candidate_the_board_rules_out():
    puzzle = parse(TOP95_FIRST)
    solution = solution_of(puzzle)
    all_values = {c: set(range(1, 10)) for c, v in enumerate(puzzle.cells) if not v}
    assert next_step(puzzle, None, all_values) == next_step(puzzle)
    assert_sound(next_step(puzzle, None, all_values), solution)  # type: ignore[arg-type]


def test_notes_for_filled_cells_and_empty_notes_are_ignored():
    puzzle = parse(TOP95_FIRST)
    given = 0  # r1c1 holds the given 4
    empty = puzzle.cells.index(0)
    assert next_step(puzzle, None, {given: {1}, empty: set()}) == next_step(puzzle)


def test_bad_notes_are_rejected_with_a_clear_error():
    puzzle = parse(TOP95_FIRST)
    with pytest.raises(ValueError, match="outside"):
        next_step(puzzle, None, {1: {0}})
    with pytest.raises(ValueError):
        next_step(puzzle, None, {81: {1}})


def test_hints_walk_a_4x4_and_a_6x6_puzzle_to_the_solution():
    """Apply each hint as a player would (placements as entries, eliminations as notes)."""
    for puzzle in [parse(load("gen_4x4_unique")[0]), shaped_puzzles()[0]]:
        assert puzzle.size in (4, 6)
        solution = solution_of(puzzle)
        entries = puzzle
        board = Board.from_grid(puzzle)
        assert board is not None
        for _ in range(puzzle.shape.ncells):
            notes = {
                c: {v for v in range(1, puzzle.size + 1) if m >> (v - 1) & 1}
                for c, m in enumerate(board.cand)
                if m
            }
            step = next_step(puzzle, entries, notes)
            if step is None:
                break
            assert_sound(step, solution)
            assert CELL.search(step.sentence)
            board.apply(step)
            entries = board.grid()
        assert entries == solution


def test_hint_on_a_16x16_position_is_sound_and_names_cells():
    puzzle = parse(load("gen_16x16_unique")[0])
    assert puzzle.size == 16
    solution = solution_of(puzzle)
    reached = logic_solve(puzzle, max_level="easy").grid
    step = next_step(puzzle, reached)
    assert step is not None
    assert_sound(step, solution)
    assert CELL.search(step.sentence)


def test_stuck_position_gets_a_sound_search_step():
    puzzle = parse(load("forum_hardest_1106")[0])
    solution = solution_of(puzzle)
    stuck = logic_solve(puzzle)
    assert not stuck.solved
    step = next_step(puzzle, stuck.grid)
    assert step is not None
    if step.technique == "search":
        assert_sound(step, solution)
    else:  # candidates recomputed from the board may open a technique again
        assert step.technique in BY_SLUG
        assert_sound(step, solution)


def test_step_to_dict_is_json_ready_with_names():
    puzzle = parse(TOP95_FIRST)
    step = next_step(puzzle)
    assert step is not None
    d = step.to_dict()
    assert d["technique"] == step.technique and d["sentence"] == step.sentence
    assert d["cells"] == list(step.cells)
    assert d["cell_names"] == [cell_name(puzzle.shape, c) for c in step.cells]
    assert len(d["unit_names"]) == len(step.units)
    for item, (cell, value) in zip(d["eliminations"], step.eliminations, strict=True):
        assert item == {"cell": cell, "cell_name": cell_name(puzzle.shape, cell), "value": value}


# -- logic_solve ------------------------------------------------------------------------


SOUNDNESS_SETS = [
    ("qqwing_expert", 120, 8),
    ("se_rated_diabolical", 120, 16),
    ("norvig_top95", 60, 1),
    ("magictour_top1465", 60, 24),
    ("royle_17clue_first1000", 40, 25),
]


@pytest.mark.parametrize(("name", "count", "stride"), SOUNDNESS_SETS)
def test_every_step_of_logic_solve_is_sound(name, count, stride):
    for puzzle in puzzles(name, count, stride):
        solution = solution_of(puzzle)
        result = logic_solve(puzzle)
        for step in result.steps:
            assert_sound(step, solution)
        if result.solved:
            assert result.grid == solution
        else:
            assert all(v in (0, s) for v, s in zip(result.grid.cells, solution.cells, strict=True))


def test_every_step_is_sound_on_4x4_6x6_8x8_12x12_and_16x16():
    grids = puzzles("gen_4x4_unique", 30) + shaped_puzzles() + puzzles("gen_16x16_unique", 4)
    sizes = set()
    for puzzle in grids:
        solution = solution_of(puzzle)
        result = logic_solve(puzzle)
        sizes.add(puzzle.size)
        for step in result.steps:
            assert_sound(step, solution)
    assert sizes == {4, 6, 8, 12, 16}


def test_steps_replay_one_at_a_time_and_each_was_true_when_taken():
    """Batched singles are reported as single steps; each holds on the board it was taken on."""
    for puzzle in puzzles("qqwing_intermediate", 30) + puzzles("qqwing_expert", 30):
        result = logic_solve(puzzle)
        board = Board.from_grid(puzzle)
        assert board is not None
        for step in result.steps:
            for cell, value in step.placements:
                mask = board.cand[cell]
                assert mask >> (value - 1) & 1, step.sentence
                if step.technique == "naked_single":
                    assert mask == 1 << (value - 1), step.sentence
                if step.technique == "full_house":
                    (unit,) = step.units
                    assert [c for c in board.t.units[unit] if not board.values[c]] == [cell]
                if step.technique == "hidden_single":
                    (unit,) = step.units
                    fits = [c for c in board.t.units[unit] if board.cand[c] >> (value - 1) & 1]
                    assert fits == [cell], step.sentence
            for cell, value in step.eliminations:
                assert board.cand[cell] >> (value - 1) & 1, "eliminates nothing"
            assert board.apply(step)
        assert board.grid() == result.grid


def test_logic_solve_reports_the_hardest_technique_and_the_position_reached():
    puzzle = puzzles("qqwing_expert", 1)[0]
    result = logic_solve(puzzle)
    assert isinstance(result, LogicResult)
    assert result.solved and result.grid.is_complete()
    used = {s.technique for s in result.steps}
    assert result.hardest in used
    rank = {t: (LEVELS.index(BY_SLUG[t].level), BY_SLUG[t].score) for t in used}
    assert rank[result.hardest] == max(rank.values())


def test_max_level_keeps_to_the_techniques_at_or_below_it():
    allowed = {"easy": {"full_house", "naked_single", "hidden_single"}}
    allowed["medium"] = allowed["easy"] | {t.slug for t in techniques_up_to("medium")}
    stopped = 0
    for puzzle in puzzles("qqwing_expert", 40):
        for level in ("easy", "medium"):
            result = logic_solve(puzzle, max_level=level)
            assert {s.technique for s in result.steps} <= allowed[level]
            stopped += not result.solved
        assert logic_solve(puzzle, max_level="master").solved == logic_solve(puzzle).solved
    assert stopped > 0  # some qqwing expert puzzles need more than medium techniques


def test_unknown_level_is_rejected():
    with pytest.raises(ValueError, match="level"):
        logic_solve(parse(TOP95_FIRST), max_level="impossible")


def test_budget_caps_the_technique_passes():
    puzzle = parse(TOP95_FIRST)
    with pytest.raises(BudgetExceeded):
        logic_solve(puzzle, budget=3)
    assert logic_solve(puzzle, budget=100_000).passes <= 100_000


def test_budget_applies_to_hints_too():
    with pytest.raises(BudgetExceeded):
        next_step(parse(load("forum_hardest_1106")[0]), budget=1)


def test_logic_solves_a_25x25_puzzle():
    puzzle = parse(load("gen_25x25_unique")[0])
    assert puzzle.shape == Shape(5, 5)
    result = logic_solve(puzzle)
    assert result.solved and result.grid == solution_of(puzzle)


# -- next_step(prefer=...): a practice game's technique first ----------------------------

LESSON_EXAMPLES = Path(__file__).resolve().parents[2] / "learn" / "data" / "examples.json"


def _lesson_position(slug: str) -> tuple[Grid, Grid]:
    """A lesson's puzzle and its position one step before the technique (shipped data)."""
    import json

    example = json.loads(LESSON_EXAMPLES.read_text())[slug]
    return parse(example["givens"]), parse(example["values"])


def test_a_preferred_technique_comes_first_when_the_board_has_it() -> None:
    puzzle, position = _lesson_position("x_wing")
    plain = next_step(puzzle, position)
    preferred = next_step(puzzle, position, prefer="x_wing")
    assert plain is not None and preferred is not None
    assert plain.technique != "x_wing"  # the engine's own order starts with an easier one
    assert preferred.technique == "x_wing"
    sol = solve(puzzle)
    assert sol is not None
    assert preferred.eliminations
    for cell, value in preferred.eliminations:  # and it is sound
        assert sol.cells[cell] != value


def test_a_preferred_technique_the_board_lacks_leaves_the_engines_step() -> None:
    puzzle, position = _lesson_position("x_wing")
    plain = next_step(puzzle, position)
    for prefer in ("xyz_wing", "no_such_technique", None):
        step = next_step(puzzle, position, prefer=prefer)
        assert step is not None and plain is not None
        assert step.technique == plain.technique
        assert step.cells == plain.cells
