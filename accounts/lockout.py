"""The sign-in lockout (django-axes): what it clears on a success, and what a locked-out
login sees.

Failures are recorded in the database (axes' database handler, AXES_HANDLER), so the
lockout keeps counting when the cache is down.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from sudokusite.errors import error_body, is_api_request


class LockoutHandler(AxesDatabaseHandler):
    """Axes' database handler, except that a successful sign-in clears only the failures
    recorded under the name that signed in.

    Axes' own reset deletes every failure matching any lockout parameter, the address
    included: an attacker guessing a victim's password could sign in to their own account
    from the same address between guesses and so never lock the victim's name.
    """

    def reset_user_attempts(self, request: HttpRequest, credentials: Any = None) -> int:
        username = get_client_username(request, credentials)
        if not username:
            return 0
        count, _ = AccessAttempt.objects.filter(username=username).delete()
        return count


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """What a locked-out login sees (AXES_LOCKOUT_CALLABLE)."""
    retry_after = int(settings.AXES_COOLOFF_TIME.total_seconds())
    minutes = max(1, retry_after // 60)
    message = _(
        "Too many failed sign-in attempts. Try again in %(minutes)s minutes, or reset your "
        "password."
    ) % {"minutes": minutes}
    if is_api_request(request):
        response: HttpResponse = JsonResponse(error_body("login_locked", message), status=429)
    else:
        response = render(
            request,
            "accounts/locked_out.html",
            {"message": message, "minutes": minutes},
            status=429,
        )
    response["Retry-After"] = str(retry_after)
    return response
