"""Every page, read in Chinese by a guest and by a signed-in player, holds no English
beyond the allowed words (tests/i18n/english.py): titles, labels, buttons, messages and
the text given to screen readers (title, aria-label, placeholder)."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape as html_unescape

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.factories import UserFactory
from play.hints import hint_request
from play.lifecycle import Player, game_start
from play.models import Status
from tests.i18n.english import ALLOWED, english_words, visible_text
from tests.play.factories import FOUR, FOUR_B, NINE, puzzle_create
from tests.ratings.helpers import play_through

pytestmark = pytest.mark.django_db

ZH = "zh-CN,zh;q=0.9"
TITLE = re.compile(r"<title>(.*?)</title>", re.S)


@pytest.fixture
def world():
    """A signed-in player with a rated game, a finished and an unfinished game and a
    pending hint."""
    user = UserFactory(username="player")
    play_through(Player(user=user), puzzle_create(FOUR_B))  # a rating and its chart
    four, nine = puzzle_create(FOUR), puzzle_create(NINE)
    done, _ = game_start(player=Player(user=user), puzzle_id=four.pk)
    done.status = Status.COMPLETED
    done.elapsed_ms, done.score, done.running_since = 95_000, 800, None
    done.finished = timezone.now() - timedelta(hours=1)
    done.save()
    playing, _ = game_start(player=Player(user=user), puzzle_id=nine.pk)
    hint_request(game_id=playing.pk, player=Player(user=user), level=2)
    client = Client(HTTP_ACCEPT_LANGUAGE=ZH)
    client.force_login(user)
    return {"user": user, "client": client, "four": four, "playing": playing, "done": done}


def page_paths(world) -> list[str]:
    return [
        "/",
        "/solve/",
        "/stats/",
        "/leaderboards/",
        f"/leaderboards/?puzzle={world['four'].pk}",
        reverse("learn:index"),
        reverse("learn:lesson", args=["pointing"]),
        reverse("learn:lesson", args=["404"]),  # no such technique
        f"/play/{world['playing'].pk}/",
    ]


GUEST_ONLY = [
    reverse("accounts:login"),
    reverse("accounts:signup"),
    reverse("accounts:password_reset"),
    reverse("accounts:password_reset_done"),
    reverse("accounts:password_reset_complete"),
    reverse("accounts:password_reset_confirm", args=["MQ", "bad-token"]),
    "/no-such-page/",
]
PLAYER_ONLY = [
    reverse("replays:history"),
    reverse("accounts:profile"),
    reverse("accounts:password_change"),
    reverse("accounts:password_change_done"),
    reverse("accounts:delete"),
]


def assert_chinese(html: str, where: str, allowed=ALLOWED) -> None:
    title = TITLE.search(html)
    assert title, where
    assert english_words(html_unescape(title.group(1)), allowed) == [], (where, title.group(1))
    found = english_words(visible_text(html), allowed)
    assert found == [], f"{where}: {sorted(set(found))}"


def test_every_page_a_signed_in_player_sees_is_in_chinese(world):
    client = world["client"]
    replay = reverse("replays:replay", args=[world["done"].pk])
    assert client.get(replay).status_code == 200
    for path in [*page_paths(world), *PLAYER_ONLY, replay]:
        response = client.get(path)
        assert response.status_code in (200, 404), path
        assert_chinese(response.content.decode(), path, ALLOWED | {"player"})


def test_every_page_a_guest_sees_is_in_chinese(world):
    guest = Client(HTTP_ACCEPT_LANGUAGE=ZH)
    started = guest.post(reverse("play:new"), {"puzzle": world["four"].pk})
    assert started.status_code == 302
    for path in [*page_paths(world)[:-1], started["Location"], *GUEST_ONLY]:
        response = guest.get(path)
        assert response.status_code in (200, 404), path
        assert_chinese(response.content.decode(), path, ALLOWED | {"player"})


def test_a_form_with_errors_and_a_flash_message_are_in_chinese(world):
    guest = Client(HTTP_ACCEPT_LANGUAGE=ZH)
    response = guest.post(reverse("accounts:signup"), {"username": "", "password1": "x"})
    assert response.status_code == 400
    assert_chinese(response.content.decode(), "signup errors")
    response = guest.post(
        reverse("accounts:login"), {"username": "nobody", "password": "wrong-password-1"}
    )
    assert_chinese(response.content.decode(), "login errors")
    client = world["client"]
    client.post(reverse("play:new"), {"puzzle": world["playing"].puzzle_id})
    response = client.get(f"/play/{world['playing'].pk}/")
    assert "你已经在玩这道题" in response.content.decode()
    assert_chinese(response.content.decode(), "flash message", ALLOWED | {"player"})


@pytest.mark.parametrize("template", ["400.html", "403.html", "403_csrf.html", "500.html"])
def test_the_error_pages_are_in_chinese(template):
    request = RequestFactory().get("/")
    with translation.override("zh-hans"):
        html = render_to_string(template, {"request": request}, request=request)
    assert_chinese(html, template)


def test_the_password_reset_email_is_in_chinese():
    user = UserFactory(username="player")
    context = {
        "user": user,
        "site_name": "Sudoku",
        "protocol": "https",
        "domain": "sudoku.example",
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user),
    }
    with translation.override("zh-hans"):
        text = render_to_string("registration/password_reset_email.html", context)
    body = re.sub(r"https://\S+", " ", text)
    assert "你好" in body
    assert english_words(body, ALLOWED | {"player"}) == []


def test_the_lobby_reads_in_english_for_an_english_reader(world):
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get("/").content.decode()
    assert "Play Sudoku" in html and "玩数独" not in html
