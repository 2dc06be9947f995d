"""Queueing a worker task from a request, at most once a minute.

A request that finds a stock empty (a practice puzzle, the daily puzzle with constraints)
asks the workers to make more, then answers at once. Many requests find it empty together,
so the task is queued once a minute at most (a cache key), after the request's transaction
commits; a broker that cannot be reached is logged, not raised: beat queues the same task
on its own schedule.
"""

from __future__ import annotations

import logging

from celery import current_app
from django.core.cache import cache
from django.db import transaction
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

QUEUE_INTERVAL = 60
"""Seconds during which a task queued by :func:`queue_once_a_minute` is not queued again."""


def queue_once_a_minute(task: str) -> None:
    """Send ``task`` (by name) after this transaction, unless it was sent in the last
    minute (see the module docstring)."""
    if cache.add(f"queued:{task}", 1, timeout=QUEUE_INTERVAL):
        transaction.on_commit(lambda: _send(task))


def _send(task: str) -> None:
    try:
        current_app.send_task(task)
    except OperationalError as exc:
        log.warning("%s not queued: the broker is unreachable (%s)", task, exc)
