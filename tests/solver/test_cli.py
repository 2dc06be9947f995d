"""The command line: every command, its answers, bad input and exit statuses."""

import io
import subprocess
import sys
from pathlib import Path

import pytest

from solver import LEVELS, count_solutions, is_solution, parse
from solver.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
UNSOLVABLE = "12345678." + "." * 8 + "9" + "." * 63  # r1c9 can hold nothing
MULTI = "." * 81
# A puzzle the logic engine cannot finish (its techniques run out before search).
STUCK = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def run(*argv: str, stdin: str = "") -> tuple[int, list[str]]:
    """main(argv) with ``stdin``; (exit status, output lines)."""
    out = io.StringIO()
    status = main(list(argv), stdin=io.StringIO(stdin), out=out)
    return status, out.getvalue().splitlines()


def run_process(*argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "solver", *argv],
        input=stdin,
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )


def test_solve_answers_each_line_in_order():
    status, lines = run("solve", stdin=f"{PUZZLE}\n{HARD}\n")
    assert status == 0
    assert lines[0] == SOLVED
    assert len(lines) == 2 and is_solution(parse(HARD), parse(lines[1]))


def test_solve_says_no_solution_and_that_is_not_an_error():
    assert run("solve", stdin=UNSOLVABLE) == (0, ["no solution"])


def test_solve_reads_a_pretty_grid_from_a_file(tmp_path):
    rows = [PUZZLE[i : i + 9] for i in range(0, 81, 9)]
    pretty = "\n".join(" | ".join((r[:3], r[3:6], r[6:])) for r in rows)
    path = tmp_path / "puzzle.sdk"
    path.write_text("#A an .sdk header\n" + pretty + "\n")
    assert run("solve", str(path)) == (0, [SOLVED])


def test_count_stops_at_the_limit():
    status, lines = run("count", stdin=f"{PUZZLE}\n{MULTI}\n{UNSOLVABLE}\n")
    assert (status, lines) == (0, ["1", "2", "0"])
    assert run("count", "--limit", "7", stdin=MULTI) == (0, ["7"])


def test_count_with_an_explicit_box_shape():
    # 6x6 with 3x2 boxes instead of the default 2x3: a different puzzle.
    assert run("count", "--box", "3x2", "--limit", "3", stdin="." * 36) == (0, ["3"])
    status, lines = run("count", "--box", "3x3", stdin="." * 36)
    assert status == 1 and lines[0].startswith("error: line 1: 36 cells, expected 81")


def test_grade_prints_level_score_and_hardest_technique():
    status, lines = run("grade", stdin=PUZZLE)
    assert status == 0
    level, score, hardest = lines[0].split()
    assert level in LEVELS and int(score) > 0 and hardest


def test_grade_refuses_a_puzzle_without_one_solution():
    status, lines = run("grade", stdin=f"{MULTI}\n{UNSOLVABLE}\n")
    assert status == 1
    assert lines[0].startswith("error: more than one solution")
    assert lines[1] == "error: no solution"


def test_hint_gives_a_sentence_naming_a_cell():
    status, lines = run("hint", stdin=PUZZLE)
    assert status == 0 and len(lines) == 1
    assert "r" in lines[0] and lines[0].endswith(".")


def test_hint_on_a_solved_grid_says_so():
    assert run("hint", stdin=SOLVED) == (0, ["solved: no step left"])


def test_steps_lists_the_logic_solution_one_step_per_line():
    status, lines = run("steps", stdin=PUZZLE)
    assert status == 0
    assert len(lines) >= PUZZLE.count(".")  # at least one step per empty cell
    assert all(line.endswith(".") for line in lines)


def test_steps_says_when_logic_runs_out():
    status, lines = run("steps", stdin=STUCK)
    assert status == 0
    assert lines[-1].startswith("no technique applies now") and "left to search" in lines[-1]


def test_steps_wants_one_puzzle():
    status, lines = run("steps", stdin=f"{PUZZLE}\n{PUZZLE}\n")
    assert status == 1 and lines[0].startswith("error: the text holds 2 lines")


def test_generate_makes_unique_puzzles_reproducibly():
    argv = ("generate", "--size", "9", "--difficulty", "easy", "--count", "3", "--seed", "5")
    status, lines = run(*argv)
    assert status == 0 and len(lines) == 3 and len(set(lines)) == 3
    assert all(count_solutions(parse(line), limit=2) == 1 for line in lines)
    assert run(*argv) == (0, lines)


def test_generate_with_symmetry_and_minimal_on_4x4():
    argv = ("generate", "--size", "4", "--symmetry", "rotational", "--minimal", "--seed", "x")
    status, lines = run(*argv)
    assert status == 0 and len(lines[0]) == 16
    grid = parse(lines[0])
    assert count_solutions(grid, limit=2) == 1
    assert all(bool(a) == bool(b) for a, b in zip(grid.cells, reversed(grid.cells), strict=True))


def test_generate_reports_a_level_the_size_cannot_reach():
    status, lines = run("generate", "--size", "4", "--difficulty", "master")
    assert status == 1 and lines[0].startswith("error: ")


def test_canon_is_the_same_for_a_relabelled_puzzle():
    relabelled = PUZZLE.translate(str.maketrans("123456789", "912345678"))
    status, lines = run("canon", stdin=f"{PUZZLE}\n{relabelled}\n")
    assert status == 0 and lines[0] == lines[1]


def test_duplicate_givens_name_both_cells_and_the_unit():
    status, lines = run("solve", stdin="5..5" + "." * 77)
    assert (status, lines) == (1, ["error: givens clash: r1c1 and r1c4 both hold 5 in row 1"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (PUZZLE[:80], "error: line 1: 80 cells, expected 81 (a 9x9 grid)"),
        (PUZZLE + "1", "error: line 1: 82 cells, expected 81 (a 9x9 grid)"),
        ("X" + PUZZLE[1:], "error: line 1: cell r1c1: 'X' is not a symbol of a 9x9 grid"),
        ("1" * 10_000, "error: line 1: 10000 cells, expected 625 at most"),
        ("", "error: no puzzle in the input"),
        ("\n  \n# only a comment\n", "error: no puzzle in the input"),
    ],
    ids=["short", "long", "symbol", "ten-thousand", "empty", "blank"],
)
@pytest.mark.parametrize("command", ["solve", "count", "grade", "hint", "canon"])
def test_bad_input_is_an_error_line_and_exit_one(command, text, message):
    assert run(command, stdin=text) == (1, [message])


def test_one_bad_line_does_not_stop_the_others():
    status, lines = run("solve", stdin=f"{PUZZLE}\n{PUZZLE[:80]}\n{PUZZLE}\n")
    assert status == 1
    assert lines == [SOLVED, "error: line 2: 80 cells, expected 81 (a 9x9 grid)", SOLVED]


def test_budget_too_small_is_an_error_line():
    status, lines = run("count", "--budget", "5", stdin=STUCK)
    assert status == 1 and lines[0].startswith("error: gave up: the search used up its budget")


@pytest.mark.parametrize(
    "argv",
    [
        ["frobnicate"],
        [],
        ["count", "--limit", "0"],
        ["solve", "--budget", "many"],
        ["generate", "--size", "7"],
        ["generate", "--difficulty", "impossible"],
        ["solve", "--box", "3by2"],
        ["solve", "/no/such/file"],
    ],
)
def test_bad_arguments_exit_two(argv, capsys):
    assert main(argv, stdin=io.StringIO(PUZZLE), out=io.StringIO()) == 2
    assert "usage:" in capsys.readouterr().err


def test_the_module_runs_and_never_prints_a_traceback():
    done = run_process("solve", stdin=b"\xff\xfe" + b"1" * 10_000 + b"\n" + PUZZLE.encode())
    assert done.returncode == 1
    assert done.stdout.decode().splitlines()[1] == SOLVED
    assert b"Traceback" not in done.stderr and done.stderr == b""
    assert run_process("count", stdin=PUZZLE.encode()).stdout == b"1\n"
    assert run_process("nonsense").returncode == 2


def test_the_benchmarks_are_not_a_command_of_the_engine():
    # They live in the bench package (python -m bench solve grade generate).
    assert main(["bench"], out=io.StringIO()) == 2
