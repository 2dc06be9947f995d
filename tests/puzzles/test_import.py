"""Imports: every puzzle checked, graded and deduplicated, with a report by line, and
never half done."""

from __future__ import annotations

import pytest

from puzzles import bank, imports
from puzzles.models import Puzzle, Source
from solver import parse
from tests.puzzles.helpers import NINE, TWO, disguise

pytestmark = pytest.mark.django_db

# Two of Norvig's easy puzzles.
EASY_A = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_B = "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3"


def mixed_file() -> str:
    return "\n".join(
        [
            "# a comment, then the puzzles",
            NINE,  # line 2: imported
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7x",
            TWO,  # line 4: more than one solution
            EASY_A,  # line 5: imported
            disguise(NINE),  # line 6: the puzzle of line 2 in disguise
            "55" + NINE[2:],  # line 7: no solution
            "123",  # line 8: not a grid
            EASY_B,  # line 9: imported
        ]
    )


def test_it_imports_the_good_lines_and_reports_the_others_by_line():
    report = imports.puzzle_import_text(text=mixed_file())
    assert [(line.line, line.status) for line in report.lines] == [
        (2, "imported"),
        (3, "invalid"),
        (4, "multiple_solutions"),
        (5, "imported"),
        (6, "duplicate"),
        (7, "invalid"),
        (8, "invalid"),
        (9, "imported"),
    ]
    by_line = {line.line: line.message for line in report.lines}
    assert "cell r9c9: 'x' is not a symbol of a 9x9 grid" in by_line[3]
    assert "more than one solution" in by_line[4]
    assert by_line[6] == "the same puzzle as line 2"
    assert "r1c1 and r1c2 both hold 5" in by_line[7]
    assert "3 cells" in by_line[8]
    assert report.counts == {"imported": 3, "duplicate": 1, "invalid": 3, "multiple_solutions": 1}
    assert Puzzle.objects.count() == 3
    assert set(Puzzle.objects.values_list("source", flat=True)) == {Source.IMPORTED}


def test_importing_the_same_file_twice_adds_nothing_the_second_time():
    imports.puzzle_import_text(text=mixed_file())
    stored = set(Puzzle.objects.values_list("id", flat=True))
    again = imports.puzzle_import_text(text=mixed_file())
    assert again.counts["imported"] == 0
    assert again.counts["duplicate"] == 4
    assert set(Puzzle.objects.values_list("id", flat=True)) == stored


def test_a_puzzle_in_disguise_is_a_duplicate_of_the_bank():
    stored, _ = bank.puzzle_get_or_create_from_grid(grid=parse(NINE))
    report = imports.puzzle_import_text(text=disguise(NINE) + "\n")
    assert [(line.status, line.puzzle_id) for line in report.lines] == [("duplicate", stored.pk)]
    assert f"already in the bank as #{stored.pk}" in report.lines[0].message


def test_a_strict_import_with_a_bad_line_imports_nothing():
    with pytest.raises(imports.ImportRejected) as caught:
        imports.puzzle_import_text(text=mixed_file(), strict=True)
    assert not Puzzle.objects.exists()
    assert caught.value.report.committed is False
    assert "4 bad line(s) (3, 4, 7, 8)" in caught.value.message


def test_a_strict_import_of_good_lines_imports_them_all():
    report = imports.puzzle_import_text(text=f"{EASY_A}\n{EASY_B}\n", strict=True)
    assert report.counts["imported"] == 2


def test_an_import_that_crashes_half_way_leaves_nothing(monkeypatch):
    real = bank.puzzle_get_or_create_from_grid
    calls = []

    def crash_on_the_second(**kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("database went away")
        return real(**kwargs)

    monkeypatch.setattr(imports, "puzzle_get_or_create_from_grid", crash_on_the_second)
    with pytest.raises(RuntimeError):
        imports.puzzle_import_text(text=f"{EASY_A}\n{EASY_B}\n")
    assert not Puzzle.objects.exists()


def test_it_reads_sdm_with_zeros_for_empty_cells():
    report = imports.puzzle_import_file(data=f"{NINE.replace('.', '0')}\n".encode())
    assert report.counts["imported"] == 1
    assert Puzzle.objects.get().givens == NINE


def test_it_reads_an_sdk_file():
    rows = [NINE[r * 9 : r * 9 + 9] for r in range(9)]
    sdk = "#A Example\n#D From the wiki\n[Puzzle]\n" + "\n".join(rows) + "\n"
    report = imports.puzzle_import_file(data=sdk.encode())
    assert [(line.line, line.status) for line in report.lines] == [(4, "imported")]
    assert Puzzle.objects.get().givens == NINE


def test_it_imports_other_sizes():
    four = "1.3.34.22.4..3.1"
    report = imports.puzzle_import_text(text=four + "\n")
    assert report.counts["imported"] == 1
    assert Puzzle.objects.get().size == 4


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"\xff\xfe1.3.", "line 1: the file is not UTF-8 text"),
        (b"# only a comment\n\n", "holds no puzzle"),
        (b"x" * (imports.IMPORT_MAX_BYTES + 1), "the limit is"),
    ],
)
def test_an_unreadable_file_is_refused_saying_why(data, says):
    with pytest.raises(imports.ImportUnreadable, match=says):
        imports.puzzle_import_file(data=data)
