"""The learning side's background work: the Killer practice stock (learn.variant_practice)."""

from __future__ import annotations

from celery import shared_task

from learn import variant_practice


@shared_task(name="learn.variant_practice_top_up", acks_late=True, reject_on_worker_lost=True)
def variant_practice_top_up() -> int:
    return variant_practice.variant_practice_top_up()
