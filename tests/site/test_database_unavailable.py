"""A database that refuses connections (down, max_connections exhausted, no pooled
connection free) is a 503 saying "try again": the API's error shape, a plain page
elsewhere; never an HTML 500."""

from __future__ import annotations

from collections.abc import Iterator
from unittest import mock

import pytest
from django.db import OperationalError, connections

# PostgreSQL's: SQLite's in-memory test database cannot be disconnected from (it would be
# gone); the last test here shows the same answer on any database.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def refusing_database() -> Iterator[None]:
    """The default database pointed at a port where nothing listens: every connection
    is refused, as by a server that is down or has no connection slot left."""
    connection = connections["default"]
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=1)
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


TOKEN = {"HTTP_AUTHORIZATION": "Token " + "a" * 64}


@pytest.mark.parametrize(
    ("method", "path", "body", "headers"),
    [
        ("get", "/api/v1/games/", {}, TOKEN),  # the token's lookup
        ("post", "/api/v1/auth/token/", {"username": "ann", "password": "pw-pw-pw-pw"}, {}),
        ("post", "/api/v1/games/1/moves/", {"cell": 0, "value": 1}, TOKEN),
    ],
)
@pytest.mark.postgres
def test_the_api_answers_503_in_its_error_shape(
    client, refusing_database, method, path, body, headers
):
    client.raise_request_exception = False
    response = getattr(client, method)(path, body, content_type="application/json", **headers)
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == "5"
    assert response.json()["error"]["code"] == "service_unavailable"
    assert response.json()["error"]["message"]


@pytest.mark.postgres
def test_a_page_answers_a_plain_503_page(client, refusing_database):
    client.raise_request_exception = False
    response = client.get("/")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert b"briefly unavailable" in response.content
    assert b"Traceback" not in response.content


@pytest.mark.postgres
def test_the_503_speaks_the_readers_language(client, refusing_database):
    client.raise_request_exception = False
    response = client.get("/api/v1/games/", HTTP_ACCEPT_LANGUAGE="zh-hans", **TOKEN)
    assert response.status_code == 503
    assert response.json()["error"]["message"] == "服务暂时不可用，请稍后再试。"


@pytest.mark.parametrize("path", ["/api/v1/games/", "/"])
def test_any_database_that_fails_to_answer_is_a_503(client, path):
    """No pooled connection free in time is the same (psycopg_pool's PoolTimeout is an
    OperationalError, as Django raises it)."""
    client.raise_request_exception = False
    with mock.patch("django.db.backends.utils.CursorWrapper.execute") as execute:
        execute.side_effect = OperationalError("couldn't get a connection after 10.00 sec")
        response = client.get(path, **TOKEN)
    assert response.status_code == 503
