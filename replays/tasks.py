"""Celery tasks of replays: thin wrappers that take ids and call the services."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="replays.analysis_compute", acks_late=True, reject_on_worker_lost=True)
def analysis_compute(game_id: int) -> bool:
    """Analyse a finished game (idempotent); True when an analysis is stored."""
    return services.analysis_compute(game_id=game_id) is not None
