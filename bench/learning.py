"""Practice puzzles: puzzles per CPU second for each technique, ``generate(require=slug)``
(goal: every technique up to hard at >= 1 puzzle/s, expert >= 0.2/s)."""

from __future__ import annotations

import time

from solver.generate import GenerationFailed
from solver.practice import UNREACHED, generate_requiring, practice_sizes
from solver.techniques import ORDER

GOAL = {"easy": 1.0, "medium": 1.0, "hard": 1.0, "expert": 0.2}


def _rate(size: int, slug: str, count: int) -> tuple[float, float, int]:
    """Puzzles per CPU second, attempts per puzzle and failures over ``count`` seeds."""
    cpu = time.process_time()
    attempts = failed = made = 0
    for i in range(count):
        try:
            attempts += generate_requiring(size, slug, seed=f"bench:{i}").attempts
            made += 1
        except GenerationFailed:
            failed += 1
    cpu = time.process_time() - cpu
    return made / cpu, attempts / max(made, 1), failed


def run(quick: bool = False) -> list[str]:
    count = 2 if quick else 6
    lines = [
        f"## Practice puzzles (solver.practice)\n\n{count} seeds per technique and size (2 "
        f"for {', '.join(UNREACHED)}), CPU time on one core; a failure is a seed whose "
        "attempts ran out.\n",
        "| technique | level | size | puzzles/s | attempts/puzzle | failed | goal |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for tech in ORDER:
        for size in practice_sizes(tech.slug):
            seeds = min(count, 2) if tech.slug in UNREACHED else count  # minutes a puzzle
            rate, attempts, failed = _rate(size, tech.slug, seeds)
            met = "met" if rate >= GOAL[tech.level] else "**rare**"
            lines.append(
                f"| {tech.slug} | {tech.level} | {size}x{size} | {rate:.2f} "
                f"| {attempts:.0f} | {failed} | {met} |"
            )
    return lines
