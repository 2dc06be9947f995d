"""Celery tasks of integrity: thin wrappers that take ids and call the services."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="integrity.player_release", acks_late=True, reject_on_worker_lost=True)
def player_release(user_id: int) -> int:
    """Rate the next chunk of a cleared player's held games (idempotent); how many."""
    from . import players

    return players.player_release(user_id=user_id)
