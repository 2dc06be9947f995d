"""The web app manifest and its icons: the site installs on a phone's home screen, under
the strict CSP, and opens at /play/ (the service worker answers it offline)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from play.models import Game
from tests.play.factories import FOUR, puzzle_create

pytestmark = pytest.mark.django_db


def test_every_page_links_the_manifest_whose_icons_are_pngs_of_their_size():
    client = Client()
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == "/play/" and manifest["display"] == "standalone"
    assert {icon["purpose"] for icon in manifest["icons"]} == {"any", "maskable"}
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        data = Path(path).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", data[16:24])
        assert icon["sizes"] == f"{width}x{height}"


def test_the_pages_policy_lets_the_manifest_and_icons_load_from_the_site_only():
    policy = Client().get("/")["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert "manifest-src" not in directives  # default-src 'self' governs it
    assert directives["default-src"] == "'self'"
    assert directives["img-src"].split()[0] == "'self'"


def test_the_installed_app_opens_the_latest_unfinished_game_or_the_lobby():
    client = Client()
    assert client.get("/play/")["Location"] == "/"
    client.post("/play/new/", {"puzzle": puzzle_create(FOUR).pk})
    game = Game.objects.get()
    assert client.get("/play/")["Location"] == f"/play/{game.pk}/"


def test_the_service_worker_answers_the_start_page_offline():
    worker = Client().get("/play/sw.js").content.decode()
    assert 'const START = "/play/";' in worker
    assert "url.pathname === START" in worker
