"""Throttles for the sign-in and sign-up endpoints.

These count every attempt in the cache, per client address (sudokusite.net's
rule: X-Forwarded-For is ignored unless TRUSTED_PROXY_COUNT says otherwise) and
per username. django-axes separately locks out after repeated failures.
"""

from __future__ import annotations

import hashlib
from typing import Any

from sudokusite.net import client_ip
from sudokusite.throttling import SimpleRateThrottle


class AuthAddressThrottle(SimpleRateThrottle):
    scope = "auth_address"

    def get_cache_key(self, request: Any, view: Any) -> str:
        ident = client_ip(request._request) or "unknown"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AuthUsernameThrottle(SimpleRateThrottle):
    scope = "auth_username"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        data = request.data
        username = data.get("username") if isinstance(data, dict) else None
        if not isinstance(username, str) or not username.strip():
            return None
        # Hashed: a username may hold characters a cache key must not.
        ident = hashlib.sha256(username.strip().lower().encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": ident}


class RegisterAddressThrottle(AuthAddressThrottle):
    scope = "register"


class PasswordResetAddressThrottle(AuthAddressThrottle):
    scope = "password_reset"
