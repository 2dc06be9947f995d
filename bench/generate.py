"""The generator: puzzles per CPU second by level on 9x9, CPU seconds per puzzle on the other
sizes (each puzzle checked unique and at its level), CPU milliseconds per canonical key."""

from __future__ import annotations

import statistics
import time

from bench import cpu, load, variants
from solver.generation.classic import Generated, generate, supported_levels
from solver.logic.grade import LEVELS
from solver.rules.canon import canonical_key
from solver.search.exact import count_solutions

FLOORS = {"expert": 1.0, "master": 0.5}  # 9x9, one core's CPU time
TARGET_SECONDS = {16: 2, 25: 20}  # median CPU per puzzle
# The sets whose canonical keys are timed, with the quick run's sample of each.
CANON_SETS = {"royle_17clue_first1000": 300, "norvig_top95": None, "qqwing_expert": 300,
              "magictour_top1465": 300, "gen_4x4_unique": None, "gen_16x16_unique": 20,
              "gen_25x25_unique": 3}  # fmt: skip


def _timed(size: int, level: str | None, count: int) -> list[tuple[Generated, float]]:
    """``count`` puzzles (seeds ``bench:0``..), checked, each with its CPU seconds."""
    runs = []
    for i in range(count):
        started = time.process_time()
        made = generate(size, level=level, seed=f"bench:{i}")
        runs.append((made, time.process_time() - started))
        assert count_solutions(made.puzzle, limit=2) == 1, f"{size} {level} {i}: not unique"
        assert level in (None, made.grade.level), f"{size} {level} {i}: {made.grade.level}"
    return runs


def run(quick: bool = False) -> list[str]:
    count = 5 if quick else 30
    out = [
        "## Generator and canonical form (solver.generation.classic, solver.rules.canon)",
        "",
        f"9x9, {count} puzzles per level, one core's CPU time:",
        "",
        "| level | puzzles/s | median ms | attempts/puzzle | searches/puzzle | mean givens |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    rates, cpus = {}, 0.0
    for level in LEVELS:
        runs = _timed(9, level, count)
        seconds = sum(r[1] for r in runs)
        cpus, rates[level] = cpus + seconds, count / seconds
        made = [r[0] for r in runs]
        out.append(
            f"| {level} | {rates[level]:.1f} | {1000 * statistics.median(r[1] for r in runs):.0f} "
            f"| {sum(m.attempts for m in made) / count:.1f} "
            f"| {sum(m.searches for m in made) / count:.0f} "
            f"| {sum(m.puzzle.clues for m in made) / count:.1f} |"
        )
    floors = "; ".join(f"{lv} {rates[lv]:.2f}/s (floor {f:g})" for lv, f in FLOORS.items())
    out += [
        "",
        f"- mean of the per-level rates: **{statistics.mean(rates.values()):.1f} puzzles/s**; "
        f"equal numbers per level: {len(LEVELS) * count / cpus:.1f}/s",
        f"- the slowest levels: {floors}",
        "",
        "| size | level | puzzles | median s (CPU) | mean givens | target |",
        "|---|---|---:|---:|---:|---|",
    ]
    for size in (4, 6, 8, 12, 16, 25):
        for level in supported_levels(size):
            number = (1 if size == 25 else 2) if quick else (3 if size == 25 else 5)
            runs = _timed(size, level, number)
            target = f"< {TARGET_SECONDS[size]} s" if size in TARGET_SECONDS else ""
            out.append(
                f"| {size}x{size} | {level} | {number} "
                f"| {statistics.median(r[1] for r in runs):.3f} "
                f"| {statistics.mean(r[0].puzzle.clues for r in runs):.0f} | {target} |"
            )
    out += variants.generate_rows(quick, classic=rates)
    out += ["", "| canonical key: set | puzzles | ms (CPU) |", "|---|---:|---:|"]
    for name, sample in CANON_SETS.items():
        grids = [g for g, _ in load(name, sample if quick else None)]
        seconds = cpu(lambda gs: [canonical_key(g) for g in gs], grids)
        out.append(f"| {name} | {len(grids)} | {1000 * seconds / len(grids):.2f} |")
    return out
