"""Periodic work for ratings: every stored puzzle gets its starting rating."""

from __future__ import annotations

from celery import shared_task

from ratings import services


@shared_task(name="ratings.puzzle_ratings_backfill", acks_late=True, reject_on_worker_lost=True)
def puzzle_ratings_backfill() -> int:
    # Idempotent (rows made once per puzzle): a redelivered run makes nothing twice.
    return services.puzzle_ratings_backfill()
