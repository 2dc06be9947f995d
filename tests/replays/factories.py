"""Event-log rows for replay tests.

Values, notes, hints, auto notes and restarts are played through the play services (they
log themselves); ``event_create`` writes the other kinds of the event log (undo, redo,
pause, resume, hint stages, abandon) directly, with the changes each made, so these tests
do not depend on the services writing them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import F, Max

from play.lifecycle import Player
from play.models import Game, Move
from tests.play.factories import play_move

# Hand-made for the analysis (a puzzle beyond the logic engine): at the start r1c3 (cell 2)
# is a 5 by a hidden single only; then r9c7 (cell 78) is a 1 once a naked pair has made
# room; then nothing the engine knows places the 2 in r1c5 (cell 4).
ANALYSED = "38.6.......9.......2..3.51......5....3..1..6....4......17.5..8.......9.......7.32"


def event_create(
    game: Game,
    kind: str,
    *,
    cell: int | None = None,
    value: int = 0,
    correct: bool | None = None,
    changes: dict[str, Any] | None = None,
    elapsed_ms: int = 0,
    created: datetime | None = None,
) -> Move:
    """Append one event to the game's log (the next seq)."""
    seq = (Move.objects.filter(game=game).aggregate(m=Max("seq"))["m"] or 0) + 1
    Game.objects.filter(pk=game.pk).update(move_count=F("move_count") + 1)
    move = Move.objects.create(
        game=game,
        seq=seq,
        kind=kind,
        cell=cell,
        value=value,
        correct=correct,
        changes=changes or {},
        elapsed_ms=elapsed_ms,
    )
    if created is not None:
        Move.objects.filter(pk=move.pk).update(created=created)
        move.created = created
    return move


def play(game: Game, player: Player, cell: int, value: int, kind: str = "value") -> None:
    play_move(game, player, cell, value, kind)
