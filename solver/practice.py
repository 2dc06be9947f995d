"""Practice puzzles: a puzzle whose logic solution needs one chosen technique.

A puzzle *requires* technique T when the logic engine's solution uses T at least once and
nothing harder than T's level, so T is the way through rather than a detour.

``generate(require=T)`` makes one (:func:`solver.generate.dig_requiring`): an attempt digs
a random solution with T's level as the ceiling and keeps the result, or the last puzzle on
the dig's way, when its solution uses T; an attempt with neither starts a new one (a new
solution and order drawn from the seed), up to a bound; then
:class:`~solver.generate.GenerationFailed`. This module says which techniques are offered
on which sizes and checks a request against that before generating.

Techniques late in the engine's order at their level (quads, Jellyfish, Unique Rectangle
Type 2) are rare because an earlier technique usually applies first: ``python -m bench
learning`` measures the rate of each.

:func:`practice_sizes` says on which sizes a technique is offered for practice: 9x9 for
every technique, 6x6 for the singles, pointing and naked pairs (the beginners' size,
where other patterns are too rare to be worth a lesson).
"""

from __future__ import annotations

from solver.generate import (
    REQUIRE_ATTEMPTS,
    SYMMETRIES,
    Generated,
    _as_shape,
    dig_requiring,
)
from solver.grid import Shape
from solver.techniques import BY_SLUG, ORDER, Technique

__all__ = [
    "UNREACHED",
    "UnknownTechnique",
    "generate_requiring",
    "generator_reaches",
    "practice_sizes",
    "practice_techniques",
]

SMALL_SIZE_TECHNIQUES = ("full_house", "naked_single", "hidden_single", "pointing", "naked_pair")
"""The techniques offered on 6x6: the others are too rare there to be worth a lesson."""


UNREACHED = ("naked_quad", "hidden_quad", "jellyfish", "unique_rectangle_5")
"""Techniques the generator does not reach within its attempts on 9x9 (an earlier technique
almost always applies first: a smaller subset before a quad, a finned fish before a
Jellyfish; Unique Rectangle Type 5 was found on 6x6 boards only): no pack is made for them;
the bank's puzzles that use them (imported ones) are still offered for practice."""


def generator_reaches(slug: str) -> bool:
    """Whether ``generate(require=slug)`` makes puzzles within its attempts."""
    return slug not in UNREACHED


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
    """``generate(shape, require=technique, ...)`` for a size the technique is offered on.

    Raises :class:`UnknownTechnique` for a slug the engine does not know, ValueError for a
    size the technique is not offered on (see :func:`practice_sizes`) or an unknown
    symmetry, and :class:`~solver.generate.GenerationFailed` when no attempt used it.
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
    attempts = max_attempts or REQUIRE_ATTEMPTS.get(shape.size, 100)
    return dig_requiring(shape, technique, symmetry, seed, attempts)


def _technique(slug: str) -> Technique:
    tech = BY_SLUG.get(slug)
    if tech is None:
        raise UnknownTechnique(f"unknown technique {slug!r}")
    return tech
