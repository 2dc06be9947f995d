"""A game's puzzle as it travels (``puzzles.sharing``), its solution only where the game
and the puzzle allow it (``play.disclosure``)."""

from __future__ import annotations

import json
from typing import Any

from puzzles.sharing import puzzle_export

from .disclosure import export_solution_visible
from .models import Game


def game_export(game: Game) -> dict[str, Any]:
    """The export of ``game``'s puzzle for its own player."""
    games = Game.objects.filter(pk=game.pk)
    return puzzle_export(
        puzzle=game.puzzle, with_solution=export_solution_visible(game.puzzle, games=games)
    )


def export_context(exported: dict[str, Any]) -> dict[str, Any]:
    """The template context of the Export / Share box (templates/includes)."""
    text = json.dumps(exported["fpuzzles"], separators=(",", ":"), ensure_ascii=False)
    return {"export": exported, "export_json": text}
