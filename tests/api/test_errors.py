"""One error shape everywhere in /api/v1/, and the shared pagination."""

from __future__ import annotations

import pytest

from accounts.factories import UserFactory
from sudokusite.errors import _validation_body

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.api.probe_urls")]


def test_it_maps_a_domain_error_to_its_status_and_code(client):
    response = client.post("/api/v1/probe/domain/")
    assert response.status_code == 409
    assert response.json() == {
        "error": {
            "code": "cell_is_given",
            "message": "Cell r1c3 is a given and cannot change.",
            "cell": "r1c3",
        }
    }


def test_it_presents_a_services_validation_error_like_a_serializers(client):
    response = client.post("/api/v1/probe/django-validation/")
    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "code": "invalid",
            "message": "cells: Need 81 cells.",
            "fields": {"cells": ["Need 81 cells."]},
        }
    }


def test_it_keeps_retry_after_on_429(client):
    response = client.get("/api/v1/probe/throttled/")
    assert response.status_code == 429
    assert response["Retry-After"] == "7"
    assert response.json()["error"]["code"] == "throttled"


def test_it_lets_unexpected_errors_reach_the_tests(client):
    with pytest.raises(RuntimeError, match="kaboom"):
        client.get("/api/v1/probe/boom/")


def test_it_answers_json_not_a_traceback_for_a_500(client):
    client.raise_request_exception = False
    response = client.get("/api/v1/probe/boom/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "server_error"
    assert b"kaboom" not in response.content


def test_it_shows_a_friendly_page_for_a_500_outside_the_api(client):
    client.raise_request_exception = False
    response = client.get("/probe/boom/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")
    assert b"Something went wrong on our side" in response.content
    assert b"kaboom" not in response.content
    assert b"Traceback" not in response.content


def test_it_shows_a_friendly_404_page(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert b"This square is empty" in response.content


def test_it_paginates_up_to_one_hundred_to_a_page(client):
    UserFactory.create_batch(105)
    response = client.get("/api/v1/probe/users/", {"page_size": "100"})
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 105
    assert len(body["results"]) == 100
    assert body["next"]
    assert len(client.get("/api/v1/probe/users/").json()["results"]) == 20


@pytest.mark.parametrize(
    "page_size", ["1000000000", "101", "0", "-5", "abc", "０", "٥", "𝟓", "5\u200b", "", "2.0"]
)
def test_it_refuses_a_page_size_it_cannot_honour(client, page_size):
    UserFactory.create_batch(3)
    response = client.get("/api/v1/probe/users/", {"page_size": page_size})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["fields"] == {"page_size": ["Choose a page size from 1 to 100."]}
    assert error["message"] == "page_size: Choose a page size from 1 to 100."


def test_it_refuses_a_page_size_given_twice(client):
    response = client.get("/api/v1/probe/users/?page_size=5&page_size=6")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {"page_size": ["Give page_size once."]}


@pytest.mark.parametrize("page", ["0", "-1", "x", "１", "1.5", ""])
def test_it_refuses_a_page_number_that_is_not_one_or_more(client, page):
    response = client.get("/api/v1/probe/users/", {"page": page})
    assert response.status_code == 400
    assert "page" in response.json()["error"]["fields"]


def test_it_serves_the_last_page_by_name(client):
    UserFactory.create_batch(25)
    body = client.get("/api/v1/probe/users/", {"page": "last"}).json()
    assert len(body["results"]) == 5
    assert body["next"] is None


def test_it_answers_404_json_for_a_page_past_the_end(client):
    response = client.get("/api/v1/probe/users/", {"page": "99"})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_it_names_the_first_nested_field_that_failed():
    body = _validation_body({"moves": [{}, {"digit": ["Too big."]}]})
    assert body["error"]["message"] == "moves.1.digit: Too big."
    assert _validation_body(["Send exactly one."])["error"]["message"] == "Send exactly one."
    assert _validation_body({})["error"]["message"] == "Invalid input."
