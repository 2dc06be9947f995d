"""Security headers, cookie flags and CSRF, as a browser sees them over HTTPS.

The production values of the security settings are read from a fresh process started
with a production environment (inside pytest the settings module knows it is under
test), then applied with override_settings so real requests go through the real
middleware with ``secure=True``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from http.cookies import Morsel

import pytest
from django.conf import settings
from django.test import Client, override_settings
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from play.models import Game
from tests.play.factories import NINE, puzzle_create

pytestmark = pytest.mark.django_db

HOST = "sudoku.example.com"
ORIGIN = f"https://{HOST}"
SECURITY_SETTINGS = [
    "DEBUG",
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_CONTENT_TYPE_NOSNIFF",
    "SECURE_REFERRER_POLICY",
    "SECURE_CROSS_ORIGIN_OPENER_POLICY",
    "X_FRAME_OPTIONS",
    "SESSION_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "SESSION_COOKIE_SAMESITE",
    "CSRF_COOKIE_SECURE",
    "CSRF_COOKIE_HTTPONLY",
    "CSRF_COOKIE_SAMESITE",
    "CSRF_TRUSTED_ORIGINS",
    "CONTENT_SECURITY_POLICY",
]
_SCRIPT = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    f"print(json.dumps({{n: getattr(s, n, None) for n in {SECURITY_SETTINGS!r}}}))"
)


@pytest.fixture(scope="module")
def production_settings() -> dict:
    """The security settings a production environment gets (no DEBUG, a real secret)."""
    inherited = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
        and not k.startswith("SECURE_")
    }
    env = {
        **inherited,
        "DEBUG": "0",
        "SECRET_KEY": "p" * 60,
        "ALLOWED_HOSTS": HOST,
        "DJANGO_SETTINGS_MODULE": "sudokusite.settings",
    }
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.strip().splitlines()[-1])
    assert values["DEBUG"] is False
    return values


@pytest.fixture
def production(production_settings):
    with override_settings(**production_settings, ALLOWED_HOSTS=[HOST]):
        yield


def https(client_class=Client, **kwargs) -> Client:
    """A client that talks to HOST over HTTPS (made inside override_settings, so the
    middleware it loads reads the production values)."""
    return client_class(SERVER_NAME=HOST, HTTP_HOST=HOST, **kwargs)


def cookie(response, name: str) -> Morsel:
    assert name in response.cookies, f"{name} was not set"
    return response.cookies[name]


def test_it_sends_the_security_headers_over_https(production):
    for path in ("/", "/accounts/login/", "/api/v1/schema/"):
        response = https().get(path, secure=True)
        assert response.status_code == 200, path
        assert response["Strict-Transport-Security"] == (
            "max-age=31536000; includeSubDomains; preload"
        ), path
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        assert response["Cross-Origin-Opener-Policy"] == "same-origin"
        assert response["X-Frame-Options"] == "DENY"
        csp = response["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";") if d.strip())
        assert directives["frame-ancestors"] == "'none'"
        assert directives["default-src"] == "'self'"
        assert directives["script-src"] == "'self'"
        assert directives["object-src"] == "'none'"
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


def test_it_sends_the_headers_on_api_errors_too(production):
    response = https().get("/api/v1/games/", secure=True)
    assert response.status_code == 401
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")
    assert response["X-Frame-Options"] == "DENY"


def test_it_redirects_plain_http_to_https(production):
    response = https().get("/accounts/login/")
    assert response.status_code == 301
    assert response["Location"] == f"{ORIGIN}/accounts/login/"


def test_its_cookies_are_secure_httponly_and_same_site(production, user):
    client = https()
    page = client.get("/accounts/login/", secure=True)
    csrf = cookie(page, "csrftoken")
    assert csrf["secure"] is True
    assert csrf["samesite"] == "Lax"
    # The page's script reads it to send X-CSRFToken (static/js/sudoku.js): not HttpOnly.
    assert not csrf["httponly"]
    response = client.post(
        "/accounts/login/",
        {"username": user.username, "password": user.raw_password},
        secure=True,
        HTTP_REFERER=f"{ORIGIN}/accounts/login/",
    )
    assert response.status_code == 302
    session = cookie(response, "sessionid")
    assert session["secure"] is True
    assert session["httponly"] is True
    assert session["samesite"] == "Lax"


# --- CSRF on the browser's session-authenticated API calls ---------------------------


def signed_in_browser(user, *, tls: bool = False) -> tuple[Client, str]:
    """A browser signed in with a session, holding the CSRF cookie a page gave it."""
    client = https(enforce_csrf_checks=True) if tls else Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.get("/accounts/profile/", secure=tls).status_code == 200
    return client, client.cookies["csrftoken"].value


def test_a_session_post_to_the_game_api_without_the_csrf_token_is_refused(user):
    puzzle = puzzle_create(NINE)
    browser, token = signed_in_browser(user)
    refused = browser.post("/api/v1/games/", {"puzzle": puzzle.pk}, content_type="application/json")
    assert refused.status_code == 403
    assert refused["Content-Type"] == "application/json"
    error = refused.json()["error"]
    assert error["code"] == "permission_denied"
    assert "CSRF" in error["message"]
    assert not Game.objects.exists()

    accepted = browser.post(
        "/api/v1/games/",
        {"puzzle": puzzle.pk},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert accepted.status_code == 201
    assert Game.objects.get().user == user


def test_a_session_post_with_a_wrong_csrf_token_is_refused(user):
    puzzle = puzzle_create(NINE)
    browser, token = signed_in_browser(user)
    game = browser.post(
        "/api/v1/games/",
        {"puzzle": puzzle.pk},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    ).json()
    forged = browser.post(
        f"/api/v1/games/{game['id']}/abandon/",
        {},
        content_type="application/json",
        HTTP_X_CSRFTOKEN="x" * 32,
    )
    assert forged.status_code == 403
    assert Game.objects.get().status == "in_progress"


def test_over_https_a_post_from_another_origin_is_refused_even_with_the_token(production, user):
    puzzle = puzzle_create(NINE)
    browser, token = signed_in_browser(user, tls=True)
    body = {"puzzle": puzzle.pk}
    foreign = browser.post(
        "/api/v1/games/",
        body,
        content_type="application/json",
        secure=True,
        HTTP_X_CSRFTOKEN=token,
        HTTP_ORIGIN="https://evil.example",
    )
    assert foreign.status_code == 403
    assert "Origin checking failed" in foreign.json()["error"]["message"]
    no_referer = browser.post(
        "/api/v1/games/", body, content_type="application/json", secure=True, HTTP_X_CSRFTOKEN=token
    )
    assert no_referer.status_code == 403
    assert not Game.objects.exists()
    same_origin = browser.post(
        "/api/v1/games/",
        body,
        content_type="application/json",
        secure=True,
        HTTP_X_CSRFTOKEN=token,
        HTTP_ORIGIN=ORIGIN,
    )
    assert same_origin.status_code == 201


def test_a_token_client_needs_no_csrf_token(token_client):
    puzzle = puzzle_create(NINE)
    token_client.handler.enforce_csrf_checks = True
    response = token_client.post("/api/v1/games/", {"puzzle": puzzle.pk}, format="json")
    assert response.status_code == 201


@pytest.mark.parametrize("value", ["SCHEMATHESIS-INVALID-VALUE", "x" * 31, "é" * 32, "a" * 33])
def test_a_made_up_csrf_cookie_does_not_make_a_guest(value):
    client = APIClient()
    client.cookies["csrftoken"] = value
    response = client.get("/api/v1/games/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


@pytest.mark.parametrize("length", [32, 64])
def test_a_csrf_cookie_django_could_have_set_makes_a_guest(length):
    client = APIClient()
    client.cookies["csrftoken"] = "aB3" * (length // 3) + "x" * (length % 3)
    response = client.get("/api/v1/games/")
    assert response.status_code == 200
    assert response.json()["count"] == 0


def test_login_lockout_pages_carry_the_security_headers(production, user):
    client = https()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            "/accounts/login/",
            {"username": user.username, "password": "wrong"},
            secure=True,
            HTTP_REFERER=f"{ORIGIN}/accounts/login/",
        )
    locked = client.post(
        "/accounts/login/",
        {"username": user.username, "password": user.raw_password},
        secure=True,
        HTTP_REFERER=f"{ORIGIN}/accounts/login/",
    )
    assert locked.status_code == 429
    assert locked["X-Frame-Options"] == "DENY"
    assert "sessionid" not in locked.cookies
    assert UserFactory._meta.model.objects.filter(pk=user.pk, last_login__isnull=True).exists()
