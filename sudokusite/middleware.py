"""Request-level rules of the API: refuse oversized bodies before anything reads them,
answer an API URL missing its trailing slash in the API's error shape, and leave the
pages' message storage out of it."""

from __future__ import annotations

import io
from collections.abc import Callable

from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware as DjangoMessageMiddleware
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.common import CommonMiddleware as DjangoCommonMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from .errors import error_json_response, is_api_request

_BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


class ApiBodySizeLimitMiddleware:
    """413 JSON for an /api/ request body over ``settings.API_MAX_BODY_BYTES``.

    Content-Length is checked first; the body is then read with the same limit,
    which also catches a body whose length was not declared up front.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api_request(request) and request.method in _BODY_METHODS:
            refused = self._check(request)
            if refused is not None:
                return refused
        return self.get_response(request)

    def _check(self, request: HttpRequest) -> HttpResponse | None:
        limit: int = settings.API_MAX_BODY_BYTES
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if not declared.isascii() or not declared.isdigit():
            return error_json_response(request, 400, "malformed_request", _("Bad Content-Length."))
        if int(declared) > limit:
            return self._too_large(request, limit)
        body = request.read(limit + 1)
        if len(body) > limit:
            return self._too_large(request, limit)
        # Hand the bytes we consumed back to Django, as HttpRequest.body does.
        request._body = body  # type: ignore[attr-defined]
        request._stream = io.BytesIO(body)  # type: ignore[attr-defined]
        request._read_started = False  # type: ignore[attr-defined]
        return None

    @staticmethod
    def _too_large(request: HttpRequest, limit: int) -> HttpResponse:
        return error_json_response(
            request,
            413,
            "request_too_large",
            _("The request body is larger than the limit of %(limit)s bytes.") % {"limit": limit},
        )


class CommonMiddleware(DjangoCommonMiddleware):
    """Django's, except for an /api/ URL that lacks its trailing slash: a 404 in the API's
    error shape naming the URL to use, where Django would redirect (301). A phone's HTTP
    client follows that redirect with a GET, so a POST's body is lost and the client is
    told 405 about a URL it never asked for (with DEBUG on, Django raises instead: a 500).
    Pages outside /api/ keep the redirect."""

    def should_redirect_with_slash(self, request: HttpRequest) -> bool:
        return not is_api_request(request) and super().should_redirect_with_slash(request)

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if (
            response.status_code == 404
            and is_api_request(request)
            and super().should_redirect_with_slash(request)
        ):
            with_slash = request.get_full_path(force_append_slash=True)
            response = error_json_response(
                request,
                404,
                "not_found",
                _("No such URL: API URLs end with a slash. Send this to %(url)s")
                % {"url": with_slash},
            )
        return super().process_response(request, response)


class MessageMiddleware(DjangoMessageMiddleware):
    """Django's, for pages only. The API answers in JSON and never shows or queues a
    message, so an /api/ request gets no message storage: making one (a cookie store and a
    session store behind it) was a measurable share of a move's CPU. A message queued by a
    page waits, untouched, for the next page."""

    def process_request(self, request: HttpRequest) -> None:
        if not is_api_request(request):
            super().process_request(request)


class LocaleMiddleware:
    """Django's LocaleMiddleware for a site whose URLs carry no language prefix (no
    ``i18n_patterns``): the language comes from the cookie, then Accept-Language, then
    LANGUAGE_CODE. Django's also looks for a language in the path, twice a request (for
    /api/... an uncached, failing lookup of a language "api"), and looks up a missing
    cookie's language (another failing lookup): every move paid for both."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        asked = settings.LANGUAGE_COOKIE_NAME in request.COOKIES
        if asked or "HTTP_ACCEPT_LANGUAGE" in request.META:
            translation.activate(translation.get_language_from_request(request))
        else:
            translation.activate(settings.LANGUAGE_CODE)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        if response.has_header("Vary"):
            patch_vary_headers(response, ("Accept-Language",))
        else:
            response.headers["Vary"] = "Accept-Language"
        response.headers.setdefault("Content-Language", translation.get_language())
        return response
