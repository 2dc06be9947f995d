"""One error shape for the whole API, and the domain errors apps raise.

Every error under ``/api/`` answers::

    {"error": {"code": "cell_is_given", "message": "Cell r1c3 is a given and cannot change."}}

and validation errors add the per-field messages::

    {"error": {"code": "invalid", "message": "password: This password is too short.",
               "fields": {"password": ["This password is too short."]}}}

Apps raise a ``DomainError`` subclass from their services and never build error
responses themselves::

    class MoveRejected(DomainError):
        status_code = 409
        code = "move_rejected"
        message = "That move is not allowed."

    raise MoveRejected("Cell r1c3 is a given and cannot change.", code="cell_is_given")

``api_exception_handler`` (DRF's EXCEPTION_HANDLER) maps DomainError, DRF's
exceptions and Django's ValidationError/Http404/PermissionDenied to that shape,
keeping ``Retry-After``, ``WWW-Authenticate`` and ``Allow``. Anything else is left
to Django: it propagates in tests, and in production ``handler500`` answers
JSON for /api/ paths.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback


class DomainError(Exception):
    """A business rule said no. Subclass it per rule; the API maps it to JSON."""

    status_code: int = status.HTTP_400_BAD_REQUEST
    code: str = "error"
    message: str = _("The request could not be completed.")

    def __init__(
        self,
        message: str | None = None,
        *,
        code: str | None = None,
        status_code: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        if message is not None:
            self.message = message
        if code is not None:
            self.code = code
        if status_code is not None:
            self.status_code = status_code
        # Extra members of the "error" object, e.g. {"expected_version": 7}.
        self.extra = extra or {}
        super().__init__(self.message)


class Conflict(DomainError):
    status_code = status.HTTP_409_CONFLICT
    code = "conflict"
    message = _("The request conflicts with the current state.")


class Forbidden(DomainError):
    status_code = status.HTTP_403_FORBIDDEN
    code = "permission_denied"
    message = _("You do not have permission to perform this action.")


class NotFoundError(DomainError):
    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"
    message = _("Not found.")


class TooManyRequests(DomainError):
    """429 with Retry-After; ``retry_after`` is in seconds."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    code = "throttled"
    message = _("Too many requests. Try again later.")

    def __init__(self, message: str | None = None, *, retry_after: int | None = None, **kw: Any):
        super().__init__(message, **kw)
        self.retry_after = retry_after


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def is_api_request(request: HttpRequest) -> bool:
    """A request to /api/: it is answered in the API's error shape, never an HTML page."""
    return request.path.startswith("/api/")


def error_json_response(
    request: HttpRequest | None, status_code: int, code: str, message: str
) -> JsonResponse:
    """The error shape for plain Django views (404/500 handlers, middleware)."""
    return JsonResponse(error_body(code, message), status=status_code)


def _first_message(detail: Any, path: str = "") -> str | None:
    """'field.sub: message' for the first message in a nested ValidationError detail."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "" if key in ("non_field_errors", "__all__") else str(key)
            found = _first_message(value, ".".join(part for part in (path, name) if part))
            if found:
                return found
        return None
    if isinstance(detail, list):
        for index, value in enumerate(detail):
            nested = isinstance(value, dict | list)
            found = _first_message(value, f"{path}.{index}".lstrip(".") if nested else path)
            if found:
                return found
        return None
    text = str(detail)
    if not text:
        return None
    return f"{path}: {text}" if path else text


def _validation_body(detail: Any) -> dict[str, Any]:
    if isinstance(detail, dict):
        fields = detail
    else:
        fields = {"non_field_errors": detail if isinstance(detail, list) else [detail]}
    return error_body("invalid", _first_message(fields) or str(_("Invalid input.")), fields=fields)


_DRF_CODES = {
    exceptions.ParseError: "malformed_request",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    headers: dict[str, str] = {}

    if isinstance(exc, DomainError):
        if getattr(exc, "retry_after", None):
            headers["Retry-After"] = str(exc.retry_after)
        set_rollback()
        return Response(
            error_body(exc.code, str(exc.message), **exc.extra),
            status=exc.status_code,
            headers=headers,
        )

    if isinstance(exc, DjangoValidationError):
        # Services raise Django's ValidationError; present it like a serializer's.
        if hasattr(exc, "error_dict"):
            exc = exceptions.ValidationError(exc.message_dict)
        else:
            exc = exceptions.ValidationError(exc.messages)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # an unexpected error: let Django report it

    if isinstance(exc, exceptions.ValidationError):
        response.data = _validation_body(exc.detail)
        return response

    if isinstance(exc, exceptions.UnsupportedMediaType):
        # A form or text body where JSON belongs is a client mistake we explain.
        response.status_code = status.HTTP_400_BAD_REQUEST
        request = context.get("request")
        media_type = (getattr(request, "content_type", "") or "none").split(";")[0]
        response.data = error_body(
            "unsupported_media_type",
            str(
                _(
                    "Unsupported content type %(type)s: send the body as JSON with "
                    "'Content-Type: application/json'."
                )
            )
            % {"type": repr(media_type)},
        )
        return response

    assert isinstance(exc, exceptions.APIException)
    code = _DRF_CODES.get(type(exc))
    if code is None:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
    detail = exc.detail
    if isinstance(detail, list | dict):
        detail = _first_message(detail) or exc.default_detail
    response.data = error_body(str(code), str(detail))
    return response
