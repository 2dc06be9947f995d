"""Site-wide views: the error handlers and the health check (the home page is the lobby,
play.views.home).

Under /api/ the 404 and 500 handlers answer in the API's error shape, so a
client never has to parse an HTML page. A database that cannot be reached or is
overloaded (refused connections, max_connections exhausted, no pooled connection free in
time) is a 503, "try again", not a 500.
"""

from __future__ import annotations

import sys

from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.cache import never_cache

from .errors import error_json_response, is_api_request


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_request(request):
        return error_json_response(request, 404, "not_found", _("Not found."))
    return defaults.page_not_found(request, exception)


# Seconds a client is asked to wait before trying again when the database is unavailable.
RETRY_AFTER_SECONDS = 5


def server_error(request: HttpRequest) -> HttpResponse:
    # Django calls this while handling the exception: it is the one being handled.
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        return service_unavailable(request)
    if is_api_request(request):
        return error_json_response(
            request, 500, "server_error", _("Something went wrong on our side. Please try again.")
        )
    return defaults.server_error(request)


def service_unavailable(request: HttpRequest) -> HttpResponse:
    """503 while the database is unavailable: the API's error shape, or a page that needs
    nothing from the database (no session, no context processors)."""
    if is_api_request(request):
        response = error_json_response(
            request,
            503,
            "service_unavailable",
            _("The service is briefly unavailable. Please try again in a moment."),
        )
    else:
        response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_request(request):
        return error_json_response(request, 400, "bad_request", _("Bad request."))
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_request(request):
        return error_json_response(request, 403, "permission_denied", _("Permission denied."))
    return defaults.permission_denied(request, exception)


@never_cache
def health(request: HttpRequest) -> HttpResponse:
    """``/healthz``: 200 while this node can reach its database, else 503, so a load
    balancer's check takes a node that lost its database out of service (docs/operations.md).
    One ``SELECT 1``; no session, no template."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return HttpResponse("database unreachable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")
