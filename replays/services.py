"""Writes for replays: the analysis (once, by the worker) and the owner's sharing."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from play.models import FINISHED, Game
from puzzles.models import Variant
from puzzles.variants import rules_of

from .analysis import analyse
from .models import SKIPPED, GameAnalysis, ReplayShare
from .selectors import event_list, finished_game_get

if TYPE_CHECKING:  # play.ending calls this app: no import of play's services back
    from play.steps import Player


def analysis_enqueue(*, game_id: int) -> None:
    """Queue the game's analysis for when the transaction that ends the game commits."""
    from .tasks import analysis_compute as task

    transaction.on_commit(lambda: task.delay(game_id))


def analysis_skip(*, game_id: int) -> None:
    """Store that the game is not analysed (its player ended more games than
    ANALYSES_PER_HOUR, play/limits.py): the replay says so instead of waiting."""
    GameAnalysis.objects.get_or_create(game_id=game_id, defaults={"data": SKIPPED})


def analysis_compute(*, game_id: int) -> GameAnalysis | None:
    """Analyse a finished game and store it, once: a second run (a redelivered task)
    returns the stored row. None for a game that is gone or not finished."""
    existing = GameAnalysis.objects.filter(game_id=game_id).first()
    if existing is not None:
        return existing
    game = Game.objects.select_related("puzzle").filter(pk=game_id).first()
    if game is None or not game.is_finished:
        return None
    puzzle = game.puzzle
    data = analyse(
        givens=puzzle.givens,
        solution=puzzle.solution,
        box_rows=puzzle.box_rows,
        box_cols=puzzle.box_cols,
        events=event_list(game=game),
        hints_used=game.hints_used,
        rules=rules_of(puzzle),
    )
    try:
        with transaction.atomic():
            return GameAnalysis.objects.create(game=game, data=data)
    except IntegrityError:  # another worker stored it first
        return GameAnalysis.objects.get(game_id=game_id)


BACKFILL_LIMIT = 500


def variant_analyses_backfill(*, limit: int = BACKFILL_LIMIT) -> int:
    """Queue the analysis of finished variant games that have none (they ended before
    variant games were analysed), oldest first, at most ``limit``; how many were queued.
    Run again until it queues none: the worker stores each once."""
    from .tasks import analysis_compute as task

    ids = list(
        Game.objects.filter(status__in=FINISHED, analysis__isnull=True)
        .exclude(puzzle__variant=Variant.CLASSIC)
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )
    for game_id in ids:
        task.delay(game_id)
    return len(ids)


def replay_share(*, game_id: int, player: Player, show_username: bool = False) -> ReplayShare:
    """Make the player's finished game's replay public (or change ``show_username``);
    the link stays the same while it is shared."""
    game = finished_game_get(game_id=game_id, player=player)
    with transaction.atomic():
        share, created = ReplayShare.objects.select_for_update().get_or_create(
            game=game,
            defaults={"token": secrets.token_urlsafe(24), "show_username": show_username},
        )
        if not created and share.show_username != show_username:
            share.show_username = show_username
            share.save(update_fields=["show_username"])
    return share


def replay_unshare(*, game_id: int, player: Player) -> None:
    """Stop sharing: the public link is a 404 from now on (sharing again makes a new one)."""
    game = finished_game_get(game_id=game_id, player=player)
    ReplayShare.objects.filter(game=game).delete()
