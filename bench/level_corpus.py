"""``python -m bench.level_corpus [--case V:S:L ...] [--skip V:S:L ...] [--jobs N]``: write the
corpus of generated variant puzzles that ``tests/solver/test_variant_level_corpus.py`` grades.

One gzipped file per case (variant, size, level) in ``tests/solver/data/level_corpus/``,
one JSON line per seed ``0..N-1`` of :func:`solver.generation.general.generate_variant`:
``variant``, ``size``, ``level`` (asked), ``seed``, ``rules`` (:meth:`Rules.to_dict`),
``puzzle`` and ``solution`` (digits, row by row, 0 for an empty cell); a seed that reached
no puzzle is written with ``"failed": true`` and nothing else. docs/grading.md says what
the test proves with it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from solver.generation.general import (
    VariantGenerationFailed,
    generate_variant,
    supported_variant_levels,
)
from solver.grid import Grid
from solver.rules.ruleset import Rules

DIR = Path(__file__).resolve().parent.parent / "tests" / "solver" / "data" / "level_corpus"
VARIANTS = ("diagonal", "jigsaw", "killer")
SIZES = (6, 9)
COUNTS = {6: 100, 9: 100}
"""Puzzles per case (seeds 0..N-1) by size: as many as the test grades in well under a
minute of CPU (200 at 9x9 took it 90 s)."""
COMMAND = "python -m bench.level_corpus"

Case = tuple[str, int, str]

NOT_YET: tuple[Case, ...] = ()
"""Cases left out unless asked for by ``--case`` (none since a 9x9 master Killer takes
about 2 s of CPU to make, from 7-13 s)."""


def all_cases() -> list[Case]:
    """Every (variant, size, level) the generator offers at the corpus's sizes."""
    return [
        (variant, size, level)
        for variant in VARIANTS
        for size in SIZES
        for level in supported_variant_levels(variant, size)
    ]


def case_name(case: Case) -> str:
    """``killer:9:hard``, as ``--case`` takes it."""
    return ":".join(map(str, case))


def parse_case(text: str) -> Case:
    """The case ``killer:9:hard`` names; ValueError when it is not one of :func:`all_cases`."""
    variant, _, rest = text.partition(":")
    size, _, level = rest.partition(":")
    case = (variant, int(size) if size.isdigit() else 0, level)
    if case not in all_cases():
        raise ValueError(f"unknown case {text!r}: write variant:size:level, e.g. killer:9:hard")
    return case


def case_path(case: Case) -> Path:
    variant, size, level = case
    return DIR / f"{variant}_{size}_{level}.jsonl.gz"


def regenerate_hint(case: Case) -> str:
    return f"{COMMAND} --case {case_name(case)}"


def puzzle_record(case: Case, seed: int) -> dict[str, Any]:
    """The corpus line of ``seed``: the generator's puzzle, or a failure."""
    variant, size, level = case
    head: dict[str, Any] = {"variant": variant, "size": size, "level": level, "seed": seed}
    try:
        made = generate_variant(variant, size, level=level, seed=seed)
    except VariantGenerationFailed:
        return {**head, "failed": True}
    return {
        **head,
        "rules": made.rules.to_dict(),
        "puzzle": "".join(map(str, made.puzzle.cells)),
        "solution": "".join(map(str, made.solution.cells)),
    }


def read_case(case: Case) -> list[dict[str, Any]]:
    """The stored lines of ``case`` (empty when it has no file)."""
    path = case_path(case)
    if not path.exists():
        return []
    with gzip.open(path, "rt") as f:
        return [json.loads(line) for line in f]


def decoded(record: dict[str, Any]) -> tuple[Rules, Grid, Grid]:
    """A stored line's rules, givens and solution."""
    rules = Rules.from_dict(record["rules"])
    puzzle = Grid(rules.shape, tuple(int(ch) for ch in record["puzzle"]))
    solution = Grid(rules.shape, tuple(int(ch) for ch in record["solution"]))
    return rules, puzzle, solution


def write_case(case: Case, count: int | None = None) -> tuple[Case, int, int, float]:
    """Generate and write ``case``: (case, puzzles, failed seeds, CPU seconds)."""
    started = time.process_time()
    n = count if count is not None else COUNTS[case[1]]
    records = [puzzle_record(case, seed) for seed in range(n)]
    DIR.mkdir(parents=True, exist_ok=True)
    lines = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    # mtime=0: the same puzzles write the same bytes, so an unchanged case shows no diff
    with open(case_path(case), "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write(lines.encode())
    failed = sum(bool(r.get("failed")) for r in records)
    return case, n - failed, failed, time.process_time() - started


def _run(cases: list[Case], jobs: int, count: int | None) -> Iterator[tuple[Case, int, int, float]]:
    if jobs <= 1:
        yield from (write_case(case, count) for case in cases)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(write_case, cases, [count] * len(cases))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--case", action="append", default=[], help="only this case (repeatable): killer:9:hard"
    )
    parser.add_argument("--skip", action="append", default=[], help="leave this case out")
    parser.add_argument("--jobs", type=int, default=1, help="cases made in parallel processes")
    parser.add_argument("--count", type=int, help="seeds per case (default: COUNTS)")
    args = parser.parse_args(argv)
    try:
        asked = [parse_case(c) for c in args.case]
        skipped = {parse_case(c) for c in args.skip}
    except ValueError as exc:
        parser.error(str(exc))
    cases = asked or [c for c in all_cases() if c not in NOT_YET]
    cases = [c for c in cases if c not in skipped]
    for case, made, failed, cpu in _run(cases, args.jobs, args.count):
        note = f", {failed} seeds failed" if failed else ""
        print(f"{case_name(case)}: {made} puzzles in {cpu:.1f} s of CPU{note}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
