"""Practice puzzles for the variants' own techniques (Killer's cage combinations, 45 rule...).

A variant technique is one of :data:`solver.logic.general.ORDER` that the classic engine
does not have. It is practised on the variant whose rules it reads (:func:`technique_variant`:
Killer for the techniques that read cages), on a puzzle whose variant logic solution uses it
(:func:`generate_variant_requiring`). The generator is asked at the technique's level first,
then the levels above it in turn (a cage-house interaction, say, hides behind easier steps
in most medium Killers and turns up in hard ones), each attempt from its own seed, so every
answer is a pure function of the arguments.

Kept apart from :mod:`solver.generation.general` so that adding a technique to the variant
engine needs no change here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from solver.generation.general import (
    VariantGenerated,
    VariantGenerationFailed,
    generate_variant,
    supported_variant_levels,
)
from solver.logic.general import BY_SLUG, LEVELS, ORDER, VariantTechnique, techniques_for
from solver.logic.techniques import BY_SLUG as CLASSIC_BY_SLUG
from solver.rules.ruleset import Rules

__all__ = [
    "VARIANT_REQUIRE_ATTEMPTS",
    "generate_variant_requiring",
    "technique_variant",
    "variant_practice_levels",
    "variant_practice_sizes",
    "variant_techniques",
]

VARIANT_REQUIRE_ATTEMPTS = 40
"""Puzzles made before :func:`generate_variant_requiring` gives up (Cage-House
Interaction, the rarest, comes with most hard Killers and almost no medium one: rates in
``python -m bench learning``)."""

_SAMPLE_RULES: dict[str, Rules] = {
    # The smallest rules of each variant that turn its techniques on (techniques_for).
    "killer": Rules.make(9, cages=[((0, 1), 3)]),
    "diagonal": Rules.make(9, diagonals=True),
}


@cache
def variant_techniques() -> tuple[VariantTechnique, ...]:
    """The variant engine's techniques the classic engine lacks, in the engine's order."""
    return tuple(t for t in ORDER if t.slug not in CLASSIC_BY_SLUG and technique_variant(t.slug))


@cache
def technique_variant(slug: str) -> str | None:
    """The variant ``slug`` is practised on: the first whose rules turn it on while the
    classic rules do not; None for a classic technique or an unknown slug."""
    if slug not in BY_SLUG or slug in CLASSIC_BY_SLUG:
        return None
    classic = {t.slug for t in techniques_for(Rules.classic(9))}
    for variant, rules in _SAMPLE_RULES.items():
        if slug in {t.slug for t in techniques_for(rules)} and slug not in classic:
            return variant
    return None


def variant_practice_sizes(slug: str) -> tuple[int, ...]:
    """The sizes a variant technique is practised on (9x9: the size its lessons teach)."""
    return (9,) if technique_variant(slug) else ()


def variant_practice_levels(variant: str, size: int, slug: str) -> tuple[str, ...]:
    """The generator's levels to try for ``slug``: its own, then each harder one it makes
    (never master, and expert only for a technique of that level: the slowest to make,
    and practice wants the technique, not more)."""
    start = LEVELS.index(BY_SLUG[slug].level)
    top = max(start, LEVELS.index("hard"))
    return tuple(
        level
        for level in supported_variant_levels(variant, size)
        if start <= LEVELS.index(level) <= top and level != "master"
    )


def generate_variant_requiring(
    variant: str,
    size: int,
    technique: str,
    *,
    seed: int | str = 0,
    attempts: int = VARIANT_REQUIRE_ATTEMPTS,
    stop: Callable[[], bool] | None = None,
) -> VariantGenerated:
    """A ``variant`` puzzle whose variant logic solution uses ``technique``.

    ``stop`` is asked between attempts; True gives up early. Raises ValueError for a
    technique not practised on that variant and size, VariantGenerationFailed when no
    attempt used it."""
    from solver.logic.general import variant_logic_solve

    if technique_variant(technique) != variant or size not in variant_practice_sizes(technique):
        raise ValueError(f"{technique!r} is not practised on {size}x{size} {variant}")
    levels = variant_practice_levels(variant, size, technique)
    if not levels:
        raise ValueError(f"{variant} {size}x{size} puzzles reach no level for {technique!r}")
    for attempt in range(1, attempts + 1):
        if stop is not None and attempt > 1 and stop():
            break
        level = levels[(attempt - 1) % len(levels)]
        try:
            made = generate_variant(
                variant, size, level=level, seed=f"require={technique}:{seed}:{attempt}"
            )
        except VariantGenerationFailed:
            continue
        used = variant_logic_solve(made.rules, made.puzzle, explain=False).techniques
        if technique in used:
            return made
    raise VariantGenerationFailed(
        f"no {size}x{size} {variant} puzzle using {technique} in {attempts} attempts for {seed!r}"
    )
