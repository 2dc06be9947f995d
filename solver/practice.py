"""Practice puzzles: a puzzle whose logic solution needs one chosen technique.

A puzzle *requires* technique T when the logic engine's solution uses T at least once and
nothing harder than T's level, so T is the way through rather than a detour.

An attempt digs a random solution with T's level as the ceiling, as
:func:`solver.generate.generate` does, and keeps the result when its solution uses T. Most
digs end on a puzzle that does not, so the dig also remembers the last puzzle on its way
(every removal it accepted left one solution within the ceiling) whose solution did use T,
and that puzzle is the answer instead. An attempt with neither starts a new one (a new
solution and order drawn from the seed), up to :data:`MAX_ATTEMPTS`; then
:class:`~solver.generate.GenerationFailed`. Techniques late in the engine's order at their
level (quads, Jellyfish, Unique Rectangle Type 2) are rare because an earlier technique
usually applies first: ``python -m bench learning`` measures the rate of each.

:func:`practice_sizes` says on which sizes a technique is offered for practice: 9x9 for
every technique, 6x6 for the singles, pointing and naked pairs (the beginners' size,
where other patterns are too rare to be worth a lesson).
"""

from __future__ import annotations

import random

from solver.generate import (
    SYMMETRIES,
    Generated,
    GenerationFailed,
    _as_shape,
    _Digger,
    _search_budget,
    orbits,
)
from solver.grade import grade
from solver.grid import Grid, Shape
from solver.logic import run, techniques_up_to
from solver.search import random_solution
from solver.techniques import BY_SLUG, LEVELS, ORDER, Technique
from solver.techniques.base import Board

__all__ = [
    "MAX_ATTEMPTS",
    "UnknownTechnique",
    "generate_requiring",
    "practice_sizes",
    "practice_techniques",
]

MAX_ATTEMPTS = {6: 5000, 9: 1500}
"""Attempts before :class:`GenerationFailed`; at the rarest technique's measured rate this
is several times the expected number (see ``python -m bench learning``)."""

SMALL_SIZE_TECHNIQUES = ("full_house", "naked_single", "hidden_single", "pointing", "naked_pair")
"""The techniques offered on 6x6: the others are too rare there to be worth a lesson."""


class UnknownTechnique(ValueError):
    """No technique of the engine has this slug."""


def practice_sizes(slug: str) -> tuple[int, ...]:
    """The board sizes on which ``slug`` is offered for practice (9 first)."""
    _technique(slug)
    return (9, 6) if slug in SMALL_SIZE_TECHNIQUES else (9,)


def practice_techniques(size: int = 9) -> tuple[Technique, ...]:
    """The techniques offered for practice on ``size``, in the engine's order."""
    return tuple(t for t in ORDER if size in practice_sizes(t.slug))


def generate_requiring(
    shape: Shape | int = 9,
    technique: str = "x_wing",
    *,
    symmetry: str = "none",
    seed: int | str = 0,
    max_attempts: int | None = None,
) -> Generated:
    """A puzzle with one solution whose logic solution requires ``technique``.

    The same arguments give the same puzzle. Raises :class:`UnknownTechnique` for a slug
    the engine does not know, ValueError for a size the technique is not offered on (see
    :func:`practice_sizes`) or an unknown symmetry, and :class:`GenerationFailed` when no
    attempt used the technique.
    """
    tech = _technique(technique)
    shape = _as_shape(shape)
    if shape.size not in practice_sizes(technique):
        raise ValueError(
            f"{tech.name} is not offered on {shape.label}: practise it on "
            + " or ".join(f"{n}x{n}" for n in practice_sizes(technique))
        )
    if symmetry not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}: use one of {', '.join(SYMMETRIES)}")
    easy = tech.level == LEVELS[0]
    digger = _TargetDigger(shape, _search_budget(shape), technique)
    ceiling = "easy" if easy else tech.level
    base = f"{shape.box_rows}x{shape.box_cols}:require={technique}:{symmetry}:{seed}"
    attempts = max_attempts or MAX_ATTEMPTS.get(shape.size, 100)
    for attempt in range(1, attempts + 1):
        rng = random.Random(f"{base}:{attempt}")
        solution = random_solution(shape, rng)
        order = list(orbits(shape, symmetry))
        rng.shuffle(order)
        digger.hit = None
        cells, by_singles = digger.dig(solution.cells, order, ceiling)
        if by_singles and not easy:
            continue  # singles solve it (and every puzzle on the way): no use of it
        puzzle = Grid(shape, tuple(cells))
        rated = grade(puzzle)
        if technique not in rated.techniques and digger.hit is not None:
            puzzle = Grid(shape, digger.hit)  # the dig went on past the last use of it
            rated = grade(puzzle)
        if technique in rated.techniques and rated.level == tech.level:
            return Generated(
                puzzle=puzzle,
                solution=solution,
                grade=rated,
                symmetry=symmetry,
                seed=seed,
                attempts=attempt,
                searches=digger.searches,
            )
    raise GenerationFailed(
        f"no {shape.label} puzzle needing {tech.name} in {attempts} attempts for seed {seed!r}"
    )


def _technique(slug: str) -> Technique:
    tech = BY_SLUG.get(slug)
    if tech is None:
        raise UnknownTechnique(f"unknown technique {slug!r}")
    return tech


class _TargetDigger(_Digger):
    """A digger that remembers the last puzzle on its way whose solution used the target.

    Every removal :meth:`_unique_within` accepts leaves a puzzle with one solution that the
    techniques up to the ceiling solve; the last one whose solution used the technique is
    kept as ``hit``, so an attempt whose dig went on past it still yields a puzzle.
    """

    def __init__(self, shape: Shape, budget: int | None, slug: str) -> None:
        super().__init__(shape, budget)
        self.slug = slug
        self.hit: tuple[int, ...] | None = None

    def _unique_within(self, cells: list[int], ceiling: str | None) -> bool:
        if not super()._unique_within(cells, None):
            return False
        board = Board.from_values(self.shape, cells)
        if board is None:
            return False
        steps, _ = run(board, techniques_up_to(ceiling))
        if not board.is_solved():
            return False
        if any(s.technique == self.slug for s in steps):
            self.hit = tuple(cells)
        return True
