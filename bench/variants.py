"""Variant rows for the generator and grader sections: Diagonal, Jigsaw and Killer
puzzles per CPU second by level, each checked unique by both engines (the classic rows
print alongside in the same sections)."""

from __future__ import annotations

import statistics
import time

from solver.generation.general import (
    GENERATED_LEVELS,
    VariantGenerated,
    VariantGenerationFailed,
    generate_variant,
    supported_variant_levels,
)
from solver.logic.general import variant_logic_solve
from solver.logic.variant_grade import variant_grade
from solver.search.dlx import dlx_count
from solver.search.exact import count_solutions

VARIANTS = ("diagonal", "jigsaw", "killer")
# 9x9, one core's CPU: Diagonal and Jigsaw within 2x of the classic's time per level
# (bench/RESULTS.md); Killer at every level 5 puzzles/s, or within 2x of the classic's time
# when that is the slower of the two. Every puzzle is checked at its asked level by the
# variant grader, as the bank grades it.
KILLER_FLOOR = 5.0
CLASSIC_RATIO = 2.0
SAMPLE_9X9 = 30
"""Seeds per 9x9 variant level, as many as the classic's rows take: one 9x9 expert Killer
costs 0.1 to 0.8 s of CPU, so 20 seeds left the rate about 13% either way by seed luck
(the expert ratio to the classic read 1.86 and 2.14 in two runs of the same code)."""


def killer_goal(classic_rate: float | None) -> float:
    """The 9x9 Killer rate a level must reach (puzzles per CPU second): 5, or half the
    classic's at the same level measured in the same run when that asks less."""
    if classic_rate is None:
        return KILLER_FLOOR
    return min(KILLER_FLOOR, classic_rate / CLASSIC_RATIO)


def _made(
    variant: str, size: int, level: str, count: int
) -> tuple[list[tuple[VariantGenerated, float]], float, int]:
    """The puzzles made with their CPU seconds, the CPU seconds of all tries (failed ones
    included: the time a worker spends), and the seeds that reached no puzzle."""
    runs = []
    spent = 0.0
    failed = 0
    for i in range(count):
        started = time.process_time()
        try:
            made = generate_variant(variant, size, level=level, seed=f"bench:{i}")
        except VariantGenerationFailed:
            spent += time.process_time() - started
            failed += 1
            continue
        runs.append((made, time.process_time() - started))
        spent += runs[-1][1]
        assert count_solutions(made.puzzle, limit=2, rules=made.rules) == 1
        assert dlx_count(made.puzzle, limit=2, rules=made.rules) == 1
        assert made.level == level
        assert variant_grade(made.rules, made.puzzle).level == level
    return runs, spent, failed


def generate_rows(quick: bool = False, classic: dict[str, float] | None = None) -> list[str]:
    """The variant rows; ``classic`` (9x9 puzzles/s per level, measured in the same
    process) gives each 9x9 row its time against the classic's at that level."""
    classic = classic or {}
    out = [
        "",
        "Variants (solver.generation.general), one core's CPU time; *x classic*: its time per "
        "puzzle over the classic's at the same level, this run (goal for 9x9 Diagonal and "
        "Jigsaw: 2 or less; for 9x9 Killer: 5 puzzles/s, or 2 or less when that is slower):",
        "",
        "| variant | size | level | puzzles | puzzles/s | x classic | median ms | attempts "
        "| givens |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    misses = []
    for variant in VARIANTS:
        for size in (9, 6):
            for level in supported_variant_levels(variant, size):
                count = (3 if size == 9 else 2) if quick else (SAMPLE_9X9 if size == 9 else 10)
                runs, spent, failed = _made(variant, size, level, count)
                rate = len(runs) / spent
                if failed:
                    misses.append(f"{variant} {size}x{size} {level}: {failed} of {count} failed")
                if not runs:
                    out.append(f"| {variant} | {size}x{size} | {level} | 0 | 0 | | | | |")
                    continue
                ratio = classic[level] / rate if size == 9 and level in classic else None
                if variant == "killer" and size == 9:
                    goal = killer_goal(classic.get(level))
                    if rate < goal:
                        misses.append(f"{variant} {level} {rate:.2f}/s (goal {goal:.2f}/s)")
                judged = not quick and variant != "killer" and ratio is not None
                if judged and ratio > CLASSIC_RATIO:  # 3 puzzles (--quick) judge nothing
                    misses.append(f"{variant} {level} {ratio:.2f}x the classic's time")
                out.append(
                    f"| {variant} | {size}x{size} | {level} | {len(runs)} | {rate:.2f} "
                    f"| {'' if ratio is None else f'{ratio:.2f}'} "
                    f"| {1000 * statistics.median(r[1] for r in runs):.0f} "
                    f"| {statistics.mean(r[0].attempts for r in runs):.1f} "
                    f"| {statistics.mean(r[0].puzzle.clues for r in runs):.1f} |"
                )
    short = ", ".join(misses) or "none"
    out += ["", f"- 9x9 variants short of their goal{' (Killer only)' if quick else ''}: {short}"]
    return out


def grade_rows(quick: bool = False) -> list[str]:
    """Variant grading speed: the variant logic's full solve of generated puzzles."""
    count = 5 if quick else 20
    out = [
        "",
        "| variant (9x9, mixed levels) | puzzles | graded/s | solved by logic |",
        "|---|---:|---:|---:|",
    ]
    for variant in VARIANTS:
        # a 9x9 Killer expert takes half a minute to make: the grading needs none of them
        levels = [lv for lv in GENERATED_LEVELS if (variant, lv) != ("killer", "expert")]
        made = [
            generate_variant(variant, 9, level=levels[i % len(levels)], seed=f"grade:{i}")
            for i in range(count)
        ]
        started = time.process_time()
        results = [variant_logic_solve(m.rules, m.puzzle) for m in made]
        seconds = max(time.process_time() - started, 1e-9)
        solved = sum(r.solved for r in results)
        out.append(f"| {variant} | {count} | {count / seconds:.1f} | {solved}/{count} |")
    return out
