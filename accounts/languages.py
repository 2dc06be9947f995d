"""Which language a player reads: their account's saved choice, then the language cookie,
then the browser's Accept-Language (the last two are Django's LocaleMiddleware).

The saved choice is read once per session and kept in the session; the switcher writes
the account, the session and the cookie together, so every later request (a page, or the
game's API calls made with the session) agrees.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest
from django.utils import translation

from .models import LanguagePreference

SESSION_KEY = "account_language"


def supported_language(code: str | None) -> str | None:
    """``code`` as one of settings.LANGUAGES (``zh-Hans`` -> ``zh-hans``), else None."""
    if not code:
        return None
    code = code.lower()
    return code if code in dict(settings.LANGUAGES) else None


def language_saved(*, user: AbstractBaseUser) -> str | None:
    """The language the account chose, if it chose one."""
    language = (
        LanguagePreference.objects.filter(user=user).values_list("language", flat=True).first()
    )
    return supported_language(language)


def language_save(*, request: HttpRequest, user: AbstractBaseUser, language: str) -> None:
    """Keep ``language`` as the account's choice (and this session's)."""
    LanguagePreference.objects.update_or_create(user=user, defaults={"language": language})
    request.session[SESSION_KEY] = [user.pk, language]


def language_for_session(*, request: HttpRequest, user: AbstractBaseUser) -> str | None:
    """The account's language, read from the database once per session.

    An account with no saved choice takes the one the visitor made in the switcher before
    signing in (the language cookie), so a choice made as a guest sticks after sign-in.
    """
    cached = request.session.get(SESSION_KEY)
    if isinstance(cached, list) and len(cached) == 2 and cached[0] == user.pk:
        return supported_language(cached[1])
    language = language_saved(user=user)
    if language is None:
        chosen = supported_language(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        if chosen is not None:
            language_save(request=request, user=user, language=chosen)
            return chosen
    request.session[SESSION_KEY] = [user.pk, language]
    return language


def language_activate(request: HttpRequest, language: str) -> None:
    translation.activate(language)
    request.LANGUAGE_CODE = translation.get_language()  # type: ignore[attr-defined]
