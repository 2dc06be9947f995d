"""Exact engine benchmark: puzzles per second, ours and the Norvig-style reference.

Both solvers run in the same process on the same puzzles, so every figure is also a ratio
that holds on a noisy machine. Times are CPU time of this process (``time.process_time``),
which other work on the machine stretches less than the wall clock. The reference is slow,
so on big sets it runs on the first puzzles only (the sample is given in the table); the
ratio compares both solvers on that same sample, and "ours" is also given over the whole
set. Run alone with ``python -m bench.solve [--quick]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from bench import norvig
from bench.grade import DATA
from solver.dlx import dlx_count
from solver.grid import Grid, parse
from solver.rules import is_solution
from solver.search import count_solutions, solve

# (set, mode, box side, reference sample, quick sample): solve = first solution,
# count = solutions up to 2 (the uniqueness check). The first six rows are the targets.
ROWS = (
    ("royle_17clue_first1000", "solve", 3, 200, 30),
    ("magictour_top1465", "solve", 3, 200, 30),
    ("norvig_top95", "solve", 3, 200, 30),
    ("forum_hardest_1106", "solve", 3, 200, 30),
    ("serg_multisolution_1000", "count", 3, 200, 30),
    ("norvig_top95", "count", 3, 200, 30),
    ("gen_16x16_unique", "solve", 4, 20, 5),
    ("gen_16x16_unique", "count", 4, 20, 5),
    ("gen_25x25_unique", "solve", 5, 10, 3),
    ("gen_25x25_unique", "count", 5, 10, 3),
)
TARGETS = 6
QUICK_OURS = 300  # quick runs time ours on this many puzzles of a set at most


def load(name: str) -> list[str]:
    lines = (DATA / f"{name}.txt").read_text().splitlines()
    return [line.split()[0] for line in lines if line.strip()]


def cpu(work: Callable[[], object]) -> float:
    started = time.process_time()
    work()
    return max(time.process_time() - started, 1e-9)


def ours(grids: list[Grid], mode: str) -> Callable[[], object]:
    if mode == "solve":
        return lambda: [solve(g) for g in grids]
    return lambda: [count_solutions(g, limit=2) for g in grids]


def reference(lines: list[str], mode: str, box: int) -> Callable[[], object]:
    if mode == "solve":
        return lambda: [norvig.solve(line, box, box) for line in lines]
    return lambda: [norvig.count_solutions(line, 2, box, box) for line in lines]


def oracle(grids: list[Grid]) -> Callable[[], object]:
    return lambda: [dlx_count(g, limit=2) for g in grids]


def check(lines: list[str], grids: list[Grid], mode: str, box: int) -> None:
    """Both solvers give the same answers on a few puzzles (a benchmark of wrong code is moot)."""
    for line, grid in zip(lines, grids, strict=True):
        if mode == "solve":
            found = solve(grid)
            assert found is not None and is_solution(grid, found), line
            assert norvig.solve(line, box, box) is not None, line
        else:
            assert count_solutions(grid, limit=2) == norvig.count_solutions(line, 2, box, box)


def run(quick: bool = False) -> list[str]:
    out = [
        "## Exact engine (solver.search)",
        "",
        "Exact engine vs the Norvig-style reference (bench/norvig.py), same process, CPU time.",
        "The reference runs on the first puzzles of a set (the sample column); the ratio is",
        "measured on those same puzzles, and ours /s over the whole set. Target: ratio >= 10",
        f"on the first {TARGETS} rows; the 16x16 and 25x25 rows are for information.",
        "",
        "| set | mode | puzzles | ours /s | reference /s | sample | ratio |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    worst = None
    for row, (name, mode, box, sample, quick_sample) in enumerate(ROWS):
        lines = load(name)
        if quick:
            lines = lines[:QUICK_OURS]
            sample = quick_sample
        grids = [parse(line) for line in lines]
        few_lines, few_grids = lines[:sample], grids[:sample]
        check(few_lines[:3], few_grids[:3], mode, box)
        whole = len(grids) / cpu(ours(grids, mode))
        ours_few = cpu(ours(few_grids, mode))
        ref_few = cpu(reference(few_lines, mode, box))
        ratio = ref_few / ours_few
        if row < TARGETS:
            worst = ratio if worst is None else min(worst, ratio)
        out.append(
            f"| {name} | {mode} | {len(grids)} | {whole:,.0f} | "
            f"{len(few_lines) / ref_few:,.1f} | {len(few_lines)} | {ratio:.1f}x |"
        )
    out.append("")
    out.append(f"Lowest ratio on the target rows: {worst:.1f}x.")
    out.append("")
    out.append("The DLX oracle (solver.dlx, Algorithm X), counting up to 2:")
    out.append("")
    out.append("| set | puzzles | DLX count /s | ours count /s |")
    out.append("|---|---:|---:|---:|")
    for name in ("norvig_top95", "gen_16x16_unique", "gen_25x25_unique"):
        grids = [parse(line) for line in load(name)[: 10 if quick else None]]
        dlx_rate = len(grids) / cpu(oracle(grids))
        count_rate = len(grids) / cpu(ours(grids, "count"))
        out.append(f"| {name} | {len(grids)} | {dlx_rate:,.1f} | {count_rate:,.1f} |")
    return out


if __name__ == "__main__":
    print("\n".join(run(quick="--quick" in sys.argv[1:])))
