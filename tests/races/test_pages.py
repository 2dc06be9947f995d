"""The race pages: making a race in the browser, the race page for anyone with its link."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.factories import UserFactory
from races.models import Race
from tests.races.helpers import player, race_create

pytestmark = pytest.mark.django_db


def _signed_in() -> Client:
    client = Client()
    client.force_login(UserFactory())
    return client


def test_making_a_race_in_the_browser_leads_to_its_page(puzzle4):
    client = _signed_in()
    response = client.post("/races/new/", {"size": "4", "puzzle": "easy", "time_limit": "10"})
    race = Race.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/races/{race.code}/"
    assert (race.size, race.difficulty, race.time_limit_s) == (4, "easy", 600)


def test_making_a_race_needs_a_sign_in(db):
    response = Client().get("/races/new/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_anyone_with_the_link_watches_and_the_socket_is_allowed_by_the_policy(puzzle4):
    host = player()
    code = race_create(host)["race"]["code"]
    response = Client().get(f"/races/{code}/")
    assert response.status_code == 200
    assert host.user.username in response.content.decode()
    policy = response["Content-Security-Policy"]
    connect = next(d for d in policy.split(";") if d.strip().startswith("connect-src"))
    assert "'self'" in connect and "ws://testserver" in connect
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy


def test_an_unknown_race_page_is_a_404(db):
    assert Client().get("/races/nope/").status_code == 404


def test_making_races_is_rate_limited_per_player(puzzle4, monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    rates = {**SimpleRateThrottle.THROTTLE_RATES, "race_create": "2/hour"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    host = player()
    answers = [
        host.post("/api/v1/races/", {"size": 4, "difficulty": "easy"}, format="json")
        for _ in range(3)
    ]
    assert [r.status_code for r in answers] == [201, 201, 429]
    assert answers[2].json()["error"]["code"] == "throttled"
