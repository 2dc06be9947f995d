"""The command line: ``python -m solver COMMAND [FILE] [options]``.

Puzzles are read from FILE, or from standard input when FILE is ``-`` or left out: one per
line (``.sdm``), or a single grid over several lines (pretty, ``.sdk``). Each puzzle gets one
line of answer, in order; a puzzle that cannot be answered gets ``error: <reason>``.

    solve     the solution in one-line form, or ``no solution``
    count     the number of solutions, up to ``--limit`` (default 2: 1 means unique)
    grade     ``<level> <score> <hardest technique>``
    hint      the sentence of the next logical step
    steps     every step of the logic solution, one per line, for one puzzle
    generate  new puzzles, one per line (``--size``, ``--difficulty``, ``--count``, ...)
    canon     the canonical key: equal for puzzles that are the same up to symmetry

``--budget N`` caps the work of one puzzle: search nodes for solve and count (default
``DEFAULT_NODE_BUDGET``), technique passes for grade, hint and steps (default: no cap; their
uniqueness check uses the node default). Exit status: 0 when every puzzle was answered
without error, 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TextIO

from solver.generation.classic import SYMMETRIES, GenerationFailed, generate
from solver.grid import (
    VALID_SIZES,
    BudgetExceeded,
    Grid,
    ParseError,
    cell_name,
    format_line,
    parse,
    parse_many,
    unit_name,
)
from solver.logic.classic import logic_solve, next_step
from solver.logic.grade import LEVELS, grade
from solver.rules.canon import canonical_key
from solver.rules.checks import conflicts
from solver.search.exact import DEFAULT_NODE_BUDGET, count_solutions, solve

PER_PUZZLE = ("solve", "count", "grade", "hint", "canon")


class Failure(Exception):
    """A puzzle that gets an ``error:`` line instead of an answer."""


def positive(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is too small: give 1 or more")
    return value


def box_shape(text: str) -> tuple[int, int]:
    """An argparse type: a box shape written ``RxC`` (``3x2``)."""
    rows, sep, cols = text.lower().partition("x")
    if not sep or not rows.isdigit() or not cols.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a box shape like 3x2")
    return int(rows), int(cols)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m solver",
        description="Solve, count, grade, hint, generate and canonicalise Sudoku puzzles.",
        epilog="Exit status: 0 every puzzle answered, 1 some error, 2 bad arguments.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def reader(name: str, help: str, budget: str | None) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        sub.add_argument("file", nargs="?", default="-", help="puzzle file, or - for stdin")
        sub.add_argument("--box", type=box_shape, metavar="RxC", help="box shape, e.g. 3x2")
        if budget:
            sub.add_argument("--budget", type=positive, metavar="N", help=budget)
        return sub

    nodes = f"search nodes per puzzle (default {DEFAULT_NODE_BUDGET})"
    passes = "technique passes per puzzle (default: no cap)"
    reader("solve", "print each puzzle's solution", nodes)
    count = reader("count", "print each puzzle's number of solutions", nodes)
    count.add_argument("--limit", type=positive, default=2, help="stop counting here (2)")
    reader("grade", "print each puzzle's level, score and hardest technique", passes)
    reader("hint", "print the next logical step of each puzzle", passes)
    reader("steps", "print every logical step of one puzzle", passes)
    reader("canon", "print each puzzle's canonical key", None)

    gen = commands.add_parser("generate", help="make new puzzles with one solution each")
    gen.add_argument("--size", type=int, choices=VALID_SIZES, default=9, metavar="N")
    gen.add_argument("--difficulty", choices=LEVELS, help="level (default: any)")
    gen.add_argument("--count", type=positive, default=1, help="how many (1)")
    gen.add_argument("--seed", default="0", help="same seed, same puzzles (0)")
    gen.add_argument("--symmetry", choices=SYMMETRIES, default="none")
    gen.add_argument("--minimal", action="store_true", help="no clue can be removed")
    return parser


# ---------------------------------------------------------------------------------------
# Answers for one puzzle


def check_givens(grid: Grid) -> None:
    """Fail with the first clash between givens, naming both cells and the unit."""
    found = conflicts(grid)
    if found:
        clash = found[0]
        a, b = (cell_name(grid.shape, c) for c in clash.cells)
        where = unit_name(grid.shape, clash.unit)
        symbol = format_line(grid)[clash.cells[0]]
        raise Failure(f"givens clash: {a} and {b} both hold {symbol} in {where}")


def check_unique(grid: Grid) -> None:
    """Fail unless the puzzle has exactly one solution (logic assumes it does)."""
    count = count_solutions(grid, limit=2, budget=DEFAULT_NODE_BUDGET)
    if count == 0:
        raise Failure("no solution")
    if count > 1:
        raise Failure("more than one solution: hints and grades need a unique puzzle")


def answer_solve(grid: Grid, args: argparse.Namespace) -> str:
    found = solve(grid, budget=args.budget or DEFAULT_NODE_BUDGET)
    return format_line(found) if found is not None else "no solution"


def answer_count(grid: Grid, args: argparse.Namespace) -> str:
    return str(count_solutions(grid, limit=args.limit, budget=args.budget or DEFAULT_NODE_BUDGET))


def answer_grade(grid: Grid, args: argparse.Namespace) -> str:
    check_unique(grid)
    rated = grade(grid, budget=args.budget)
    return f"{rated.level} {rated.score} {rated.hardest}"


def answer_hint(grid: Grid, args: argparse.Namespace) -> str:
    check_unique(grid)
    step = next_step(grid, budget=args.budget)
    return step.sentence if step is not None else "solved: no step left"


def answer_canon(grid: Grid, args: argparse.Namespace) -> str:
    return canonical_key(grid)


def answer_steps(grid: Grid, args: argparse.Namespace) -> list[str]:
    check_unique(grid)
    result = logic_solve(grid, budget=args.budget)
    lines = [step.sentence for step in result.steps]
    if not result.solved:
        left = sum(1 for v in result.grid.cells if not v)
        lines.append(f"no technique applies now: {left} cells are left to search")
    return lines


ANSWERS: dict[str, Callable[[Grid, argparse.Namespace], str]] = {
    "solve": answer_solve,
    "count": answer_count,
    "grade": answer_grade,
    "hint": answer_hint,
    "canon": answer_canon,
}


def guarded(work: Callable[[], str | list[str]]) -> tuple[list[str], bool]:
    """Run one puzzle's answer: (lines, ok); every failure becomes an ``error:`` line."""
    try:
        out = work()
    except (Failure, ParseError) as exc:
        return [f"error: {exc}"], False
    except BudgetExceeded as exc:
        return [f"error: gave up: {exc} (--budget allows more)"], False
    except (ValueError, GenerationFailed) as exc:  # NoSolution, MultipleSolutions, ...
        return [f"error: {exc}"], False
    except RecursionError:
        return ["error: the puzzle is too deep to work through"], False
    except Exception as exc:  # no traceback escapes the command line
        return [f"error: internal error ({type(exc).__name__}: {exc})"], False
    return ([out] if isinstance(out, str) else out), True


# ---------------------------------------------------------------------------------------
# Commands


def read_input(path: str, stdin: TextIO) -> str:
    """The text of FILE or of stdin; bytes that are not UTF-8 become U+FFFD (then a bad
    symbol in that puzzle's error line), never an exception."""
    if path == "-":
        raw = getattr(stdin, "buffer", None)
        return raw.read().decode("utf-8", errors="replace") if raw is not None else stdin.read()
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def run_puzzles(args: argparse.Namespace, text: str, out: TextIO) -> int:
    box = args.box or (None, None)
    entries = parse_many(text, box_rows=box[0], box_cols=box[1])
    if not entries:
        print("error: no puzzle in the input", file=out)
        return 1
    answer = ANSWERS[args.command]
    ok = True
    for _, grid in entries:

        def work(grid: Grid | ParseError = grid) -> str:
            if isinstance(grid, ParseError):
                raise grid
            check_givens(grid)
            return answer(grid, args)

        lines, good = guarded(work)
        ok = ok and good
        for line in lines:
            print(line, file=out, flush=True)
    return 0 if ok else 1


def run_steps(args: argparse.Namespace, text: str, out: TextIO) -> int:
    box = args.box or (None, None)

    def work() -> list[str]:
        grid = parse(text, box_rows=box[0], box_cols=box[1])
        check_givens(grid)
        return answer_steps(grid, args)

    lines, ok = guarded(work)
    for line in lines:
        print(line, file=out, flush=True)
    return 0 if ok else 1


def run_generate(args: argparse.Namespace, out: TextIO) -> int:
    base: str = args.seed
    numeric = base.lstrip("-").isdigit()
    for i in range(args.count):
        # One seed per puzzle: S, S+1, ... for a number, "S:0", "S:1", ... for a word.
        seed: int | str = (
            (int(base) + i if numeric else f"{base}:{i}")
            if args.count > 1
            else (int(base) if numeric else base)
        )

        def work(seed: int | str = seed) -> str:
            made = generate(
                args.size,
                level=args.difficulty,
                symmetry=args.symmetry,
                seed=seed,
                minimal=args.minimal,
            )
            return format_line(made.puzzle)

        lines, ok = guarded(work)
        for line in lines:
            print(line, file=out, flush=True)
        if not ok:
            return 1
    return 0


def main(
    argv: list[str] | None = None, stdin: TextIO | None = None, out: TextIO | None = None
) -> int:
    """Run the command line; returns the exit status."""
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage and the reason
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.command == "generate":
            return run_generate(args, out)
        try:
            text = read_input(args.file, stdin)
        except OSError as exc:
            parser.error(f"cannot read {args.file}: {exc.strerror or exc}")
        if args.command == "steps":
            return run_steps(args, text, out)
        return run_puzzles(args, text, out)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # the last guard: no traceback escapes the command line
        print(f"error: internal error ({type(exc).__name__}: {exc})", file=out)
        return 1


if __name__ == "__main__":
    status = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 1
    sys.exit(status)
