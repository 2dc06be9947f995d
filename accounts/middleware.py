from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from .languages import language_activate, language_for_session


class AccountLanguageMiddleware:
    """A signed-in player's saved language overrides the cookie and Accept-Language.

    After AuthenticationMiddleware (it needs the user) and LocaleMiddleware (whose choice it
    overrides). Only requests that carry a session are looked at: an API call with a token
    keeps the language its Accept-Language header asks for. The cookie is brought in line
    with the account, so the pages a signed-out visitor sees on this device agree.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = None
        if settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated:
            language = language_for_session(request=request, user=request.user)
            if language:
                language_activate(request, language)
        response = self.get_response(request)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
