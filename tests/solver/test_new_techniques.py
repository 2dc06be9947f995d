"""The techniques between wings and long chains, each on a hand-made position and for soundness.

A hand-made position starts from an empty 9x9 board where every cell may hold every value,
then narrows the candidates of a few cells to draw the pattern; the finder must find the
step, make exactly the eliminations the pattern allows, and name the pattern's cells. The
soundness tests walk the logic engine through many puzzles and ask every finder for its
steps at each position where no single applies: no elimination may remove the solution's
value.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from functools import partial

import pytest

from solver.grid import Shape, cell_name, parse
from solver.logic.techniques import BY_SLUG, ORDER, SINGLES
from solver.logic.techniques.als import als_xz, sue_de_coq
from solver.logic.techniques.base import Board, Step, mask_of
from solver.logic.techniques.fish import empty_rectangles, finned_fish
from solver.logic.techniques.loops import nice_loops, x_cycles
from solver.logic.techniques.uniqueness import (
    hidden_unique_rectangles,
    unique_rectangles_3,
    unique_rectangles_5,
    unique_rectangles_6,
)
from solver.search.exact import solve

from .datasets import load

NEW = (
    "finned_x_wing",
    "finned_swordfish",
    "empty_rectangle",
    "unique_rectangle_3",
    "unique_rectangle_5",
    "unique_rectangle_6",
    "hidden_unique_rectangle",
    "sue_de_coq",
    "als_xz",
    "x_cycle",
    "nice_loop",
)
NINE = Shape(3, 3)


def cell(name: str) -> int:
    """The index of ``r3c4`` on a 9x9 board."""
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def open_board(shape: Shape = NINE) -> Board:
    """An empty board where every cell may hold every value."""
    return Board(shape, [0] * shape.ncells, [(1 << shape.size) - 1] * shape.ncells)


def set_cells(board: Board, **cells: str) -> Board:
    """``r1c1="12"``: narrow those cells to those values."""
    for name, values in cells.items():
        board.cand[cell(name)] = mask_of(int(v) for v in values)
    board.version += 1
    return board


def only_in(board: Board, value: int, unit_cells: list[str], keep: list[str]) -> None:
    """Remove ``value`` from the cells of ``unit_cells`` that are not in ``keep``."""
    bit = 1 << (value - 1)
    for name in unit_cells:
        if name not in keep:
            board.cand[cell(name)] &= ~bit
    board.version += 1


def row(r: int) -> list[str]:
    return [f"r{r}c{c}" for c in range(1, 10)]


def col(c: int) -> list[str]:
    return [f"r{r}c{c}" for r in range(1, 10)]


def box(b: int) -> list[str]:
    r0, c0 = 3 * ((b - 1) // 3) + 1, 3 * ((b - 1) % 3) + 1
    return [f"r{r}c{c}" for r in range(r0, r0 + 3) for c in range(c0, c0 + 3)]


def eliminated(step: Step) -> set[tuple[str, int]]:
    return {(cell_name(NINE, c), v) for c, v in step.eliminations}


def names_cells(step: Step, *names: str) -> bool:
    return all(name in step.sentence for name in names)


def test_finned_x_wing_removes_the_cover_cells_that_see_the_fin():
    board = open_board()
    only_in(board, 1, row(1), ["r1c2", "r1c7", "r1c8"])  # r1c8 is the fin, in box 3
    only_in(board, 1, row(5), ["r5c2", "r5c7"])
    step = next(finned_fish(board, k=2))
    assert step.technique == "finned_x_wing" and step.name == "Finned X-Wing"
    assert eliminated(step) == {("r2c7", 1), ("r3c7", 1)}
    assert names_cells(step, "r1c2", "r1c7", "r5c2", "r5c7", "r1c8")


def test_sashimi_x_wing_is_named_so():
    board = open_board()
    only_in(board, 1, row(1), ["r1c7", "r1c8"])  # no 1 left at r1c2: sashimi
    only_in(board, 1, row(5), ["r5c2", "r5c7"])
    step = next(finned_fish(board, k=2))
    assert step.name == "Sashimi X-Wing"
    assert eliminated(step) == {("r2c7", 1), ("r3c7", 1)}
    assert names_cells(step, "r1c7", "r1c8", "r5c2", "r5c7")


def test_finned_swordfish_removes_the_cover_cells_that_see_the_fin():
    board = open_board()
    only_in(board, 4, row(1), ["r1c1", "r1c4", "r1c5"])  # r1c5 is the fin, in box 2
    only_in(board, 4, row(4), ["r4c1", "r4c7"])
    only_in(board, 4, row(7), ["r7c4", "r7c7"])
    step = next(finned_fish(board, k=3))
    assert step.technique == "finned_swordfish"
    assert eliminated(step) == {("r2c4", 4), ("r3c4", 4)}
    assert names_cells(step, "r1c1", "r1c4", "r4c1", "r4c7", "r7c4", "r7c7", "r1c5")


def test_finned_fish_works_on_a_2x3_box_grid():
    shape = Shape(2, 3)
    board = open_board(shape)
    # rows 1 and 4, value 2 in columns 1 and 5; fin at r1c6 in box 2 (rows 1-2, columns 4-6)
    for r, keep in ((0, {0, 4, 5}), (3, {0, 4})):
        for c in range(6):
            if c not in keep:
                board.cand[r * 6 + c] &= ~2
    board.version += 1
    step = next(finned_fish(board, k=2))
    assert {(cell_name(shape, c), v) for c, v in step.eliminations} == {("r2c5", 2)}


def test_empty_rectangle_removes_the_value_where_the_pair_meets_the_box_column():
    board = open_board()
    # in box 1, 5 lies only on row 2 and column 2
    only_in(board, 5, box(1), ["r2c1", "r2c2", "r2c3", "r1c2", "r3c2"])
    only_in(board, 5, col(8), ["r2c8", "r6c8"])  # a conjugate pair whose near end is on row 2
    step = next(empty_rectangles(board))
    assert step.technique == "empty_rectangle"
    assert eliminated(step) == {("r6c2", 5)}
    assert names_cells(step, "r2c8", "r6c8", "r1c2", "r2c1")


def test_unique_rectangle_type_3_locks_the_roofs_extra_values_with_a_cell():
    board = set_cells(open_board(), r1c1="12", r1c4="12", r2c1="123", r2c4="124", r2c7="34")
    step = next(unique_rectangles_3(board))
    assert step.technique == "unique_rectangle_3"
    others = [name for name in row(2) if name not in ("r2c1", "r2c4", "r2c7")]
    assert eliminated(step) == {(name, v) for name in others for v in (3, 4)}
    assert names_cells(step, "r1c1", "r1c4", "r2c1", "r2c4", "r2c7")


def test_unique_rectangle_type_5_removes_the_extra_seen_by_three_corners():
    board = set_cells(open_board(), r1c1="12", r1c4="127", r2c1="127", r2c4="127")
    step = next(unique_rectangles_5(board))
    assert step.technique == "unique_rectangle_5"
    assert eliminated(step) == {("r2c5", 7), ("r2c6", 7)}
    assert names_cells(step, "r1c1", "r1c4", "r2c1", "r2c4")


def test_unique_rectangle_type_6_removes_the_x_wing_value_from_the_other_corners():
    board = set_cells(open_board(), r1c1="12", r2c4="12", r1c4="125", r2c1="126")
    corners = ["r1c1", "r1c4", "r2c1", "r2c4"]
    for unit in (row(1), row(2), col(1), col(4)):
        only_in(board, 1, unit, corners)
    step = next(unique_rectangles_6(board))
    assert step.technique == "unique_rectangle_6"
    assert eliminated(step) == {("r1c4", 1), ("r2c1", 1)}
    assert names_cells(step, *corners)


def test_hidden_unique_rectangle_removes_the_other_value_from_the_far_corner():
    board = set_cells(open_board(), r1c1="12")
    only_in(board, 1, row(2), ["r2c1", "r2c4"])
    only_in(board, 1, col(4), ["r1c4", "r2c4"])
    step = next(hidden_unique_rectangles(board))
    assert step.technique == "hidden_unique_rectangle"
    assert eliminated(step) == {("r2c4", 2)}
    assert names_cells(step, "r1c1", "r1c4", "r2c1", "r2c4")


def test_sue_de_coq_splits_the_values_between_the_line_and_the_box():
    board = set_cells(open_board(), r1c1="123", r1c2="124", r1c3="56789", r1c6="12", r2c2="34")
    step = next(sue_de_coq(board))
    assert step.technique == "sue_de_coq"
    line_rest = [n for n in row(1) if n not in ("r1c1", "r1c2", "r1c3", "r1c6")]
    box_rest = [n for n in box(1) if n not in ("r1c1", "r1c2", "r1c3", "r2c2")]
    expected = {(n, v) for n in line_rest for v in (1, 2)} | {
        (n, v) for n in box_rest for v in (3, 4)
    }
    assert eliminated(step) == expected
    assert names_cells(step, "r1c1", "r1c2", "r1c6", "r2c2")


def test_als_xz_removes_z_from_the_cells_that_see_every_z_of_both_sets():
    board = set_cells(open_board(), r1c1="12", r1c2="23", r5c2="13")
    step = next(als_xz(board))
    assert step.technique == "als_xz"
    # x = 3 (r1c2 and r5c2 see each other), z = 1 (r1c1 and r5c2)
    expected = {("r2c2", 1), ("r3c2", 1), ("r4c1", 1), ("r5c1", 1), ("r6c1", 1)}
    assert eliminated(step) == expected
    assert names_cells(step, "r1c1", "r1c2", "r5c2")


def test_x_cycle_removes_the_value_beside_each_link_of_the_loop():
    board = open_board()
    only_in(board, 5, box(1), ["r1c1", "r2c3"])  # strong link in box 1
    only_in(board, 5, col(8), ["r1c8", "r2c8"])  # strong link in column 8
    step = next(x_cycles(board))
    assert step.technique == "x_cycle"
    loop = {"r1c1", "r2c3", "r2c8", "r1c8"}
    # the rest of rows 1 and 2 outside box 1 (where 5 fits only in the loop), and box 3
    expected = {(n, 5) for n in row(1) + row(2) if n not in loop and n not in box(1)}
    expected |= {(n, 5) for n in box(3) if n not in loop and not n.endswith("c8")}
    assert eliminated(step) == expected
    assert names_cells(step, *loop)


def test_continuous_nice_loop_over_four_bivalue_cells():
    board = set_cells(open_board(), r1c1="12", r1c5="23", r5c5="34", r5c1="41")
    step = next(nice_loops(board))
    assert step.technique == "nice_loop"
    loop = ("r1c1", "r1c5", "r5c5", "r5c1")
    expected = {(n, 2) for n in row(1) if n not in loop}
    expected |= {(n, 3) for n in col(5) if n not in loop}
    expected |= {(n, 4) for n in row(5) if n not in loop}
    expected |= {(n, 1) for n in col(1) if n not in loop}
    assert eliminated(step) == expected
    assert names_cells(step, *loop)


def test_new_techniques_are_in_the_engine_with_a_level_and_a_rating():
    from solver.logic.grade import RATINGS

    slugs = [t.slug for t in ORDER]
    for slug in NEW:
        assert slug in slugs
        assert slug in RATINGS


def positions(board: Board) -> Iterator[Board]:
    """The positions the logic engine meets where no single applies, as it solves."""
    singles = [t for t in ORDER if t.slug in SINGLES]
    harder = [t for t in ORDER if t.slug not in SINGLES]
    while 0 in board.values:
        placed = False
        for tech in singles:
            for step in tech.find(board):
                board.apply(step)
                placed = True
            if placed:
                break
        if placed:
            continue
        yield board
        for tech in harder:
            step = next(tech.find(board), None)
            if step is not None:
                board.apply(step)
                break
        else:
            return


def check_soundness(puzzles: list[str], per_position: int) -> Counter[str]:
    """Every new finder's first steps at every position: none removes the solution's value."""
    found: Counter[str] = Counter()
    for text in puzzles:
        grid = parse(text)
        solution = solve(grid)
        assert solution is not None
        sol = solution.cells
        start = Board.from_grid(grid)
        assert start is not None
        for board in positions(start):
            for slug in NEW:
                for step in itertools.islice(BY_SLUG[slug].find(board), per_position):
                    found[slug] += 1
                    wrong = [(c, v) for c, v in step.eliminations if sol[c] == v]
                    assert not wrong, step.sentence
                    assert step.eliminations or step.placements
    return found


def test_new_techniques_are_sound_on_the_steps_of_hard_puzzles():
    puzzles = load("se_rated_diabolical_b")[::60] + load("qqwing_expert")[:20]
    found = check_soundness(puzzles, per_position=2)
    assert sum(found.values()) > 2000
    for slug in ("finned_x_wing", "empty_rectangle", "als_xz", "x_cycle", "nice_loop"):
        assert found[slug] > 0, slug


@pytest.mark.slow
def test_new_techniques_are_sound_on_thousands_of_steps():
    puzzles = (
        load("se_rated_diabolical_b")[::24]
        + load("magictour_top1465")[:34]
        + load("qqwing_expert")[:34]
    )  # about 150 puzzles and 14,000 steps
    found = check_soundness(puzzles, per_position=3)
    assert sum(found.values()) > 5000
    assert all(found[slug] > 0 for slug in NEW if slug != "unique_rectangle_5"), found


def test_finned_fish_sizes_are_registered_with_their_own_slugs():
    assert isinstance(BY_SLUG["finned_x_wing"].find, partial)
    assert BY_SLUG["finned_swordfish"].level in ("hard", "expert")
