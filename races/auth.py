"""Who is on the other end of a race socket, decided at the edge (before the consumer).

A browser page signs in with its session cookie (channels' AuthMiddlewareStack). A phone
or script sends its API token (knox, the same as ``Authorization: Token <key>`` on the
API) in one of two places, never in the URL (URLs end up in logs):

- the ``Authorization: Token <key>`` header of the opening handshake, where the client
  library lets it set headers; or
- the ``Sec-WebSocket-Protocol`` header, offering ``sudoku.race.v1`` and ``token.<key>``
  (what a browser's ``new WebSocket(url, protocols)`` can send); the server answers with
  ``sudoku.race.v1`` only, so the key is not echoed back.

A token that is presented but refused (unknown, expired, inactive user) makes the socket
close with 4401, rather than going on as a spectator.

A credential can be revoked while its socket is open: a token by logout (this device or
every device), a password change or the account's deletion; a session by signing out or a
password change. ``credential_user`` checks it again: the consumer does so on every
message it gets from a signed-in client, and whenever the user's group is told that one of
the user's credentials changed (sudokusite.publish.user_sockets_recheck), so a revoked
socket closes within moments even if it sends nothing.
"""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace
from typing import Any

from channels.db import database_sync_to_async
from channels.security.websocket import OriginValidator
from django.conf import settings
from rest_framework import exceptions

SUBPROTOCOL = "sudoku.race.v1"
TOKEN_PREFIX = "token."
# A knox key is 64 hex characters; anything much longer is not one.
_MAX_KEY = 128


def presented_token(scope: dict[str, Any]) -> str | None:
    """The API token the handshake carries, if any."""
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            kind, _, key = value.decode("latin1").partition(" ")
            if kind.lower() == "token" and key.strip():
                return key.strip()[:_MAX_KEY]
    for protocol in scope.get("subprotocols", ()):
        if protocol.startswith(TOKEN_PREFIX) and len(protocol) > len(TOKEN_PREFIX):
            return protocol[len(TOKEN_PREFIX) :][:_MAX_KEY]
    return None


def _token_user(key: str) -> Any | None:
    from accounts.auth import TokenAuthentication

    try:
        user, _token = TokenAuthentication().authenticate_credentials(key.encode())
    except exceptions.AuthenticationFailed:
        return None
    return user


_user_of_token = database_sync_to_async(_token_user)


def _session_user(session_key: str) -> Any | None:
    """The user the session still signs in, checked as Django checks a request's (the
    session exists, names an active user, and its hash of the password still matches)."""
    from django.contrib.auth import get_user

    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    user = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return user if user.is_authenticated else None


def credential_user(scope: dict[str, Any]) -> Any | None:
    """The user the socket's credential (its token, else its session) still stands for,
    or None when it no longer holds. Sync: run it in a thread (database_sync_to_async)."""
    user = scope.get("user")
    key = scope.get("auth_token")
    if key is not None:
        found = _token_user(key)
    else:
        session_key = getattr(scope.get("session"), "session_key", None)
        found = _session_user(session_key) if session_key else None
    if found is None or user is None or found.pk != user.pk:
        return None
    return found


class TokenAuthMiddleware:
    """Put the token's user in ``scope["user"]`` when the handshake carries a token (over
    the session's user); ``scope["auth_failed"]`` when it carries a bad one."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = presented_token(scope)
        if key is not None:
            user = await _user_of_token(key)
            scope = dict(scope, auth_failed=user is None)
            if user is not None:
                scope["user"] = user
                scope["auth_token"] = key
        return await self.app(scope, receive, send)


class SiteOriginValidator(OriginValidator):
    """Channels' AllowedHostsOriginValidator, except that a handshake with no ``Origin``
    is let in: browsers always send one (so a page of another site is still refused),
    and a phone app's WebSocket library often sends none."""

    def valid_origin(self, parsed_origin: Any) -> bool:
        if parsed_origin is None:
            return True
        return self.validate_origin(parsed_origin)


def site_origin_validator(app: Any) -> SiteOriginValidator:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:
        hosts = ["localhost", "127.0.0.1", "[::1]"]
    return SiteOriginValidator(app, hosts)
