"""The base of every rate throttle: when the cache is unreachable, let the request in.

DRF's throttles count requests in the cache (Redis in production). With Redis down, a
count cannot be read or written; answering 500 would take sign-in and the solver down
with it. The choice here is to fail open: the request goes through unthrottled and a
warning is logged, each time, naming the scope. What guards sign-in during an outage is
the lockout, which counts failures in the database (accounts.lockout), not the cache.
"""

from __future__ import annotations

import logging
from typing import Any

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
