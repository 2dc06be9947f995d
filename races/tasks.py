"""Periodic work for races: the starts and time limits nobody's socket asked for."""

from __future__ import annotations

from celery import shared_task

from races import services


@shared_task(name="races.race_advance_due", acks_late=True, reject_on_worker_lost=True)
def race_advance_due() -> int:
    # Idempotent: a start or a time limit happens once, whoever gets the row lock first.
    return services.race_advance_due()
