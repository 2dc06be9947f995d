"""Where a game by level gets its puzzle when the player has played them all: one made on
the spot (``puzzles.stock``), and the words for a level that cannot be had."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from puzzles import stock
from puzzles.models import Difficulty, Puzzle, Variant
from puzzles.stock import level_top_up, levels_offered

log = logging.getLogger(__name__)


def puzzle_made(
    variant: str, size: int, level: str, may_make: Callable[[], bool] | None
) -> Puzzle | None:
    """A puzzle of the level made now, the level's top-up queued behind it (see
    game_start); None when it is not made here or the caller's rate is spent."""
    if level not in levels_offered(variant, size):
        return None

    def top_up() -> None:
        try:
            level_top_up(variant=variant, size=size, level=level, count=settings.PUZZLE_BANK_TARGET)
        except Exception:  # the game is started; the beat's top-up tries again
            log.exception("top-up of %s %sx%s %s failed", variant, size, size, level)

    transaction.on_commit(top_up)
    if may_make is not None and not may_make():
        return None
    # Through the module, so that a test can stand in for the making.
    return stock.bank_puzzle_make(variant=variant, size=size, level=level)


def level_unavailable(variant: str, size: int, level: str) -> str:
    """Why no puzzle of the level can be served now, in the player's words."""
    names = {"level": level_label(level), "size": size, "variant": variant_label(variant)}
    offered = levels_offered(variant, size)
    if level not in offered:
        if not offered:
            return (
                _("%(variant)s puzzles are not made at %(size)sx%(size)s: try another size.")
                % names
            )
        return _(
            "%(variant)s %(size)sx%(size)s puzzles are not made at %(level)s: choose %(levels)s."
        ) % {**names, "levels": ", ".join(level_label(other) for other in offered)}
    return (
        _(
            "No %(level)s %(size)sx%(size)s %(variant)s puzzle is ready right now; more are being "
            "made: try again in a few minutes, or another level."
        )
        % names
    )


def variant_label(variant: str) -> str:
    """A variant's name in the reader's language (``Killer``, ``杀手数独``)."""
    return str(dict(Variant.choices).get(variant, variant))


def level_label(difficulty: str) -> str:
    """A level's name in the reader's language, in lower case (``easy``, ``简单``)."""
    return str(dict(Difficulty.choices).get(difficulty, difficulty)).lower()
