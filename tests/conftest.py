"""Fixtures and service gates shared by every test package.

Fixtures: ``api_client`` (anonymous DRF APIClient), ``user`` (a saved user whose
password is ``user.raw_password``), ``token_client`` (APIClient sending
``Authorization: Token <key>`` for ``user``), ``no_enqueue`` (the chunks a pack would
queue, recorded instead of sent to a broker). The cache is cleared around
every test so throttles never leak between tests.

Markers gate tests on services: ``postgres`` (DATABASE_URL is PostgreSQL),
``redis`` (REDIS_URL is set), ``browser`` (/usr/bin/chromium exists). A test
whose service is missing is skipped, or fails when REQUIRE_SERVICES=1 (CI).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import translation
from rest_framework.test import APIClient

from accounts.factories import UserFactory

CHROMIUM = Path("/usr/bin/chromium")


def _missing_service(marker: str) -> str | None:
    """Why the service behind ``marker`` is unavailable, or None if it is there."""
    if marker == "postgres":
        if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
            return "needs PostgreSQL: set DATABASE_URL=postgres://..."
    elif marker == "redis":
        if not settings.REDIS_URL:
            return "needs Redis: set REDIS_URL=redis://..."
    elif marker == "browser" and not CHROMIUM.exists():
        return f"needs Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in ("postgres", "redis", "browser"):
        if item.get_closest_marker(marker) is None:
            continue
        reason = _missing_service(marker)
        if reason is None:
            continue
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}", pytrace=False)
        pytest.skip(reason)


def clear_cache() -> None:
    """Forget throttle counts: only our own keys when the cache is a shared Redis."""
    if settings.REDIS_URL:
        client = cache._cache.get_client(write=True)  # type: ignore[attr-defined]
        for key in client.scan_iter(match=f"{settings.CACHE_KEY_PREFIX}:*", count=500):
            client.delete(key)
    else:
        cache.clear()


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's language: a request leaves the language it asked for
    active in the thread (as Django's own middleware does), which would reach a later
    test's command or service call in the same process."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def user(db: None) -> User:
    return UserFactory()


@pytest.fixture
def player_client(user: User) -> APIClient:
    """The API as ``user``, signed in (session-free: forced authentication)."""
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def token_client(user: User) -> APIClient:
    from accounts.services import token_create

    _, key = token_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    client.token = key  # type: ignore[attr-defined]
    return client


@pytest.fixture
def no_enqueue(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, list[int], str | None]]:
    """Record the chunks a commit would queue instead of sending them to a broker."""
    from puzzles import packs

    sent: list[tuple[int, list[int], str | None]] = []
    monkeypatch.setattr(
        packs,
        "_enqueue_chunks",
        lambda pack_id, numbers, queue: sent.append((pack_id, numbers, queue)),
    )
    return sent
