"""An API URL without its trailing slash: a 404 naming the right URL, never a redirect (a
client would follow it with a GET and lose the body) nor, with DEBUG on, a 500."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("debug", [False, True])
def test_a_post_without_the_slash_is_told_the_url_to_use(token_client, settings, debug):
    settings.DEBUG = debug
    body = {"client_move_id": "6f1c1b8e-3f43-4c47-9d4e-0d0b2a8f3a11", "cell": 2, "value": 5}
    response = token_client.post("/api/v1/games/12/moves?trace=1", body, format="json")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == "not_found"
    assert error["message"].endswith("Send this to /api/v1/games/12/moves/?trace=1")


def test_a_get_without_the_slash_is_not_redirected(token_client):
    response = token_client.get("/api/v1/games")
    assert response.status_code == 404
    assert "/api/v1/games/" in response.json()["error"]["message"]


def test_an_api_url_that_exists_with_no_slash_either_is_a_plain_404(token_client):
    response = token_client.get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response.json() == {"error": {"code": "not_found", "message": "Not found."}}


def test_a_page_without_the_slash_is_still_redirected(client):
    response = client.get("/accounts/login")
    assert response.status_code == 301
    assert response["Location"] == "/accounts/login/"
