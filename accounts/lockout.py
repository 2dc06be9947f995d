"""What a locked-out login sees (django-axes' AXES_LOCKOUT_CALLABLE)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from sudokusite.errors import error_body, is_api_request


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    retry_after = int(settings.AXES_COOLOFF_TIME.total_seconds())
    minutes = max(1, retry_after // 60)
    message = (
        f"Too many failed sign-in attempts. Try again in {minutes} minutes, or reset your password."
    )
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
