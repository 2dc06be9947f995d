"""Celery tasks of the puzzle bank: thin wrappers that take ids and call the services.

Every task is acknowledged late and rejected (so redelivered) when its worker dies
(``task_acks_late`` and ``task_reject_on_worker_lost`` in settings, repeated here so the
guarantee does not hang on a setting); the services make running twice harmless.
"""

from __future__ import annotations

import logging

from celery import shared_task

from puzzles import chunks, constraint_daily, daily, packs, practice, regrade, stock

logger = logging.getLogger(__name__)

RETRY_DELAYS = (1, 2, 4)
"""Seconds before the retries of a failing chunk (the last delay repeats)."""


@shared_task(
    bind=True,
    name="puzzles.pack_chunk_generate",
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,  # bounded by the chunk's attempts, which also count redeliveries
)
def pack_chunk_generate(self, pack_id: int, number: int) -> int:
    try:
        return chunks.pack_chunk_generate(pack_id=pack_id, number=number)
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
        if chunks.pack_chunk_may_retry(pack_id=pack_id, number=number):
            delay = RETRY_DELAYS[min(self.request.retries, len(RETRY_DELAYS) - 1)]
            logger.warning(
                "pack %s chunk %s failed (%s); retry in %ss", pack_id, number, error, delay
            )
            raise self.retry(exc=exc, countdown=delay) from exc
        chunks.pack_chunk_fail(pack_id=pack_id, number=number, error=error)
        return 0


@shared_task(name="puzzles.bank_top_up", acks_late=True, reject_on_worker_lost=True)
def bank_top_up() -> list[int]:
    packs_queued = stock.bank_top_up() + practice.practice_top_up()
    return [pack.pk for pack in packs_queued]


@shared_task(name="puzzles.daily_puzzles_pick", acks_late=True, reject_on_worker_lost=True)
def daily_puzzles_pick() -> int:
    return daily.daily_puzzles_pick() + constraint_daily.constraint_dailies_pick()


@shared_task(name="puzzles.constraint_daily_pick", acks_late=True, reject_on_worker_lost=True)
def constraint_daily_pick() -> int:
    """Today's and tomorrow's daily puzzle with constraints, queued by a request that
    found today's missing."""
    return constraint_daily.constraint_dailies_pick()


@shared_task(name="puzzles.pack_resume_stalled", acks_late=True, reject_on_worker_lost=True)
def pack_resume_stalled() -> int:
    return packs.pack_resume_stalled()


@shared_task(name="puzzles.bank_regrade_chunk", acks_late=True, reject_on_worker_lost=True)
def bank_regrade_chunk(first_id: int, last_id: int) -> int:
    return regrade.bank_regrade_chunk(first_id=first_id, last_id=last_id)


@shared_task(name="puzzles.bank_regrade_start", acks_late=True, reject_on_worker_lost=True)
def bank_regrade_start() -> int:
    """Queue a chunk task for every range of puzzles graded by an older grader."""
    plan = regrade.bank_regrade_plan()
    for span in plan:
        bank_regrade_chunk.delay(span.first_id, span.last_id)
    return len(plan)
