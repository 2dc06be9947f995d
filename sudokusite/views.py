"""Site-wide views: the error handlers (the home page is the lobby, play.views.home).

Under /api/ the 404 and 500 handlers answer in the API's error shape, so a
client never has to parse an HTML page.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views import defaults

from .errors import error_json_response, is_api_request


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_request(request):
        return error_json_response(request, 404, "not_found", _("Not found."))
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if is_api_request(request):
        return error_json_response(
            request, 500, "server_error", _("Something went wrong on our side. Please try again.")
        )
    return defaults.server_error(request)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_request(request):
        return error_json_response(request, 400, "bad_request", _("Bad request."))
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_request(request):
        return error_json_response(request, 403, "permission_denied", _("Permission denied."))
    return defaults.permission_denied(request, exception)
