"""Every route against OPTIONS, HEAD and methods no route takes (issue #34, item 6):
an answer, never a 500."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from accounts.services import token_create
from play.lifecycle import Player, game_start
from tests.play.factories import NINE, puzzle_create

pytestmark = pytest.mark.django_db

METHODS = ["OPTIONS", "HEAD", "PROPFIND", "TRACE", "CONNECT", "PATCH", "PUT", "DELETE", "FOO"]
# What stands for a path parameter: an id that exists where one is needed, else a word.
PARAM = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>")


def routes(patterns: Any = None, prefix: str = "") -> list[str]:
    """Every URL pattern of the site as a path template (regex routes left out)."""
    out: list[str] = []
    for p in get_resolver().url_patterns if patterns is None else patterns:
        route = str(p.pattern)
        if route.startswith("^"):  # a regex: the admin's and the i18n catalogue's
            route = route.lstrip("^").rstrip("$").replace("\\", "")
            if any(ch in route for ch in "()[]?*+"):
                continue
        if isinstance(p, URLResolver):
            out += routes(p.url_patterns, prefix + route)
        elif isinstance(p, URLPattern):
            out.append(prefix + route)
    return sorted(set(out))


def fill(route: str, ids: dict[str, str]) -> str:
    def one(m: re.Match[str]) -> str:
        name = m.group("name")
        for key, value in ids.items():
            if key in name:
                return value
        return "1" if m.group("conv") in ("int", "id") else "abcdefghijklmnopqrst"

    return "/" + PARAM.sub(one, route)


def test_every_route_answers_every_method_without_a_500(user):
    puzzle = puzzle_create(NINE, difficulty="easy")
    game, _ = game_start(player=Player(user=user), puzzle_id=puzzle.pk)
    ids = {"game": str(game.pk), "puzzle": str(puzzle.pk), "pk": str(puzzle.pk)}
    _, key = token_create(user=user)
    player = APIClient(raise_request_exception=False)
    player.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    anonymous = APIClient(raise_request_exception=False)
    urls = [fill(r, ids) for r in routes()]
    assert "/api/v1/docs/" in urls and len(urls) > 40
    failures = []
    for url in urls:
        for method in METHODS:
            for client in (anonymous, player):
                response = client.generic(method, url)
                if response.status_code >= 500:
                    failures.append(f"{method} {url}: {response.status_code}")
    assert failures == [], "\n".join(failures)


def test_options_on_the_api_docs_lists_its_methods(api_client):
    response = api_client.options("/api/v1/docs/")
    assert response.status_code == 200
    assert "GET" in response["Allow"]
