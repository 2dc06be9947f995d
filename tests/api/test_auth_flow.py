"""The account API: register, sign in, profile, sign out, password change."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

STRONG = "tiles-and-lanterns-42"


def register(client: APIClient, **data: str):
    payload = {"username": "alice", "password": STRONG, **data}
    return client.post("/api/v1/auth/register/", payload, format="json")


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_it_runs_the_whole_account_flow(api_client):
    created = register(api_client, email="alice@example.com")
    assert created.status_code == 201
    body = created.json()
    assert body["user"]["username"] == "alice"
    assert body["user"]["email"] == "alice@example.com"
    assert set(body["user"]) == {"id", "username", "email", "date_joined"}

    signed_in = api_client.post(
        "/api/v1/auth/token/", {"username": "alice", "password": STRONG}, format="json"
    )
    assert signed_in.status_code == 200
    token = signed_in.json()["token"]
    assert signed_in.json()["expiry"]
    assert signed_in.json()["user"]["username"] == "alice"

    device = with_token(token)
    me = device.get("/api/v1/me/")
    assert me.status_code == 200
    assert me.json()["username"] == "alice"

    assert device.post("/api/v1/auth/logout/").status_code == 204

    after = device.get("/api/v1/me/")
    assert after.status_code == 401
    assert after.json()["error"]["code"] == "authentication_failed"
    assert after.headers["WWW-Authenticate"] == "Token"


def test_it_keeps_other_devices_signed_in_on_logout(api_client):
    register(api_client)
    tokens = [
        api_client.post(
            "/api/v1/auth/token/", {"username": "alice", "password": STRONG}, format="json"
        ).json()["token"]
        for _ in range(2)
    ]
    with_token(tokens[0]).post("/api/v1/auth/logout/")
    assert with_token(tokens[0]).get("/api/v1/me/").status_code == 401
    assert with_token(tokens[1]).get("/api/v1/me/").status_code == 200


def test_it_signs_out_every_device_on_logout_all(api_client):
    first = register(api_client).json()["token"]
    second = api_client.post(
        "/api/v1/auth/token/", {"username": "alice", "password": STRONG}, format="json"
    ).json()["token"]
    assert with_token(second).post("/api/v1/auth/logout-all/").status_code == 204
    assert with_token(first).get("/api/v1/me/").status_code == 401
    assert with_token(second).get("/api/v1/me/").status_code == 401


def test_it_stores_only_a_hash_of_the_token(api_client):
    token = register(api_client).json()["token"]
    stored = AuthToken.objects.get()
    assert token not in (stored.digest, stored.token_key)
    assert token.startswith(stored.token_key)


def test_it_answers_401_in_the_error_shape_without_a_token(api_client):
    response = api_client.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json() == {
        "error": {
            "code": "not_authenticated",
            "message": "Authentication credentials were not provided.",
        }
    }


def test_it_rejects_a_made_up_token():
    response = with_token("0" * 64).get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_it_rejects_a_weak_password_on_register(api_client):
    response = register(api_client, password="password")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert "password" in error["fields"]
    assert error["message"].startswith("password: ")
    assert not get_user_model().objects.exists()


def test_it_rejects_a_password_like_the_username(api_client):
    response = register(api_client, username="lanternmaker", password="lanternmaker1")
    assert response.status_code == 400
    assert "password" in response.json()["error"]["fields"]


def test_it_rejects_a_duplicate_username(api_client, user):
    response = register(api_client, username=user.username.upper())
    assert response.status_code == 400
    error = response.json()["error"]
    assert list(error["fields"]) == ["username"]
    assert "already exists" in error["message"]
    assert get_user_model().objects.count() == 1


def test_it_names_missing_fields(api_client):
    response = api_client.post("/api/v1/auth/register/", {}, format="json")
    assert response.status_code == 400
    assert set(response.json()["error"]["fields"]) == {"username", "password"}


def test_it_refuses_wrong_credentials_with_a_message(api_client, user):
    response = api_client.post(
        "/api/v1/auth/token/", {"username": user.username, "password": "nope-nope"}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "code": "invalid_credentials",
            "message": "Unable to sign in with that username and password.",
        }
    }


def test_it_refuses_an_inactive_user(api_client, user):
    user.is_active = False
    user.save()
    response = api_client.post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": user.raw_password},
        format="json",
    )
    assert response.status_code == 400


def test_it_revokes_every_token_when_the_password_changes(api_client, user, token_client):
    other_device = api_client.post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": user.raw_password},
        format="json",
    ).json()["token"]

    response = token_client.post(
        "/api/v1/me/password/",
        {"old_password": user.raw_password, "new_password": STRONG},
        format="json",
    )
    assert response.status_code == 200
    fresh = response.json()["token"]

    assert token_client.get("/api/v1/me/").status_code == 401
    assert with_token(other_device).get("/api/v1/me/").status_code == 401
    assert with_token(fresh).get("/api/v1/me/").status_code == 200
    user.refresh_from_db()
    assert user.check_password(STRONG)


def test_it_requires_the_old_password_to_change_it(token_client, user):
    response = token_client.post(
        "/api/v1/me/password/",
        {"old_password": "not-my-password", "new_password": STRONG},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["old_password"]
    assert token_client.get("/api/v1/me/").status_code == 200


def test_it_applies_password_validators_to_a_new_password(token_client, user):
    response = token_client.post(
        "/api/v1/me/password/",
        {"old_password": user.raw_password, "new_password": "12345678"},
        format="json",
    )
    assert response.status_code == 400
    assert "new_password" in response.json()["error"]["fields"]


def test_it_enforces_csrf_for_session_authenticated_writes(user):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.get("/api/v1/me/").status_code == 200
    response = client.post("/api/v1/auth/logout-all/")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"
    assert "CSRF" in response.json()["error"]["message"]
