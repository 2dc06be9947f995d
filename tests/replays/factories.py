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

from play.models import Game, Move
from play.services import Player, move_apply

# Hand-made for the analysis: at the start r4c5 (cell 31) is a 4 by a hidden single only;
# then r1c4 (cell 3) is a 3 once a naked pair has cleared its row; then nothing the engine
# knows places the 5 in r1c1 (cell 0).
ANALYSED = ".....9.8....7.4......2....4.5.8..2....7.3..5..3697.....4......3...528..6..5.9..78"


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
    import uuid

    move_apply(
        game_id=game.pk,
        player=player,
        client_move_id=uuid.uuid4(),
        kind=kind,
        cell=cell,
        value=value,
    )
