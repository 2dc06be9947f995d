"""Celery tasks of integrity: thin wrappers that take ids and call the services."""

from __future__ import annotations

from celery import shared_task

from . import decisions


@shared_task(name="integrity.player_release", acks_late=True, reject_on_worker_lost=True)
def player_release(user_id: int) -> int:
    """Rate the next chunk of a cleared (or newly established) player's waiting games
    (idempotent); how many."""
    return decisions.player_release(user_id=user_id)
