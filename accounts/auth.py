"""API token authentication: knox's tokens and checks, in one query per request.

knox's ``TokenAuthentication`` loads every other token of the user on every request to
delete the expired ones: a second query per request (and a DELETE whenever it finds
one), paid by every move of a game. Here the presented token is still refused and
deleted once it has expired, exactly as knox does, while the user's other expired
tokens are left to ``accounts.token_purge_expired`` (Celery beat, daily), which drops
every expired token in one statement. The one query (the tokens under the presented
key's prefix, with their user) is written as SQL once (see sudokusite.rows): compiling it
through the ORM cost more than a move's own work. Everything else (the hashed lookup, the
constant-time digest comparison, the throttled expiry refresh, the inactive-user check,
the ``Authorization: Token ...`` header) is knox's own code.
"""

from __future__ import annotations

import binascii
from collections.abc import Sequence
from functools import cache
from hmac import compare_digest
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.models import get_token_model
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import exceptions

from sudokusite.rows import ModelColumns, db


@cache
def _token_columns() -> tuple[ModelColumns, ModelColumns]:
    return ModelColumns(get_token_model(), "t"), ModelColumns(get_user_model(), "u")


@cache
def _lookup() -> str:
    """The tokens under a key prefix (one parameter), each with its user: the token's
    columns, then the user's."""
    tokens, users = _token_columns()
    conn = db()
    quote = conn.ops.quote_name
    user_id = f"t.{quote(tokens.model._meta.get_field('user').column)}"
    return (
        f"SELECT {tokens.select_list(conn)}, {users.select_list(conn)} "
        f"FROM {quote(tokens.model._meta.db_table)} t "
        f"INNER JOIN {quote(users.model._meta.db_table)} u "
        f"ON u.{quote(users.model._meta.pk.column)} = {user_id} "
        f"WHERE t.{quote('token_key')} = %s"
    )


def _token_load(row: Sequence[Any]) -> Any:
    """A token, with its ``user``, from a row of ``_lookup``."""
    tokens, users = _token_columns()
    conn = db()
    token = tokens.load(conn, row)
    token.user = users.load(conn, row, tokens.width)
    return token


def _tokens_with_prefix(prefix: str) -> list[Any]:
    """The tokens whose key starts like the one presented, each with its ``user`` loaded."""
    with db().cursor() as cursor:
        cursor.execute(_lookup(), [prefix])
        return [_token_load(row) for row in cursor.fetchall()]


class TokenAuthentication(KnoxTokenAuthentication):
    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        """knox's own steps, over ``_tokens_with_prefix``."""
        try:
            presented = token.decode("utf-8")
        except UnicodeDecodeError:  # knox's own code let this through: a 500
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        found = _tokens_with_prefix(presented[: CONSTANTS.TOKEN_KEY_LENGTH])
        matched = self._matching(presented, [t for t in found if not self._cleanup_token(t)])
        if matched is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        self._refresh(matched)
        return self.validate_user(matched)

    @staticmethod
    def _matching(presented: str, tokens: list[Any]) -> Any | None:
        """The token whose digest is the presented key's (compared in constant time)."""
        if not tokens:
            return None
        try:
            digest = hash_token(presented)
        except (TypeError, binascii.Error):
            return None
        return next((t for t in tokens if compare_digest(digest, t.digest)), None)

    def _refresh(self, auth_token: Any) -> None:
        if knox_settings.AUTO_REFRESH and auth_token.expiry:
            self.renew_token(auth_token)

    @staticmethod
    def _expired(auth_token: Any) -> bool:
        return auth_token.expiry is not None and auth_token.expiry < timezone.now()

    def _cleanup_token(self, auth_token: Any) -> bool:
        """True (and the token deleted) if the presented token has expired."""
        if self._expired(auth_token):
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


class TokenScheme(KnoxTokenScheme):
    """The same OpenAPI security scheme as knox's class gets."""

    target_class = "accounts.auth.TokenAuthentication"
