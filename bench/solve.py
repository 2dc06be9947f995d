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
from pathlib import Path

from bench import norvig
from solver.dlx import dlx_count
from solver.grid import Grid, parse
from solver.rules import is_solution
from solver.search import count_solutions, solve

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "puzzles"

# (set, mode): solve = first solution, count = solutions up to 2 (the uniqueness check).
ROWS = (
    ("royle_17clue_first1000", "solve"),
    ("magictour_top1465", "solve"),
    ("norvig_top95", "solve"),
    ("forum_hardest_1106", "solve"),
    ("serg_multisolution_1000", "count"),
    ("norvig_top95", "count"),
)
BIG = ("gen_16x16_unique", "gen_25x25_unique")  # ours and the DLX oracle only
SAMPLE = 200  # puzzles the reference runs per set (quick: QUICK_SAMPLE)
QUICK_SAMPLE = 30
QUICK_OURS = 300


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


def reference(lines: list[str], mode: str) -> Callable[[], object]:
    if mode == "solve":
        return lambda: [norvig.solve(line) for line in lines]
    return lambda: [norvig.count_solutions(line, limit=2) for line in lines]


def check(lines: list[str], grids: list[Grid], mode: str) -> None:
    """Both solvers give the same answers on the sample (a benchmark of wrong code is moot)."""
    for line, grid in zip(lines, grids, strict=True):
        if mode == "solve":
            found = solve(grid)
            assert found is not None and is_solution(grid, found), line
            assert norvig.solve(line) is not None, line
        else:
            assert count_solutions(grid, limit=2) == norvig.count_solutions(line, limit=2), line


def run(quick: bool = False) -> list[str]:
    sample = QUICK_SAMPLE if quick else SAMPLE
    out = [
        "## Exact engine (solver.search)",
        "",
        "Exact engine vs the Norvig-style reference (bench/norvig.py), same process, CPU time.",
        f"The reference runs on the first {sample} puzzles of a set; the ratio is measured on",
        "those same puzzles. Target: ratio >= 10 on every row.",
        "",
        "| set | mode | puzzles | ours /s | reference /s | ratio (sample) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    worst = None
    for name, mode in ROWS:
        lines = load(name)
        if quick:
            lines = lines[:QUICK_OURS]
        grids = [parse(line) for line in lines]
        few_lines, few_grids = lines[:sample], grids[:sample]
        check(few_lines[:10], few_grids[:10], mode)
        whole = len(grids) / cpu(ours(grids, mode))
        ours_few = cpu(ours(few_grids, mode))
        ref_few = cpu(reference(few_lines, mode))
        ratio = ref_few / ours_few
        worst = ratio if worst is None else min(worst, ratio)
        out.append(
            f"| {name} | {mode} | {len(grids)} | {whole:,.0f} | "
            f"{len(few_lines) / ref_few:,.0f} (first {len(few_lines)}) | {ratio:.1f}x |"
        )
    out.append("")
    out.append(f"Lowest ratio: {worst:.1f}x.")
    out.append("")
    out.append("Bigger grids (no reference: it takes minutes per 16x16 puzzle); count = up to 2.")
    out.append("")
    out.append("| set | puzzles | ours solve /s | ours count /s | DLX oracle count /s |")
    out.append("|---|---:|---:|---:|---:|")
    for name in BIG:
        lines = load(name)[: 10 if quick else None]
        grids = [parse(line) for line in lines]
        solve_rate = len(grids) / cpu(ours(grids, "solve"))
        count_rate = len(grids) / cpu(ours(grids, "count"))
        dlx_rate = len(grids) / cpu(lambda grids=grids: [dlx_count(g, limit=2) for g in grids])
        out.append(
            f"| {name} | {len(grids)} | {solve_rate:,.1f} | {count_rate:,.1f} | {dlx_rate:,.1f} |"
        )
    return out


if __name__ == "__main__":
    print("\n".join(run(quick="--quick" in sys.argv[1:])))
