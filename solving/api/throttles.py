"""Rates for the solver endpoints, per client: the signed-in user, else the client address.

The address is the one :func:`sudokusite.net.client_ip` resolves (REMOTE_ADDR unless
TRUSTED_PROXY_COUNT says proxies append to X-Forwarded-For), so a guest cannot reset its
count by sending another X-Forwarded-For. Rates are the ``solver_analyse`` and
``solver_hint`` scopes of REST_FRAMEWORK's DEFAULT_THROTTLE_RATES (SOLVER_ANALYSE_RATE,
SOLVER_HINT_RATE in the environment). A refused request is a 429 with Retry-After.
"""

from __future__ import annotations

from typing import Any

from sudokusite.net import client_ip
from sudokusite.throttling import SimpleRateThrottle


class ClientRateThrottle(SimpleRateThrottle):
    """Counts requests per signed-in user, or per client address for guests."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ident = f"user:{user.pk}"
        else:
            ident = f"ip:{client_ip(request._request) or 'unknown'}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AnalyseThrottle(ClientRateThrottle):
    scope = "solver_analyse"


class HintThrottle(ClientRateThrottle):
    scope = "solver_hint"
