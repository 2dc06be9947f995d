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
def _lookup() -> tuple[str, ModelColumns, ModelColumns]:
    token_model, user_model = get_token_model(), get_user_model()
    tokens, users = ModelColumns(token_model, "t"), ModelColumns(user_model, "u")
    conn = db()
    quote = conn.ops.quote_name
    user_fk = token_model._meta.get_field("user")
    sql = (
        f"SELECT {tokens.select_list(conn)}, {users.select_list(conn)} "
        f"FROM {quote(token_model._meta.db_table)} t "
        f"INNER JOIN {quote(user_model._meta.db_table)} u "
        f"ON u.{quote(user_model._meta.pk.column)} = t.{quote(user_fk.column)} "
        f"WHERE t.{quote('token_key')} = %s"
    )
    return sql, tokens, users


def _tokens_with_prefix(prefix: str) -> list[Any]:
    """The tokens whose key starts like the one presented, each with its ``user`` loaded."""
    sql, tokens, users = _lookup()
    conn = db()
    with conn.cursor() as cursor:
        cursor.execute(sql, [prefix])
        rows = cursor.fetchall()
    found = []
    for row in rows:
        token = tokens.load(conn, row)
        token.user = users.load(conn, row, tokens.width)
        found.append(token)
    return found


class TokenAuthentication(KnoxTokenAuthentication):
    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        """knox's own steps, over ``_tokens_with_prefix``."""
        msg = _("Invalid token.")
        presented = token.decode("utf-8")
        for auth_token in _tokens_with_prefix(presented[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            try:
                digest = hash_token(presented)
            except (TypeError, binascii.Error):
                raise exceptions.AuthenticationFailed(msg) from None
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed(msg)

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
