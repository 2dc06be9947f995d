"""Practice puzzles for the rare techniques, grown from seed puzzles.

Some techniques almost always hide behind an earlier one, so digging and walking from a
random solution (:func:`solver.generation.practice_dig.dig_requiring`) finds a puzzle that
needs them only once in tens of seconds. For those, :data:`SEED_FILE` holds puzzles that
the same generator made (``python -m solver.generation.practice_seeds`` remakes it, from
fixed seeds), and a new puzzle
is *grown* from one of them: a random seed puzzle is disguised (relabelled, rows, columns,
bands and stacks shuffled, maybe transposed), then it drifts (:func:`_drift`): a step takes
out a random given and puts back givens until the puzzle again has one solution within
the technique's level, and is kept only when the logic solution still uses the technique.
After :data:`DRIFT_MOVES` kept steps the puzzle is a new one (another canonical key, a
different pattern of givens), and every kept step is a puzzle that needs the technique,
so the drift never has to find the pattern again. ``python -m bench learning`` measures
both ways.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

from solver.generation.classic_dig import Generated, GenerationFailed, _search_budget, orbits
from solver.generation.practice_dig import _TargetDigger, dig_requiring, repair, require_attempts
from solver.grid import Grid, Shape
from solver.logic.grade import grade
from solver.logic.techniques import BY_SLUG
from solver.search.exact import solutions

__all__ = ["SEEDED", "SEED_FILE", "grow_requiring", "seed_puzzles"]

SEED_FILE = Path(__file__).with_name("practice_seeds.txt")
"""``<slug> <givens>`` per line: 9x9 puzzles whose logic solution needs the technique."""
SEEDED = (
    "hidden_triple",
    "naked_quad",
    "hidden_quad",
    "swordfish",
    "unique_rectangle_2",
    "unique_rectangle_5",
    "unique_rectangle_6",
    "hidden_unique_rectangle",
    "unique_rectangle_3",
    "finned_swordfish",
    "empty_rectangle",
    "jellyfish",
    "sue_de_coq",
    "simple_colouring",
    "x_cycle",
)
"""The techniques grown from seeds, in the engine's order: those whose from-scratch rate
is below one and a half times the goal of ``python -m bench learning`` (a host's speed
moves it by a quarter from one hour to the next)."""
SEEDS_PER_TECHNIQUE = 24
DRIFT_MOVES = 8
"""Kept steps of one drift: enough to change about ten cells of the pattern of givens."""
DRIFT_STEPS = 300
"""Steps one drift may take before the attempt gives up."""


@cache
def seed_puzzles(slug: str) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The seed puzzles of ``slug`` with their solutions; empty when it has none."""
    shape = Shape.for_size(9)
    out = []
    with SEED_FILE.open(encoding="ascii") as lines:
        for line in lines:
            name, _, givens = line.strip().partition(" ")
            if name == slug:
                puzzle = Grid(shape, tuple(int(ch) for ch in givens))
                (solution,) = solutions(puzzle, limit=2)
                out.append((puzzle.cells, solution.cells))
    return tuple(out)


def grow_requiring(
    shape: Shape,
    slug: str,
    seed: int | str,
    attempts: int,
    stop: Callable[[], bool] | None = None,
) -> Generated:
    """A puzzle whose logic solution uses ``slug`` and nothing above its level, grown from
    one of its seed puzzles (see the module docstring); only for ``symmetry="none"``.
    ``stop`` (asked between drift steps) ends the search early when it answers True."""
    tech = BY_SLUG[slug]
    bases = seed_puzzles(slug)
    if shape.size != 9 or not bases:
        raise ValueError(f"{tech.name} has no seed puzzles on {shape.label}")
    digger = _TargetDigger(shape, _search_budget(shape), tech)
    for attempt in range(1, attempts + 1):
        if stop is not None and attempt > 1 and stop():
            break
        rng = random.Random(f"{shape.label}:grow={slug}:{seed}:{attempt}")
        puzzle, solution = _disguise(shape, *rng.choice(bases), rng)
        cells = _drift(digger, solution, puzzle, rng, stop)
        if cells is None:
            continue
        grown, answer = Grid(shape, tuple(cells)), Grid(shape, solution)
        rated = grade(grown, solution=answer)
        if slug in rated.techniques and rated.level == tech.level:
            return Generated(grown, answer, rated, "none", seed, attempt, digger.searches)
    raise GenerationFailed(
        f"no {shape.label} puzzle needing {tech.name} grown in {attempts} attempts "
        f"for seed {seed!r}"
    )


def _disguise(
    shape: Shape, puzzle: tuple[int, ...], solution: tuple[int, ...], rng: random.Random
) -> tuple[list[int], tuple[int, ...]]:
    """An equivalent puzzle and its solution: symbols relabelled, rows within bands, bands,
    columns within stacks and stacks shuffled, and (square boxes) maybe transposed."""
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    bands = rng.sample(range(n // br), n // br)
    rows = [b * br + r for b in bands for r in rng.sample(range(br), br)]
    stacks = rng.sample(range(n // bc), n // bc)
    cols = [s * bc + c for s in stacks for c in rng.sample(range(bc), bc)]
    if br == bc and rng.random() < 0.5:
        rows, cols = cols, rows
        order = [cols[c] * n + rows[r] for r in range(n) for c in range(n)]
    else:
        order = [rows[r] * n + cols[c] for r in range(n) for c in range(n)]
    labels = (0, *rng.sample(range(1, n + 1), n))
    return [labels[puzzle[k]] for k in order], tuple(labels[solution[k]] for k in order)


def _drift(
    digger: _TargetDigger,
    solution: tuple[int, ...],
    cells: list[int],
    rng: random.Random,
    stop: Callable[[], bool] | None = None,
) -> list[int] | None:
    """The puzzle after :data:`DRIFT_MOVES` kept steps from ``cells`` (which needs the
    technique), each step kept only when the puzzle still needs it; None when
    :data:`DRIFT_STEPS` steps keep fewer. A step takes out a random given and repairs the
    puzzle as the walk does (:func:`solver.generation.practice_dig.repair`)."""
    orbit_of = {orbit[0]: orbit for orbit in orbits(digger.shape, "none")}
    kept = 0
    for step in range(DRIFT_STEPS):
        if stop is not None and step % 8 == 7 and stop():
            return None
        trial = list(cells)
        taken = rng.choice([c for c, v in enumerate(trial) if v])
        trial[taken] = 0
        digger.hit = None
        repaired = repair(digger, solution, trial, frozenset((taken,)), orbit_of, rng)
        if repaired and digger.hit is not None:  # it still needs the technique
            cells, kept = trial, kept + 1
            if kept == DRIFT_MOVES:
                return cells
    return None


def make_seeds(slugs: tuple[str, ...], count: int) -> list[str]:
    """``<slug> <givens>`` lines: ``count`` puzzles per technique, made from scratch from
    the fixed seeds ``seedbank:0``, ``seedbank:1``..."""
    shape = Shape.for_size(9)
    lines = []
    for slug in slugs:
        for i in range(count):
            made = dig_requiring(
                shape, slug, "none", f"seedbank:{i}", require_attempts(shape, slug)
            )
            lines.append(f"{slug} {''.join(map(str, made.puzzle.cells))}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m solver.generation.practice_seeds",
        description="Make the seed puzzles of the rare techniques (writes to standard output).",
    )
    parser.add_argument("techniques", nargs="*", default=SEEDED, help="default: all seeded")
    parser.add_argument("--count", type=int, default=SEEDS_PER_TECHNIQUE)
    args = parser.parse_args(argv)
    unknown = [slug for slug in args.techniques if slug not in BY_SLUG]
    if unknown or args.count < 1:
        parser.error(f"unknown technique {unknown[0]!r}" if unknown else "--count must be >= 1")
    for line in make_seeds(tuple(args.techniques), args.count):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
