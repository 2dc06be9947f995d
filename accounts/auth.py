"""API token authentication: knox's tokens and checks, in one query per request.

knox's ``TokenAuthentication`` loads every other token of the user on every request to
delete the expired ones: a second query per request (and a DELETE whenever it finds
one), paid by every move of a game. Here the presented token is still refused and
deleted once it has expired, exactly as knox does, while the user's other expired
tokens are left to ``accounts.token_purge_expired`` (Celery beat, daily), which drops
every expired token in one statement. Everything else (the hashed lookup, the
constant-time digest comparison, the throttled expiry refresh, the inactive-user check,
the ``Authorization: Token ...`` header) is knox's own code.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.signals import token_expired


class TokenAuthentication(KnoxTokenAuthentication):
    def _cleanup_token(self, auth_token: Any) -> bool:
        """True (and the token deleted) if the presented token has expired."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


class TokenScheme(KnoxTokenScheme):
    """The same OpenAPI security scheme as knox's class gets."""

    target_class = "accounts.auth.TokenAuthentication"
