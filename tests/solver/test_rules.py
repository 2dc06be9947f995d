"""Conflicts (every clashing pair with its unit) and the independent validity check."""

from solver import Conflict, Grid, Shape, conflicts, is_solution, parse

SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_a_valid_puzzle_has_no_conflicts():
    assert conflicts(parse(PUZZLE)) == []


def test_two_equal_values_in_a_row_are_one_row_conflict():
    grid = parse("5..5" + "." * 77)
    assert conflicts(grid) == [Conflict(cells=(0, 3), unit=0, kind="row", value=5)]


def test_a_pair_in_a_row_and_a_box_is_reported_for_both_units():
    grid = parse("7.7" + "." * 78)
    found = conflicts(grid)
    assert {(c.kind, c.unit) for c in found} == {("row", 0), ("box", 18)}
    assert all(c.cells == (0, 2) and c.value == 7 for c in found)


def test_column_conflict_names_the_column():
    cells = [0] * 81
    cells[4] = cells[9 * 8 + 4] = 2
    (found,) = conflicts(Grid(Shape(3, 3), tuple(cells)))
    assert found == Conflict(cells=(4, 76), unit=9 + 4, kind="column", value=2)


def test_three_equal_values_give_every_pair():
    grid = parse("1.1.1" + "." * 76)
    rows = [c.cells for c in conflicts(grid) if c.kind == "row"]
    assert rows == [(0, 2), (0, 4), (2, 4)]


def test_conflicts_on_a_16x16_grid_use_its_boxes():
    cells = [0] * 256
    cells[0] = cells[16 * 3 + 3] = 16  # r1c1 and r4c4 share the first 4x4 box
    (found,) = conflicts(Grid(Shape(4, 4), tuple(cells)))
    assert found.kind == "box" and found.unit == 32 and found.value == 16


def test_is_solution_accepts_the_solution():
    assert is_solution(parse(PUZZLE), parse(SOLVED))


def test_is_solution_rejects_an_incomplete_grid():
    assert not is_solution(parse(PUZZLE), parse("." + SOLVED[1:]))


def test_is_solution_rejects_a_grid_that_changes_a_given():
    # Swapping two values of a solution keeps every unit a permutation only by luck; here the
    # grid is a valid solution of another puzzle, so only the givens tell it apart.
    other = SOLVED.translate(str.maketrans("123456789", "234567891"))
    assert is_solution(Grid.empty(Shape(3, 3)), parse(other))
    assert not is_solution(parse(PUZZLE), parse(other))


def test_is_solution_rejects_a_repeated_value_in_a_box():
    # Swap two cells of one row: the row stays a permutation, the columns do not.
    swapped = SOLVED[1] + SOLVED[0] + SOLVED[2:]
    assert not is_solution(Grid.empty(Shape(3, 3)), parse(swapped))


def test_is_solution_rejects_a_latin_square_whose_boxes_repeat():
    latin = "".join(str((r + c) % 9 + 1) for r in range(9) for c in range(9))
    assert not is_solution(Grid.empty(Shape(3, 3)), parse(latin))


def test_is_solution_rejects_another_shape():
    assert not is_solution(parse("." * 36, box_rows=3, box_cols=2), parse("." * 36))
