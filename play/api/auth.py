"""Guests: a browser visitor without an account plays under a key kept in their session.

``GuestSessionAuthentication`` comes after token and session authentication on the game
endpoints. It recognises a browser (a request carrying our CSRF cookie) that is not signed
in, and enforces CSRF on its writes exactly as DRF does for a signed-in session, since a
guest's games are as much worth protecting. A client with neither a token, a session nor
the CSRF cookie is not a guest: it gets 401. Nor is one whose cookie Django could not have
set (not 32 or 64 letters and digits): a made-up cookie is not a browser of ours.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from sudokusite.net import client_ip

from ..steps import Player, guest_key_get

# The form of a CSRF cookie Django sets: a secret of 32 letters and digits, or a masked
# token of 64 (django.middleware.csrf's CSRF_SECRET_LENGTH and CSRF_TOKEN_LENGTH).
_CSRF_COOKIE = re.compile(r"[a-zA-Z0-9]{32}(?:[a-zA-Z0-9]{32})?")


class Guest:
    """The ``request.auth`` of a guest: their session, and their key once they have one."""

    def __init__(self, request: Any) -> None:
        self._request = request

    def key(self, *, create: bool = False) -> str:
        return guest_key_get(request=self._request, create=create)


class GuestSessionAuthentication(SessionAuthentication):
    def authenticate(self, request: Request) -> tuple[AnonymousUser, Guest] | None:
        django_request = request._request
        user = getattr(django_request, "user", None)
        if user is not None and user.is_authenticated:
            return None  # SessionAuthentication (before us) handles signed-in users
        cookie = django_request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
        if not _CSRF_COOKIE.fullmatch(cookie):
            return None
        self.enforce_csrf(request)
        return AnonymousUser(), Guest(django_request)


class IsPlayer(BasePermission):
    """A signed-in user, or a guest browser."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated) or isinstance(
            request.auth, Guest
        )


def player_of(request: Request, *, create: bool = False) -> Player:
    if request.user and request.user.is_authenticated:
        return Player(user=request.user)
    if isinstance(request.auth, Guest):
        return Player(guest_key=request.auth.key(create=create), address=client_ip(request) or "")
    return Player()


class GuestSessionScheme(OpenApiAuthenticationExtension):
    target_class = "play.api.auth.GuestSessionAuthentication"
    name = "guestSession"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": settings.CSRF_COOKIE_NAME,
            "description": "A browser visitor without an account (guest games kept in "
            "the session); writes need the X-CSRFToken header.",
        }
