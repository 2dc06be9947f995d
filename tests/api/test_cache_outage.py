"""With the cache unreachable, the API degrades instead of failing.

The choices, one per use of the cache:
- rate throttles (sign-in, sign-up, password reset, the solver) let requests through and
  log a warning (sudokusite.throttling);
- the sign-in lockout is not in the cache at all: django-axes counts failures in the
  database, so it keeps locking;
- the one-email-per-interval guard of a password reset sends nothing and logs a warning
  (the answer is the same 202 as always), so an outage cannot be used to flood an inbox.
"""

from __future__ import annotations

import logging
import socket

import pytest
from django.conf import settings as django_settings

from sudokusite.throttling import CACHE_ERRORS
from tests.play.factories import NINE

pytestmark = pytest.mark.django_db

LIMIT = django_settings.AXES_FAILURE_LIMIT
STRONG = "tiles-and-lanterns-42"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def cache_down(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
        }
    }
    from django.core.cache import cache

    with pytest.raises(CACHE_ERRORS):
        cache.get("anything")


def sign_in(api_client, username: str, password: str):
    return api_client.post(
        "/api/v1/auth/token/", {"username": username, "password": password}, format="json"
    )


def test_sign_in_works_and_warns_when_the_cache_is_down(cache_down, api_client, user, caplog):
    with caplog.at_level(logging.WARNING, logger="sudokusite.throttling"):
        response = sign_in(api_client, user.username, user.raw_password)
    assert response.status_code == 200, response.content
    assert "cache" in caplog.text and "auth_address" in caplog.text


def test_the_lockout_keeps_counting_when_the_cache_is_down(cache_down, api_client, user):
    statuses = [sign_in(api_client, user.username, "wrong").status_code for _ in range(LIMIT)]
    assert statuses[: LIMIT - 1] == [400] * (LIMIT - 1)
    response = sign_in(api_client, user.username, user.raw_password)
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "login_locked"


def test_sign_up_works_when_the_cache_is_down(cache_down, api_client):
    response = api_client.post(
        "/api/v1/auth/register/", {"username": "newcomer", "password": STRONG}, format="json"
    )
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("endpoint", ["analyse", "hint"])
def test_the_solver_answers_when_the_cache_is_down(cache_down, api_client, endpoint):
    response = api_client.post(f"/api/v1/solver/{endpoint}/", {"grid": NINE}, format="json")
    assert response.status_code == 200, response.content


def test_a_password_reset_answers_202_but_sends_nothing_when_the_cache_is_down(
    cache_down, api_client, user, caplog, django_capture_on_commit_callbacks
):
    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks() as queued:
        response = api_client.post(
            "/api/v1/auth/password-reset/", {"email": user.email}, format="json"
        )
    assert response.status_code == 202
    assert queued == []  # no email queued
    assert "password reset" in caplog.text
