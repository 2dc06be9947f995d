"""Practice puzzles: a puzzle whose logic solution needs one chosen technique.

A puzzle *requires* technique T when the logic engine's solution uses T at least once and
nothing harder than T's level, so T is the way through rather than a detour.

``generate(require=T)`` makes one (:func:`make_requiring`): dug from a random solution
(:mod:`solver.generation.practice_dig`), or for the rarest techniques, when no symmetry is asked,
grown from a seed puzzle that such digging made (:mod:`solver.generation.practice_seeds`).
``python -m bench learning`` measures the puzzles per second of each technique, both ways.

:func:`practice_sizes` says on which sizes a technique is offered for practice: 9x9 for
every technique, 6x6 for the singles, pointing and naked pairs (the beginners' size,
where other patterns are too rare to be worth a lesson).
"""

from __future__ import annotations

from collections.abc import Callable

from solver.generation.classic_dig import SYMMETRIES, Generated, _as_shape
from solver.generation.practice_dig import REQUIRE_ATTEMPTS, dig_requiring, require_attempts
from solver.generation.practice_seeds import SEEDED, grow_requiring
from solver.grid import Shape
from solver.logic.techniques import BY_SLUG, ORDER, Technique

__all__ = [
    "REQUIRE_ATTEMPTS",
    "UNREACHED",
    "UnknownTechnique",
    "dig_requiring",
    "generate_requiring",
    "generator_reaches",
    "make_requiring",
    "practice_sizes",
    "practice_techniques",
    "require_attempts",
]

SMALL_SIZE_TECHNIQUES = ("full_house", "naked_single", "hidden_single", "pointing", "naked_pair")
"""The techniques offered on 6x6: the others are too rare there to be worth a lesson."""


UNREACHED = ("unique_rectangle_5",)
"""Techniques too rare to dig from scratch for packs on 9x9: ``dig_requiring`` does reach
Unique Rectangle Type 5, but at a rate (``python -m bench learning``) too slow for a pack's
chunk within a worker's time limit: an earlier technique almost always applies first. Its
puzzles are grown from seed puzzles instead (:mod:`solver.generation.practice_seeds`), which keeps
them to packs without symmetry."""


def generator_reaches(slug: str, symmetry: str = "none") -> bool:
    """Whether ``generate(require=slug, symmetry=symmetry)`` makes puzzles quickly enough
    to fill packs."""
    return slug not in UNREACHED or (symmetry == "none" and slug in SEEDED)


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
    symmetry, and :class:`~solver.generation.classic.GenerationFailed` when no attempt used it.
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
    attempts = max_attempts or require_attempts(shape, technique)
    return make_requiring(shape, technique, symmetry, seed, attempts)


def make_requiring(
    shape: Shape,
    slug: str,
    symmetry: str,
    seed: int | str,
    attempts: int,
    stop: Callable[[], bool] | None = None,
) -> Generated:
    """Grown from a seed puzzle for a technique of
    :data:`~solver.generation.practice_seeds.SEEDED` when no symmetry is asked, else dug from
    scratch (:func:`dig_requiring`). ``stop`` is asked now and then; True gives up early
    (GenerationFailed), so a caller can bound the time without this module reading a clock.
    """
    if symmetry == "none" and shape.size == 9 and slug in SEEDED:
        return grow_requiring(shape, slug, seed, attempts, stop)
    return dig_requiring(shape, slug, symmetry, seed, attempts, stop)


def _technique(slug: str) -> Technique:
    tech = BY_SLUG.get(slug)
    if tech is None:
        raise UnknownTechnique(f"unknown technique {slug!r}")
    return tech
