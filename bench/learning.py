"""Practice puzzles: puzzles per CPU second for each technique, ``generate(require=slug)``
(goal: every technique up to hard at >= 1 puzzle/s, expert >= 0.2/s). A technique grown
from seed puzzles (``solver.generation.practice_seeds``) also gets a row for digging it from
scratch: how rare it is, and how long its seeds take to remake. The Killer techniques follow, from
``solver.generation.general_practice.generate_variant_requiring``, then the constraint lessons'
kinds, from ``solver.generation.constrained_practice.make_constrained_practice``."""

from __future__ import annotations

import time

from solver.generation.classic import GenerationFailed
from solver.generation.constrained import GENERATED
from solver.generation.constrained_practice import make_constrained_practice
from solver.generation.general import VariantGenerationFailed
from solver.generation.general_practice import (
    generate_variant_requiring,
    technique_variant,
    variant_practice_sizes,
    variant_techniques,
)
from solver.generation.practice import (
    UNREACHED,
    dig_requiring,
    generate_requiring,
    practice_sizes,
    require_attempts,
)
from solver.generation.practice_seeds import SEEDED
from solver.grid import Shape
from solver.logic.techniques import ORDER, Technique

GOAL = {"easy": 1.0, "medium": 1.0, "hard": 1.0, "expert": 0.2}


def _rate(size: int, slug: str, count: int, from_scratch: bool = False) -> tuple[float, float, int]:
    """Puzzles per CPU second, attempts per puzzle and failures over ``count`` seeds."""
    shape = Shape.for_size(size)
    cpu = time.process_time()
    attempts = failed = made = 0
    for i in range(count):
        seed = f"bench:{i}"
        try:
            if from_scratch:
                tries = require_attempts(shape, slug)
                attempts += dig_requiring(shape, slug, "none", seed, tries).attempts
            else:
                attempts += generate_requiring(size, slug, seed=seed).attempts
            made += 1
        except GenerationFailed:
            failed += 1
    cpu = time.process_time() - cpu
    return made / cpu, attempts / max(made, 1), failed


def run(quick: bool = False) -> list[str]:
    count = 2 if quick else 6
    lines = [
        "## Practice puzzles (solver.generation.practice)\n\n"
        f"{count} seeds per technique and size, CPU time on one core; a failure is a seed "
        "whose attempts ran out. *grown*: from seed "
        "puzzles, what `generate(require=...)` does for the rare techniques without "
        "symmetry; *dug*: from scratch (with symmetry, and how the seeds are made; "
        f"{min(count, 2)} seeds for {', '.join(UNREACHED)}).\n",
        "| technique | level | size | way | puzzles/s | attempts/puzzle | failed | goal |",
        "|---|---|---:|---|---:|---:|---:|---|",
    ]
    for tech in ORDER:
        for size in practice_sizes(tech.slug):
            grown = size == 9 and tech.slug in SEEDED
            lines.append(_row(tech, size, "grown" if grown else "dug", count))
            if grown:
                seeds = min(count, 2) if tech.slug in UNREACHED else count  # minutes a puzzle
                lines.append(_row(tech, size, "dug", seeds, from_scratch=True))
    return lines + variant_lines(count) + constraint_lines(count)


def variant_lines(count: int) -> list[str]:
    """Puzzles per CPU second that need each variant technique (Killer's)."""
    lines = [
        "\n### Variant techniques (solver.generation.general_practice)\n\n"
        f"{count} seeds per technique.\n",
        "| technique | variant | level | size | puzzles/s | failed | goal |",
        "|---|---|---|---:|---:|---:|---|",
    ]
    for tech in variant_techniques():
        variant = technique_variant(tech.slug) or ""
        for size in variant_practice_sizes(tech.slug):
            cpu = time.process_time()
            made = failed = 0
            for i in range(count):
                try:
                    generate_variant_requiring(variant, size, tech.slug, seed=f"bench:{i}")
                    made += 1
                except VariantGenerationFailed:
                    failed += 1
            rate = made / (time.process_time() - cpu)
            met = "met" if rate >= GOAL[tech.level] else "**rare**"
            lines.append(
                f"| {tech.slug} | {variant} | {tech.level} | {size}x{size} | {rate:.2f} "
                f"| {failed} | {met} |"
            )
    return lines


def constraint_lines(count: int) -> list[str]:
    """CPU seconds per practice puzzle of each constraint kind made at levels (the
    sentences of its lessons: both dots for kropki; a peers rule's own)."""
    lines = [
        "\n### Constraint lessons (solver.generation.constrained_practice)\n\n"
        f"{count} seeds per kind, 9x9.\n",
        "| kind | s/puzzle | worst s | easy or medium | failed |",
        "|---|---:|---:|---:|---:|",
    ]
    for kind in GENERATED:
        steps = ("kropki_white", "kropki_black") if kind == "kropki" else (kind,)
        sentences = tuple(f"constraint:{s}" for s in steps)
        worst = total = 0.0
        preferred = failed = 0
        for i in range(count):
            cpu = time.process_time()
            made = make_constrained_practice(kind, Shape(3, 3), sentences, seed=f"bench:{i}")
            spent = time.process_time() - cpu
            total, worst = total + spent, max(worst, spent)
            failed += made is None
            preferred += made is not None and made.level in ("easy", "medium")
        lines.append(
            f"| {kind} | {total / max(count - failed, 1):.2f} | {worst:.2f} | {preferred} "
            f"| {failed} |"
        )
    return lines


def _row(tech: Technique, size: int, way: str, count: int, from_scratch: bool = False) -> str:
    rate, attempts, failed = _rate(size, tech.slug, count, from_scratch)
    met = "met" if rate >= GOAL[tech.level] else "**rare**"
    if from_scratch and met != "met":
        met = "rare: grown"  # what its seeds are for
    return (
        f"| {tech.slug} | {tech.level} | {size}x{size} | {way} | {rate:.2f} "
        f"| {attempts:.0f} | {failed} | {met} |"
    )
