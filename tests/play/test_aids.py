"""A player's board aids: on the account through /api/v1/me/aids/, and on the game page."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from play.models import AidSettings
from tests.play.factories import FOUR, puzzle_create

pytestmark = pytest.mark.django_db
AIDS = "/api/v1/me/aids/"


def test_every_aid_is_on_until_turned_off_and_stays_off_on_the_account():
    client = APIClient()
    client.force_authenticate(UserFactory())
    on = {"highlight_same": True, "highlight_peers": True, "clear_peer_notes": True}
    assert client.get(AIDS).json() == on
    answer = client.patch(AIDS, {"highlight_peers": False}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {**on, "highlight_peers": False}
    client.patch(AIDS, {"highlight_same": False, "clear_peer_notes": False}, format="json")
    assert client.get(AIDS).json() == dict.fromkeys(on, False)
    assert AidSettings.objects.count() == 1


def test_an_unknown_aid_is_a_400_and_a_guest_has_none_on_the_server():
    client = APIClient()
    client.force_authenticate(UserFactory())
    answer = client.patch(AIDS, {"highlight_everything": True}, format="json")
    assert answer.status_code == 400 and "highlight_everything" in answer.json()["error"]["fields"]
    assert client.patch(AIDS, {"highlight_peers": 0}, format="json").status_code == 400
    assert APIClient().get(AIDS).status_code in (401, 403)


def test_the_game_page_carries_a_players_aids_and_none_for_a_guest():
    user = UserFactory()
    client = Client()
    client.force_login(user)
    AidSettings.objects.create(user=user, highlight_same=False)
    client.post("/play/new/", {"puzzle": puzzle_create(FOUR).pk})
    page = client.get(client.get("/play/")["Location"]).content.decode()
    data = json.loads(re.search(r'id="game-data"[^>]*>(.*?)</script>', page, re.S).group(1))
    assert data["aids"] == {
        "highlight_same": False,
        "highlight_peers": True,
        "clear_peer_notes": True,
    }
    assert data["urls"]["aids"] == AIDS
    guest = Client()
    guest.post("/play/new/", {"puzzle": puzzle_create(FOUR).pk})
    page = guest.get(guest.get("/play/")["Location"]).content.decode()
    assert '"aids": null' in page
