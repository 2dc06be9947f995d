"""The base of every rate throttle: when the cache is unreachable, let the request in.

DRF's throttles count requests in the cache (Redis in production). With Redis down, a
count cannot be read or written; answering 500 would take sign-in and the solver down
with it. The choice here is to fail open: the request goes through unthrottled and a
warning is logged, each time, naming the scope. What guards sign-in during an outage is
the lockout, which counts failures in the database (accounts.lockout), not the cache.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import cache
from redis.exceptions import RedisError
from rest_framework import throttling

logger = logging.getLogger(__name__)

# What a cache backend raises when it cannot reach its store: Redis' client errors, and
# OSError for the file-based cache (or a socket error that escapes a client).
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError, OSError)


class SimpleRateThrottle(throttling.SimpleRateThrottle):
    """DRF's SimpleRateThrottle that fails open, with a logged warning, if the cache is
    unreachable. Subclass it as DRF's (``scope``, ``get_cache_key``)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS as exc:
            logger.warning(
                "The cache is unreachable (%s): the %s throttle lets this request through.",
                exc,
                self.scope,
            )
            return True


def window_count(key: str, *, period: int, now: float | None = None) -> tuple[int, int] | None:
    """Count one more event under ``key`` in the current fixed window of ``period`` seconds.

    Returns the count so far in this window (this event included) and the seconds until
    the window ends, or None when the cache is unreachable: like the throttles above, a
    limit built on it then lets the event through (a warning is logged). The increment is
    atomic, so two requests racing at the limit cannot both be the last one let in.
    """
    now = time.time() if now is None else now
    window = int(now // period)
    full = f"limit:{key}:{period}:{window}"
    try:
        cache.add(full, 0, timeout=period + 1)
        try:
            count = cache.incr(full)
        except ValueError:  # the key expired between add and incr: a new window
            cache.set(full, 1, timeout=period + 1)
            count = 1
    except CACHE_ERRORS as exc:
        logger.warning("The cache is unreachable (%s): the %s limit lets this through.", exc, key)
        return None
    return count, max(1, period - int(now % period))
