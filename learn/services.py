"""Practice games: a game on a puzzle whose logic solution needs the chosen technique.

A practice request is answered with a puzzle every time, quickly. The workers keep a stock
per technique (``puzzles.practice.practice_top_up`` on Celery beat); when the player has
played all of it, the request tops it up in the background and tries, in this order:
making one here within :data:`PRACTICE_MAKE_SECONDS`, a practice puzzle of the technique
the player played longest ago, and the lesson's own example puzzle (shipped, 9x9).

A variant's own technique (Killer's cage combinations...) is practised on a puzzle of that
variant, in the same order (:mod:`learn.variant_practice`); a constraint lesson made at
levels on a practice-only puzzle with its constraints (:mod:`learn.constraint_practice`).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from learn.constraint_lessons import ConstraintLesson
from learn.constraint_practice import (
    CONSTRAINT_PRACTICE_MAKE_SECONDS,
    SIZE,
    constraint_practice_puzzle,
    practised_lesson,
)
from learn.errors import NoPracticePuzzle, TechniqueNotOnSize, TechniqueNotOnVariant
from learn.examples import example_of
from learn.selectors import (
    practice_puzzle_pick,
    practice_puzzle_replay,
    technique_get,
    technique_practice_variant,
)
from learn.variant_practice import variant_practice_puzzle
from play.lifecycle import Player, game_start
from play.models import Game
from puzzles.bank import puzzle_get_or_create_from_grid
from puzzles.models import Source, Variant
from puzzles.practice import practice_pack_queue
from solver import parse
from solver.generation.classic import GenerationFailed
from solver.generation.practice import make_requiring, require_attempts
from solver.grid import Shape
from solving.steps import technique_name

log = logging.getLogger(__name__)

PRACTICE_MAKE_SECONDS = 0.8
"""How long a practice request may spend making a puzzle when the stock has none left for
the player (``PRACTICE_MAKE_SECONDS`` in settings overrides it)."""


def practice_game_start(
    *,
    player: Player,
    technique: str,
    size: int = 9,
    mistake_limit: int | None = None,
    may_make: Callable[[], bool] | None = None,
    variant: str | None = None,
) -> tuple[Game, bool]:
    """Start a practice game of ``technique`` on a puzzle of ``size`` that needs it: an
    unplayed one from the stock when there is one, else see the module docstring.

    ``may_make`` is asked before a puzzle is made here (the caller's rate for solver work);
    when it answers False the request goes straight to the other fallbacks. ``variant``,
    when given, must be the one the technique is practised on (TechniqueNotOnVariant)."""
    lesson = practised_lesson(technique)
    if lesson is not None:
        return _constraint_game_start(
            player=player,
            lesson=lesson,
            size=size,
            mistake_limit=mistake_limit,
            may_make=may_make,
            variant=variant,
        )
    tech = technique_get(slug=technique, size=size)
    own = technique_practice_variant(technique)
    if variant is not None and variant != own:
        raise TechniqueNotOnVariant(
            _("%(name)s is practised on %(variant)s puzzles.")
            % {"name": _name(tech), "variant": _variant_name(own)},
            extra={"technique": technique, "variant": own},
        )
    games = Game.objects.filter(player.owns())
    if own != "classic":
        puzzle_id = variant_practice_puzzle(
            technique=technique,
            variant=own,
            size=size,
            games=games,
            may_make=may_make,
            seconds=getattr(settings, "PRACTICE_MAKE_SECONDS", PRACTICE_MAKE_SECONDS),
        )
    else:
        puzzle_id = practice_puzzle_pick(
            slug=technique, size=size, played=games.values("puzzle_id")
        )
    if puzzle_id is None and own == "classic":
        practice_pack_queue(technique=technique, size=size)  # unless one is on its way
        make = may_make is None or may_make()
        puzzle_id = (
            (practice_puzzle_make(technique=technique, size=size) if make else None)
            or practice_puzzle_replay(slug=technique, size=size, games=games)
            or practice_example_puzzle(technique=technique, size=size)
        )
    if puzzle_id is None:
        raise NoPracticePuzzle(
            _("No %(size)sx%(size)s puzzle needing %(name)s could be made: try again.")
            % {"size": size, "name": _name(tech)},
            extra={"technique": technique, "size": size},
        )
    return game_start(
        player=player,
        puzzle_id=puzzle_id,
        mistake_limit=mistake_limit,
        practice_technique=technique,
    )


def _constraint_game_start(
    *,
    player: Player,
    lesson: ConstraintLesson,
    size: int,
    mistake_limit: int | None,
    may_make: Callable[[], bool] | None,
    variant: str | None,
) -> tuple[Game, bool]:
    """A practice game of a constraint lesson: 9x9, on a puzzle with its constraints."""
    if size != SIZE:
        raise TechniqueNotOnSize(
            _("%(name)s is not practised on %(size)sx%(size)s: try %(sizes)s.")
            % {"name": lesson.name, "size": size, "sizes": f"{SIZE}x{SIZE}"},
            extra={"technique": lesson.slug, "size": size},
        )
    if variant is not None and variant != Variant.CLASSIC:
        raise TechniqueNotOnVariant(
            _("%(name)s is practised on %(variant)s puzzles.")
            % {"name": lesson.name, "variant": _variant_name(Variant.CLASSIC)},
            extra={"technique": lesson.slug, "variant": Variant.CLASSIC},
        )
    puzzle_id = constraint_practice_puzzle(
        lesson=lesson,
        games=Game.objects.filter(player.owns()),
        may_make=may_make,
        seconds=getattr(
            settings, "CONSTRAINT_PRACTICE_MAKE_SECONDS", CONSTRAINT_PRACTICE_MAKE_SECONDS
        ),
    )
    return game_start(
        player=player,
        puzzle_id=puzzle_id,
        mistake_limit=mistake_limit,
        practice_technique=lesson.slug,
    )


def _name(tech: Any) -> str:
    return technique_name({"technique": tech.slug, "name": tech.name})


def _variant_name(variant: str) -> str:
    return str(dict(Variant.choices).get(variant, variant))


def practice_puzzle_make(
    *, technique: str, size: int, seconds: float | None = None, seed: str | None = None
) -> int | None:
    """Make a puzzle of ``size`` that needs ``technique``, store it in the bank and return
    its id; None when none was made within ``seconds``."""
    if seconds is None:
        seconds = getattr(settings, "PRACTICE_MAKE_SECONDS", PRACTICE_MAKE_SECONDS)
    seed = seed or f"practice:{secrets.token_hex(6)}"
    shape = Shape.for_size(size)
    deadline = time.monotonic() + seconds
    try:
        made = make_requiring(
            shape,
            technique,
            "none",
            seed,
            require_attempts(shape, technique),
            lambda: time.monotonic() > deadline,
        )
    except (GenerationFailed, ValueError):
        log.info("practice %s %sx%s: none made in %.1f s", technique, size, size, seconds)
        return None
    puzzle, _ = puzzle_get_or_create_from_grid(
        grid=made.puzzle, source=Source.GENERATED, solution=made.solution
    )
    return puzzle.pk


def practice_example_puzzle(*, technique: str, size: int) -> int | None:
    """The id of the lesson's example puzzle (stored in the bank on first use) when it is of
    ``size``: every technique has one, and it needs the technique."""
    example = example_of(technique)
    if example is None or example["size"] != size:
        return None
    grid = parse(example["givens"], box_rows=example["box_rows"], box_cols=example["box_cols"])
    puzzle, _ = puzzle_get_or_create_from_grid(grid=grid, source=Source.GENERATED)
    return puzzle.pk
