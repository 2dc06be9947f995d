"""API token authentication (accounts/auth.py): knox's checks, one query per request."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts import services
from accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


def _client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _statements(captured: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].upper() not in ("BEGIN", "COMMIT")
        and not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]


def test_a_token_request_costs_one_query_even_with_expired_tokens_around():
    user = UserFactory()
    with time_machine.travel(timezone.now() - timedelta(days=365)):
        services.token_create(user=user)  # long expired, never presented again
    _, key = services.token_create(user=user)
    client = _client(key)
    client.get("/api/v1/me/")  # the token's expiry refresh, once a minute, happens here
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/me/")
    assert response.status_code == 200
    assert response.json()["username"] == user.username
    assert len(_statements(queries)) == 1, _statements(queries)


def test_an_expired_token_is_refused_and_deleted():
    user = UserFactory()
    with time_machine.travel(timezone.now() - timedelta(days=365)):
        token, key = services.token_create(user=user)
    response = _client(key).get("/api/v1/me/")
    assert response.status_code == 401
    assert not AuthToken.objects.filter(pk=token.pk).exists()


def test_other_expired_tokens_are_left_to_the_daily_purge():
    user = UserFactory()
    with time_machine.travel(timezone.now() - timedelta(days=365)):
        old, _ = services.token_create(user=user)
    _, key = services.token_create(user=user)
    assert _client(key).get("/api/v1/me/").status_code == 200
    assert AuthToken.objects.filter(pk=old.pk).exists()
    assert services.token_purge_expired() == 1
    assert not AuthToken.objects.filter(pk=old.pk).exists()


def test_a_wrong_key_with_a_real_prefix_is_refused():
    user = UserFactory()
    _, key = services.token_create(user=user)
    forged = key[:8] + ("0" if key[8] != "0" else "1") + key[9:]
    assert _client(forged).get("/api/v1/me/").status_code == 401


def test_a_token_of_an_inactive_user_is_refused():
    user = UserFactory()
    _, key = services.token_create(user=user)
    user.is_active = False
    user.save()
    assert _client(key).get("/api/v1/me/").status_code == 401


def test_a_used_token_keeps_living_while_an_idle_one_expires():
    user = UserFactory()
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        token, key = services.token_create(user=user)
        first_expiry = token.expiry
        clock.shift(timedelta(days=1))
        assert _client(key).get("/api/v1/me/").status_code == 200
        token.refresh_from_db()
        assert token.expiry > first_expiry  # refreshed on use (knox's AUTO_REFRESH)


def test_the_schema_still_describes_the_token_header(api_client):
    schema = api_client.get("/api/v1/schema/?format=json").json()
    scheme = schema["components"]["securitySchemes"]["knoxApiToken"]
    assert (scheme["type"], scheme["in"], scheme["name"]) == ("apiKey", "header", "Authorization")
    assert '"Token"' in scheme["description"]
    moves = schema["paths"]["/api/v1/games/{id}/moves/"]["post"]
    assert {"knoxApiToken": []} in moves["security"]


def test_a_key_that_is_not_utf8_is_refused_not_an_error():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token k\u00e9y")  # latin-1 on the wire
    assert client.get("/api/v1/me/").status_code == 401
