"""Generator and canonical-form benchmark: puzzles per second by level, seconds per big
puzzle, milliseconds per canonical key.

Run alone with ``python -m bench.generate [--quick]`` or with the others via ``python -m
bench``. Wall-clock and CPU time are both reported; the targets (on one core) are judged on
CPU time, which is what one core spends even when other work shares the machine and
stretches the wall clock.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from bench.grade import load
from solver.canon import canonical_key
from solver.generate import Generated, generate, supported_levels
from solver.grade import LEVELS
from solver.search import count_solutions

TARGET_9X9_PER_SECOND = 20
TARGET_LEVEL_PER_SECOND = {"expert": 1.0, "master": 0.5}
"""The slowest levels' own floors (9x9, one core's CPU time)."""
TARGET_16X16_SECONDS = 2
TARGET_25X25_SECONDS = 20


def _timed(size: int, level: str | None, seed: str) -> tuple[Generated, float, float]:
    """A generated puzzle, checked, with its wall-clock and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    made = generate(size, level=level, seed=seed)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if count_solutions(made.puzzle, limit=2) != 1:
        raise AssertionError(f"{size}x{size} {level} seed {seed}: not one solution")
    if level is not None and made.grade.level != level:
        raise AssertionError(f"{size}x{size} seed {seed}: {made.grade.level}, asked {level}")
    return made, wall, cpu


def _nine_by_nine(count: int) -> list[str]:
    lines = [
        f"9x9, {count} puzzles per level (seeds `bench:0`..), each checked with "
        "`count_solutions(limit=2) == 1` and its grade:",
        "",
        "| level | puzzles/s (wall) | puzzles/s (CPU) | median ms (wall) | attempts/puzzle "
        "| searches/puzzle | mean givens |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    rates, cpu_rates, walls, cpus = [], [], 0.0, 0.0
    floors = []
    for level in LEVELS:
        runs = [_timed(9, level, f"bench:{i}") for i in range(count)]
        wall = sum(r[1] for r in runs)
        cpu = sum(r[2] for r in runs)
        walls += wall
        cpus += cpu
        rates.append(count / wall)
        cpu_rates.append(count / cpu)
        made = [r[0] for r in runs]
        floor = TARGET_LEVEL_PER_SECOND.get(level)
        if floor is not None:
            verdict = "met" if count / cpu >= floor else "NOT met"
            floors.append(f"{level} >= {floor:g}/s: {count / cpu:.2f}/s, {verdict}")
        lines.append(
            f"| {level} | {count / wall:.1f} | {count / cpu:.1f} "
            f"| {1000 * statistics.median(r[1] for r in runs):.0f} "
            f"| {sum(m.attempts for m in made) / count:.1f} "
            f"| {sum(m.searches for m in made) / count:.0f} "
            f"| {sum(m.puzzle.clues for m in made) / count:.1f} |"
        )
    mean_rate = statistics.mean(rates)
    total = len(LEVELS) * count
    cpu_mean = statistics.mean(cpu_rates)
    verdict = "met" if cpu_mean >= TARGET_9X9_PER_SECOND else "NOT met"
    lines += [
        "",
        f"- 9x9 average over levels (mean of the per-level rates): **{cpu_mean:.1f} "
        f"puzzles/s** of one core's CPU time ({mean_rate:.1f} wall-clock); target "
        f"{TARGET_9X9_PER_SECOND}/s on one core: {verdict}",
        f"- 9x9 throughput with equal numbers per level (total puzzles / total time): "
        f"{total / walls:.1f} puzzles/s wall, {total / cpus:.1f} CPU (master dominates)",
        f"- per-level floors on one core's CPU time: {'; '.join(floors)}",
    ]
    return lines


def _big(size: int, levels: tuple[str | None, ...], count: int, target: float) -> list[str]:
    lines = []
    for level in levels:
        runs = [_timed(size, level, f"bench:{i}") for i in range(count)]
        wall = statistics.median(r[1] for r in runs)
        cpu = statistics.median(r[2] for r in runs)
        verdict = "met" if cpu < target else "NOT met"
        name = level or "any level"
        lines.append(
            f"| {size}x{size} | {name} | {count} | {wall:.2f} | {cpu:.2f} "
            f"| {statistics.mean(r[0].puzzle.clues for r in runs):.0f} "
            f"| < {target:g} s (CPU): {verdict} |"
        )
    return lines


def _small(size: int, count: int) -> list[str]:
    lines = []
    for level in supported_levels(size):
        runs = [_timed(size, level, f"bench:{i}") for i in range(count)]
        lines.append(
            f"| {size}x{size} | {level} | {count} "
            f"| {statistics.median(r[1] for r in runs):.3f} "
            f"| {statistics.median(r[2] for r in runs):.3f} "
            f"| {statistics.mean(r[0].puzzle.clues for r in runs):.0f} | |"
        )
    return lines


def _canon(quick: bool) -> list[str]:
    lines = ["| set | puzzles | ms per key (wall) | ms per key (CPU) |", "|---|---:|---:|---:|"]
    sets = [
        ("royle_17clue_first1000", 300 if quick else None),
        ("norvig_top95", None),
        ("qqwing_expert", 300 if quick else None),
        ("magictour_top1465", 300 if quick else None),
        ("gen_4x4_unique", None),
        ("gen_16x16_unique", 20 if quick else None),
        ("gen_25x25_unique", 3 if quick else None),
    ]
    for name, limit in sets:
        grids = [g for g, _ in load(name, limit)]
        wall, cpu = time.perf_counter(), time.process_time()
        for g in grids:
            canonical_key(g)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        lines.append(
            f"| {name} | {len(grids)} | {1000 * wall / len(grids):.2f} "
            f"| {1000 * cpu / len(grids):.2f} |"
        )
    return lines


def run(quick: bool = False) -> list[str]:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "## Generator and canonical form (solver.generate, solver.canon)",
        "",
        f"One core, pure Python; load average at start {load:.1f} (wall-clock figures "
        "suffer when other work shares the machine, CPU figures much less).",
        "",
    ]
    lines += _nine_by_nine(5 if quick else 30)
    lines += [
        "",
        "Other sizes (median seconds per puzzle):",
        "",
        "| size | level | puzzles | median s (wall) | median s (CPU) | mean givens | target |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for size in (4, 6, 8, 12):
        lines += _small(size, 2 if quick else 5)
    lines += _big(16, supported_levels(16), 2 if quick else 5, TARGET_16X16_SECONDS)
    lines += _big(25, supported_levels(25), 1 if quick else 3, TARGET_25X25_SECONDS)
    lines += ["", "Canonical key (`canonical_key`):", ""]
    lines += _canon(quick)
    return lines


if __name__ == "__main__":
    print("\n".join(run(quick="--quick" in sys.argv[1:])))
