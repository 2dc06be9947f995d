"""Parsing and formatting of grids: every accepted format, every shape, errors that say where."""

import pytest

from solver import (
    Grid,
    ParseError,
    Shape,
    cell_name,
    format_line,
    format_pretty,
    parse,
    parse_many,
    tables,
    unit_name,
)

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_one_line_reads_dots_and_zeros_as_empty():
    grid = parse(EASY)
    assert grid.shape == Shape(3, 3)
    assert grid.cells[:4] == (0, 0, 3, 0)
    assert parse(EASY.replace(".", "0")) == grid


def test_grid_over_several_lines_reads_as_one():
    rows = "\n".join(EASY[i : i + 9] for i in range(0, 81, 9))
    assert parse(rows) == parse(EASY)


def test_pretty_grid_with_bars_dashes_and_pluses_round_trips():
    grid = parse(EASY)
    pretty = format_pretty(grid)
    assert "|" in pretty and "+" in pretty and "-" in pretty
    assert parse(pretty) == grid


def test_sdk_file_with_hash_header_lines():
    text = "#Aeasy puzzle\n#Bsomeone\n" + "\n".join(EASY[i : i + 9] for i in range(0, 81, 9))
    assert parse(text) == parse(EASY)


def test_sdm_collection_reads_one_puzzle_per_line_with_line_numbers():
    other = EASY.replace("3", ".", 1)
    text = f"{EASY}\n\n# a comment\n{other}\n"
    read = parse_many(text)
    assert [number for number, _ in read] == [1, 4]
    assert read[0][1] == parse(EASY)
    assert read[1][1] == parse(other)


def test_sdm_collection_keeps_good_lines_and_reports_bad_ones_by_line():
    read = parse_many(f"{EASY}\n{EASY[:80]}\n{EASY}\n")
    assert isinstance(read[0][1], Grid) and isinstance(read[2][1], Grid)
    assert isinstance(read[1][1], ParseError)
    assert str(read[1][1]) == "line 2: 80 cells, expected 81 (a 9x9 grid)"


@pytest.mark.parametrize(
    ("size", "box"),
    [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (12, (3, 4)), (16, (4, 4)), (25, (5, 5))],
)
def test_shape_comes_from_the_cell_count(size, box):
    grid = parse("." * size * size)
    assert grid.shape == Shape(*box)
    assert grid.size == size
    assert format_line(grid) == "." * size * size


def test_symbols_above_nine_are_letters():
    line = "G" + "." * 255
    grid = parse(line)
    assert grid.cells[0] == 16
    assert format_line(grid) == line
    assert parse("p" + "." * 624).cells[0] == 25


def test_explicit_box_shape_overrides_the_default():
    grid = parse("." * 36, box_rows=3, box_cols=2)
    assert grid.shape == Shape(3, 2)
    assert parse("." * 36).shape == Shape(2, 3)
    assert tables(grid.shape).box_of[3] == 1  # r1c4 sits in the second 3x2 box


def test_explicit_box_shape_that_does_not_fit_the_count_is_an_error():
    with pytest.raises(ParseError, match="36 cells, expected 64"):
        parse("." * 36, box_rows=4, box_cols=2)


def test_wrong_length_says_how_many_cells_and_what_was_expected():
    with pytest.raises(ParseError, match=r"^80 cells, expected 81 \(a 9x9 grid\)$"):
        parse(EASY[:80])
    with pytest.raises(ParseError, match="82 cells, expected 81"):
        parse(EASY + "1")
    # The count is named with its grid: "expected 16" alone reads like a 16x16 grid.
    with pytest.raises(ParseError, match=r"^5 cells, expected 16 \(a 4x4 grid\)$"):
        parse("12345")


def test_wrong_length_in_a_collection_names_the_line():
    read = parse_many(f"{EASY}\n{EASY}\n{EASY[:80]}")
    assert str(read[2][1]) == "line 3: 80 cells, expected 81 (a 9x9 grid)"


def test_unknown_symbol_names_the_cell():
    bad = EASY[:13] + "X" + EASY[14:]
    with pytest.raises(ParseError, match=r"cell r2c5: 'X' is not a symbol of a 9x9 grid"):
        parse(bad)


def test_symbol_too_big_for_the_grid_names_the_cell():
    with pytest.raises(ParseError, match=r"cell r1c2: 'A' is not a symbol of a 9x9 grid"):
        parse("." + "A" + "." * 79)


def test_empty_text_is_an_error():
    for text in ("", "   \n\n", "# only a header\n"):
        with pytest.raises(ParseError, match="empty"):
            parse(text)


def test_ten_thousand_characters_is_an_error_not_a_hang():
    with pytest.raises(ParseError, match="10000 cells"):
        parse("1" * 10_000)


def test_round_trip_through_one_line_on_every_shape():
    for box in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5)]:
        shape = Shape(*box)
        cells = tuple((i * 7) % (shape.size + 1) for i in range(shape.ncells))
        grid = Grid(shape, cells)
        assert parse(format_line(grid), box_rows=box[0], box_cols=box[1]) == grid
        assert parse(format_pretty(grid), box_rows=box[0], box_cols=box[1]) == grid


def test_cell_and_unit_names_count_from_one():
    shape = Shape(3, 3)
    assert cell_name(shape, 0) == "r1c1"
    assert cell_name(shape, 13) == "r2c5"
    assert unit_name(shape, 2) == "row 3"
    assert unit_name(shape, 9 + 4) == "column 5"
    assert unit_name(shape, 18 + 6) == "box 7"


def test_tables_give_every_cell_twenty_peers_on_9x9():
    t = tables(Shape(3, 3))
    assert all(len(p) == 20 for p in t.peers)
    assert len(t.units) == 27 and all(len(u) == 9 for u in t.units)


def test_a_row_per_line_grid_with_a_short_row_names_the_line():
    rows = [EASY[r * 9 : (r + 1) * 9] for r in range(9)]
    rows[4] = rows[4][:-1]
    with pytest.raises(ParseError, match=r"^line 5: 8 cells, expected 9 in a row$"):
        parse("\n".join(rows))


def test_a_cell_moved_between_rows_is_caught_even_when_the_total_is_right():
    lines = format_pretty(parse(EASY)).splitlines()
    lines[0] = lines[0].replace(". ", "", 1)  # row 1 loses a cell
    lines[2] = lines[2] + " ."  # row 3 gains one
    with pytest.raises(ParseError, match=r"^line 1: 8 cells, expected 9 in a row$"):
        parse("\n".join(lines))
