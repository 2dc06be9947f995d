"""The load balancer's health check: /healthz answers 200 while the database answers."""

from unittest import mock

import pytest
from django.db import OperationalError


@pytest.mark.django_db
def test_health_answers_ok_while_the_database_answers(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.content == b"ok\n"
    assert "no-cache" in answer["Cache-Control"]


@pytest.mark.django_db
def test_health_answers_503_when_the_database_is_unreachable(client):
    with mock.patch("django.db.backends.utils.CursorWrapper.execute") as execute:
        execute.side_effect = OperationalError("connection refused")
        answer = client.get("/healthz")
    assert answer.status_code == 503
    assert b"database" in answer.content
