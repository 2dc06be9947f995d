"""What the game page needs to play on a bad network: its service worker, served where its
scope covers the game pages, and the heartbeat's URL and interval in the page's data."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.play.factories import FOUR, puzzle_create

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_play_as_javascript_never_cached_by_http():
    response = Client().get("/play/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    # The site's strict policy applies to the worker too: it fetches from its own origin only.
    assert "default-src 'self'" in response["Content-Security-Policy"]
    body = response.content.decode()
    assert 'addEventListener("fetch"' in body
    # It never answers for the API: moves are the page's to keep and send.
    assert 'const API = "/api/"' in body


def test_the_game_page_gives_its_script_the_heartbeat_and_the_worker(settings):
    settings.GAME_CLOCK_GAP_SECONDS = 45
    client = Client()
    puzzle = puzzle_create(FOUR, difficulty="easy")
    response = client.post("/play/new/", {"puzzle": puzzle.pk})
    page = client.get(response["Location"])
    found = re.search(
        r'<script id="game-data" type="application/json">(.*?)</script>', page.content.decode()
    )
    data = json.loads(found.group(1))
    game_id = data["game"]["id"]
    assert data["clock_gap_ms"] == 45_000
    assert data["service_worker"] == "/play/sw.js"
    assert data["urls"]["heartbeat"] == f"/api/v1/games/{game_id}/heartbeat/"
    assert (
        client.post(data["urls"]["heartbeat"], content_type="application/json").status_code == 200
    )
    # The banner the page shows offline is there, hidden until then.
    assert 'id="offline-banner"' in page.content.decode()
