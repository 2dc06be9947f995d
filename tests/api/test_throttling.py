"""Login throttling: per account and per client address, on the API and the web."""

from __future__ import annotations

import itertools

import pytest
from django.conf import settings
from django.test import RequestFactory

from accounts.factories import UserFactory
from sudokusite.net import client_ip

pytestmark = pytest.mark.django_db

LIMIT = settings.AXES_FAILURE_LIMIT


def sign_in(api_client, username: str, password: str, **extra: str):
    return api_client.post(
        "/api/v1/auth/token/", {"username": username, "password": password}, format="json", **extra
    )


def test_it_locks_an_account_even_when_x_forwarded_for_rotates(api_client, user):
    statuses = [
        sign_in(
            api_client, user.username, "wrong", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}"
        ).status_code
        for i in range(LIMIT + 2)
    ]
    assert statuses[: LIMIT - 1] == [400] * (LIMIT - 1)
    assert statuses[-1] == 429

    # Locked: even the right password from yet another claimed address is refused.
    response = sign_in(
        api_client, user.username, user.raw_password, HTTP_X_FORWARDED_FOR="198.51.100.9"
    )
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "login_locked"
    assert int(response.headers["Retry-After"]) > 0


def test_it_locks_an_account_tried_from_many_addresses(api_client, user):
    addresses = (f"192.0.2.{i}" for i in itertools.count(1))
    for _ in range(LIMIT):
        sign_in(api_client, user.username, "wrong", REMOTE_ADDR=next(addresses))
    response = sign_in(api_client, user.username, user.raw_password, REMOTE_ADDR=next(addresses))
    assert response.status_code == 429


def test_it_locks_an_address_trying_many_accounts(api_client, user):
    for i in range(LIMIT):
        sign_in(api_client, f"someone{i}", "wrong", REMOTE_ADDR="192.0.2.50")
    blocked = sign_in(api_client, user.username, user.raw_password, REMOTE_ADDR="192.0.2.50")
    assert blocked.status_code == 429
    elsewhere = sign_in(api_client, user.username, user.raw_password, REMOTE_ADDR="192.0.2.51")
    assert elsewhere.status_code == 200


def test_it_throttles_token_requests_per_username_even_when_they_succeed(api_client, user):
    statuses = [
        sign_in(
            api_client, user.username, user.raw_password, REMOTE_ADDR=f"192.0.2.{i}"
        ).status_code
        for i in range(12)
    ]
    assert statuses[0] == 200
    assert statuses[-1] == 429
    last = sign_in(api_client, user.username, user.raw_password)
    assert last.json()["error"]["code"] == "throttled"
    assert int(last.headers["Retry-After"]) > 0


def test_it_throttles_registrations_per_address(api_client):
    statuses = [
        api_client.post(
            "/api/v1/auth/register/",
            {"username": f"newbie{i}", "password": "tiles-and-lanterns-42"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{i}",
        ).status_code
        for i in range(25)
    ]
    assert statuses[0] == 201
    assert statuses[-1] == 429


def test_it_shows_a_readable_page_when_web_logins_are_locked(client, user):
    for i in range(LIMIT):
        client.post(
            "/accounts/login/",
            {"username": user.username, "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"203.0.113.{i}",
        )
    response = client.post(
        "/accounts/login/", {"username": user.username, "password": user.raw_password}
    )
    assert response.status_code == 429
    assert response["Content-Type"].startswith("text/html")
    assert b"Too many failed sign-in attempts" in response.content
    assert "_auth_user_id" not in client.session


def test_it_ignores_x_forwarded_for_without_trusted_proxies(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_ip(request) == "10.0.0.1"


def test_it_takes_the_address_our_proxy_saw(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7"
    )
    assert client_ip(request) == "198.51.100.7"


def test_it_falls_back_to_remote_addr_when_the_proxy_sends_garbage(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="not-an-ip")
    assert client_ip(request) == "10.0.0.1"


# --- Behind a proxy, and across the web and the API ---------------------------------
#
# With TRUSTED_PROXY_COUNT=1 the proxy appends the address it saw to X-Forwarded-For;
# whatever the client put before it is the client's own invention and must not matter.

PROXY_SAW = "198.51.100.7"


def forged(i: int, real: str = PROXY_SAW) -> str:
    return f"203.0.113.{i}, 10.{i}.0.1, {real}"


def test_behind_a_proxy_rotating_the_forged_part_does_not_reset_the_api_address_lock(
    api_client, user, settings
):
    settings.TRUSTED_PROXY_COUNT = 1
    for i in range(LIMIT):
        sign_in(api_client, f"someone{i}", "wrong", HTTP_X_FORWARDED_FOR=forged(i))
    blocked = sign_in(api_client, user.username, user.raw_password, HTTP_X_FORWARDED_FOR=forged(99))
    assert blocked.status_code == 429
    assert blocked.json()["error"]["code"] == "login_locked"
    elsewhere = sign_in(
        api_client,
        user.username,
        user.raw_password,
        HTTP_X_FORWARDED_FOR=forged(99, real="198.51.100.8"),
    )
    assert elsewhere.status_code == 200


def test_behind_a_proxy_rotating_the_forged_part_does_not_reset_the_web_address_lock(
    client, user, settings
):
    settings.TRUSTED_PROXY_COUNT = 1
    for i in range(LIMIT):
        client.post(
            "/accounts/login/",
            {"username": f"someone{i}", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=forged(i),
        )
    blocked = client.post(
        "/accounts/login/",
        {"username": user.username, "password": user.raw_password},
        HTTP_X_FORWARDED_FOR=forged(99),
    )
    assert blocked.status_code == 429
    assert "_auth_user_id" not in client.session
    elsewhere = client.post(
        "/accounts/login/",
        {"username": user.username, "password": user.raw_password},
        HTTP_X_FORWARDED_FOR=forged(99, real="198.51.100.8"),
    )
    assert elsewhere.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_failures_on_the_web_lock_the_api_sign_in_of_that_account(client, api_client, user):
    for i in range(LIMIT):
        client.post(
            "/accounts/login/",
            {"username": user.username, "password": "wrong"},
            REMOTE_ADDR=f"192.0.2.{i + 1}",
        )
    response = sign_in(api_client, user.username, user.raw_password, REMOTE_ADDR="192.0.2.200")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "login_locked"


def test_failures_on_the_api_lock_the_web_login_of_that_account(client, api_client, user):
    for i in range(LIMIT):
        sign_in(api_client, user.username, "wrong", REMOTE_ADDR=f"192.0.2.{i + 1}")
    response = client.post(
        "/accounts/login/",
        {"username": user.username, "password": user.raw_password},
        REMOTE_ADDR="192.0.2.200",
    )
    assert response.status_code == 429
    assert b"Too many failed sign-in attempts" in response.content
    assert "_auth_user_id" not in client.session


def test_a_lock_does_not_leak_to_other_accounts_from_other_addresses(api_client, user):
    for i in range(LIMIT + 1):
        sign_in(api_client, user.username, "wrong", REMOTE_ADDR=f"192.0.2.{i + 1}")
    other = UserFactory()
    response = sign_in(api_client, other.username, other.raw_password, REMOTE_ADDR="192.0.2.201")
    assert response.status_code == 200


def test_signing_in_to_ones_own_account_does_not_clear_failures_for_another_name(api_client):
    victim, attacker = UserFactory(), UserFactory()
    for _ in range(LIMIT - 1):
        sign_in(api_client, victim.username, "wrong", REMOTE_ADDR="192.0.2.60")
    own = sign_in(api_client, attacker.username, attacker.raw_password, REMOTE_ADDR="192.0.2.60")
    assert own.status_code == 200
    sign_in(api_client, victim.username, "wrong", REMOTE_ADDR="192.0.2.60")

    # The victim's name is locked, from any address, even with the right password.
    response = sign_in(api_client, victim.username, victim.raw_password, REMOTE_ADDR="192.0.2.61")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "login_locked"


def test_a_success_clears_the_failures_of_the_account_that_succeeded(api_client, user):
    for _ in range(2):
        for _ in range(LIMIT - 1):
            sign_in(api_client, user.username.upper(), "wrong", REMOTE_ADDR="192.0.2.70")
        response = sign_in(api_client, user.username, user.raw_password, REMOTE_ADDR="192.0.2.70")
        assert response.status_code == 200


# --- Guessing the old password on a password change -----------------------------------
#
# A stolen session or token must not guess, without limit, the password it needs to take
# the account over: a wrong old password counts as a failed sign-in.

STRONG = "tiles-and-lanterns-42"


def test_wrong_old_passwords_on_the_api_lock_the_account(api_client, token_client, user):
    for i in range(LIMIT):
        wrong = token_client.post(
            "/api/v1/me/password/",
            {"old_password": f"guess-{i}", "new_password": STRONG},
            format="json",
        )
        assert wrong.status_code in (400, 429)
    locked = token_client.post(
        "/api/v1/me/password/",
        {"old_password": user.raw_password, "new_password": STRONG},
        format="json",
    )
    assert locked.status_code == 429
    assert locked.json()["error"]["code"] == "login_locked"
    user.refresh_from_db()
    assert user.check_password(user.raw_password)
    assert token_client.get("/api/v1/me/").status_code == 200  # the token still works
    signing_in = sign_in(api_client, user.username, user.raw_password, REMOTE_ADDR="192.0.2.9")
    assert signing_in.status_code == 429


def test_wrong_old_passwords_on_the_web_lock_the_account(client, user):
    client.force_login(user)
    for i in range(LIMIT):
        wrong = client.post(
            "/accounts/password/change/",
            {"old_password": f"guess-{i}", "new_password1": STRONG, "new_password2": STRONG},
        )
        assert wrong.status_code in (200, 429)
    locked = client.post(
        "/accounts/password/change/",
        {"old_password": user.raw_password, "new_password1": STRONG, "new_password2": STRONG},
    )
    assert locked.status_code == 429
    assert b"Too many failed sign-in attempts" in locked.content
    user.refresh_from_db()
    assert user.check_password(user.raw_password)


def test_one_wrong_old_password_is_a_plain_form_error(client, user):
    client.force_login(user)
    response = client.post(
        "/accounts/password/change/",
        {"old_password": "guess", "new_password1": STRONG, "new_password2": STRONG},
    )
    assert response.status_code == 200
    assert b"Your old password was entered incorrectly" in response.content
