"""The learning side's background work: the Killer practice stock (learn.variant_practice)
and the constraint lessons' (learn.constraint_practice)."""

from __future__ import annotations

from celery import shared_task

from learn import constraint_practice, variant_practice


@shared_task(name="learn.variant_practice_top_up", acks_late=True, reject_on_worker_lost=True)
def variant_practice_top_up() -> int:
    return variant_practice.variant_practice_top_up()


@shared_task(name="learn.constraint_practice_top_up", acks_late=True, reject_on_worker_lost=True)
def constraint_practice_top_up() -> int:
    return constraint_practice.constraint_practice_top_up()
