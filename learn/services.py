"""Practice games: a game on a puzzle whose logic solution needs the chosen technique."""

from __future__ import annotations

from django.utils.translation import gettext as _

from learn.errors import NoPracticePuzzle
from learn.selectors import practice_puzzle_pick, technique_get
from play.lifecycle import Player, game_start
from play.models import Game
from puzzles.practice import practice_pack_on_its_way, practice_pack_queue
from solving.steps import technique_name


def practice_game_start(
    *, player: Player, technique: str, size: int = 9, mistake_limit: int | None = None
) -> tuple[Game, bool]:
    """Start a practice game of ``technique`` on an unplayed puzzle of ``size`` that needs
    it. When the bank has none, a practice pack is queued (unless one is on its way) and
    NoPracticePuzzle (404) says to come back shortly."""
    tech = technique_get(slug=technique, size=size)
    played = Game.objects.filter(player.owns()).values("puzzle_id")
    puzzle_id = practice_puzzle_pick(slug=technique, size=size, played=played)
    if puzzle_id is None:
        queued = practice_pack_queue(technique=technique, size=size)
        busy = queued is not None or practice_pack_on_its_way(technique=technique, size=size)
        if busy:
            message = _(
                "The bank has no %(size)sx%(size)s puzzle needing %(name)s that you have not "
                "played: more are being made, try again in a minute."
            )
        else:
            message = _(
                "The bank has no %(size)sx%(size)s puzzle needing %(name)s that you have not "
                "played: our generator rarely makes one, so try another technique."
            )
        name = technique_name({"technique": tech.slug, "name": tech.name})
        raise NoPracticePuzzle(
            message % {"size": size, "name": name},
            extra={"technique": technique, "size": size},
        )
    return game_start(
        player=player,
        puzzle_id=puzzle_id,
        mistake_limit=mistake_limit,
        practice_technique=technique,
    )
