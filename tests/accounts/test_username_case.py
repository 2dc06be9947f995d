"""Sign-in ignores the username's case, as uniqueness does, and so does the lockout."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

LIMIT = settings.AXES_FAILURE_LIMIT


@pytest.fixture
def alice():
    return UserFactory(username="Alice")


def sign_in_api(api_client, username: str, password: str, address: str = "192.0.2.1"):
    return api_client.post(
        "/api/v1/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )


@pytest.mark.parametrize("typed", ["alice", "ALICE", "aLiCe", "Alice"])
def test_the_web_login_takes_the_username_in_any_case(client, alice, typed):
    response = client.post("/accounts/login/", {"username": typed, "password": alice.raw_password})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


@pytest.mark.parametrize("typed", ["alice", "ALICE"])
def test_the_api_gives_a_token_for_the_username_in_any_case(api_client, alice, typed):
    response = sign_in_api(api_client, typed, alice.raw_password)
    assert response.status_code == 200, response.content
    me = api_client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert me.json()["username"] == "Alice"


def test_a_wrong_password_is_still_refused_in_any_case(api_client, alice):
    response = sign_in_api(api_client, "alice", "not-the-password")
    assert response.status_code == 400
    assert "token" not in response.json()


def test_changing_the_case_of_the_username_buys_no_more_guesses(api_client, alice):
    spellings = ["alice", "ALICE", "Alice", "aLICE", "alIce", "AlIcE"]
    for i in range(LIMIT):
        sign_in_api(api_client, spellings[i % len(spellings)], "wrong", f"192.0.2.{i + 10}")
    response = sign_in_api(api_client, "Alice", alice.raw_password, "192.0.2.200")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "login_locked"


def test_a_session_signed_in_by_the_plain_model_backend_stays_signed_in(client, alice):
    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    assert client.get("/accounts/profile/").status_code == 200


def test_signing_up_signs_in_with_a_backend_that_stays_valid(client):
    strong = "tiles-and-lanterns-42"
    client.post(
        "/accounts/signup/", {"username": "Carol", "password1": strong, "password2": strong}
    )
    assert client.session["_auth_user_backend"] in settings.AUTHENTICATION_BACKENDS
    assert client.get("/accounts/profile/").status_code == 200
    assert get_user_model().objects.filter(username="Carol").exists()
