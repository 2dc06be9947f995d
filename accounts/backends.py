"""Sign-in by username in any case.

Usernames are unique regardless of case ("Alice" and "alice" are one player, see
``accounts.services.user_register``), so a player who signed up as "Alice" can sign in as
"alice", as phones often capitalise or lower-case the first letter typed. The lockout
counts failures by the username folded the same way (``lockout_username``), so changing
the case of a username does not buy more guesses.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest


def user_by_username(username: str) -> AbstractBaseUser | None:
    """The user with this username in any case. The exact spelling wins, for accounts
    made before uniqueness ignored case whose names differ only by case; among several
    such accounts, a spelling that matches none of them exactly finds nobody."""
    user_model = get_user_model()
    field = user_model.USERNAME_FIELD
    exact = user_model._default_manager.filter(**{field: username}).first()
    if exact is not None:
        return exact
    matches = list(user_model._default_manager.filter(**{f"{field}__iexact": username})[:2])
    return matches[0] if len(matches) == 1 else None


class CaseInsensitiveModelBackend(ModelBackend):
    """Django's ModelBackend, finding the user by username in any case.

    A refused username and password end the sign-in here (PermissionDenied), so the
    plain ModelBackend listed after this one, kept only so that sessions it signed in
    stay signed in, never checks the same password a second time."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> AbstractBaseUser | None:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = user_by_username(username)
        if user is None:
            # Hash anyway, as ModelBackend does, so a missing user takes as long as a
            # wrong password.
            get_user_model()().set_password(password)
        elif user.check_password(password) and self.user_can_authenticate(user):
            return user
        raise PermissionDenied


def lockout_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str | None:
    """The username django-axes counts failures under (AXES_USERNAME_CALLABLE): the one
    given, lower-cased, so every spelling of a name shares one count."""
    field = settings.AXES_USERNAME_FORM_FIELD
    if credentials:
        username = credentials.get(field)
    else:
        username = getattr(request, "data", request.POST).get(field)
    return username.lower() if isinstance(username, str) else username
