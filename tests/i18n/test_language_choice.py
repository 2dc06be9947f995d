"""Which language a reader gets: the account's choice, then the cookie, then the browser."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.factories import UserFactory
from accounts.models import LanguagePreference

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME
SWITCH = reverse("set_language")


def lang_of(response) -> str:
    return response["Content-Language"]


def test_a_new_visitor_whose_browser_asks_for_chinese_reads_chinese():
    response = Client(HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9,en;q=0.5").get("/")
    assert lang_of(response) == "zh-hans"
    html = response.content.decode()
    assert '<html lang="zh-Hans">' in html
    assert "玩数独" in html and "Play Sudoku" not in html


def test_a_browser_asking_for_english_or_nothing_reads_english():
    assert lang_of(Client(HTTP_ACCEPT_LANGUAGE="en-GB").get("/")) == "en"
    assert lang_of(Client().get("/")) == "en"


def test_the_switcher_keeps_the_reader_on_the_same_page_and_sets_the_cookie():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(SWITCH, {"language": "zh-hans", "next": "/solve/?size=6"})
    assert response.status_code == 302
    assert response["Location"] == "/solve/?size=6"
    assert response.cookies[COOKIE].value == "zh-hans"
    assert lang_of(client.get("/solve/")) == "zh-hans"


def test_the_cookie_wins_over_the_browser():
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-CN")
    client.cookies[COOKIE] = "en"
    assert lang_of(client.get("/")) == "en"


@pytest.mark.parametrize("code", ["klingon", "zh-tw", "", "en-us'--", "x" * 300])
def test_an_unknown_code_in_the_switcher_changes_nothing_and_is_no_error(code):
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-CN")
    response = client.post(SWITCH, {"language": code, "next": "/stats/"})
    assert response.status_code == 302
    assert response["Location"] == "/stats/"
    assert COOKIE not in response.cookies
    assert lang_of(client.get("/stats/")) == "zh-hans"


@pytest.mark.parametrize("code", ["klingon", "zh_Hans", "", "%00"])
def test_an_unknown_code_in_the_cookie_falls_back_to_the_browser(code):
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-CN")
    client.cookies[COOKIE] = code
    response = client.get("/")
    assert response.status_code == 200
    assert lang_of(response) == "zh-hans"


def test_a_next_to_another_site_is_not_followed():
    response = Client().post(SWITCH, {"language": "zh-hans", "next": "https://evil.example/"})
    assert response.status_code == 302
    assert "evil.example" not in response["Location"]


def test_a_signed_in_players_choice_is_saved_and_wins_on_another_device():
    user = UserFactory()
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    phone.force_login(user)
    phone.post(SWITCH, {"language": "zh-hans", "next": "/"})
    assert LanguagePreference.objects.get(user=user).language == "zh-hans"

    laptop = Client(HTTP_ACCEPT_LANGUAGE="en-US")
    laptop.cookies[COOKIE] = "en"
    laptop.force_login(user)
    response = laptop.get("/")
    assert lang_of(response) == "zh-hans"
    # The cookie follows the account, so the page stays Chinese after signing out.
    assert response.cookies[COOKIE].value == "zh-hans"


def test_a_choice_made_as_a_guest_sticks_after_signing_in():
    user = UserFactory()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.post(SWITCH, {"language": "zh-hans", "next": "/"})
    response = client.post(
        reverse("accounts:login"), {"username": user.username, "password": user.raw_password}
    )
    assert response.status_code == 302
    assert lang_of(client.get("/")) == "zh-hans"
    assert LanguagePreference.objects.get(user=user).language == "zh-hans"


def test_an_account_without_a_choice_follows_the_browser():
    user = UserFactory()
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-CN")
    client.force_login(user)
    assert lang_of(client.get("/")) == "zh-hans"
    assert not LanguagePreference.objects.filter(user=user).exists()


def test_the_profile_carries_the_switcher_with_the_current_language_chosen():
    user = UserFactory()
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-CN")
    client.force_login(user)
    html = client.get(reverse("accounts:profile")).content.decode()
    assert html.count('data-testid="language-switcher"') == 2
    assert '<option value="zh-hans" lang="zh-Hans" selected>简体中文</option>' in html


def test_the_api_answers_in_the_language_of_accept_language(token_client):
    response = token_client.get("/api/v1/games/999999/", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert response.status_code == 404
    assert response["Content-Language"] == "zh-hans"
    assert response.json()["error"] == {"code": "not_found", "message": "未找到。"}


def test_the_javascript_catalog_is_served_in_the_readers_language():
    response = Client(HTTP_ACCEPT_LANGUAGE="zh-CN").get(reverse("javascript_catalog"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    chinese = json.dumps("看看高亮的格子。")[1:-1]  # the catalog is JSON, \u-escaped
    assert chinese in response.content.decode()
    assert chinese not in Client().get(reverse("javascript_catalog")).content.decode()


def test_the_reset_email_is_written_in_its_readers_language():
    from django.core import mail

    from accounts.services import password_reset_email_send

    reader = UserFactory(email="reader@example.com")
    password_reset_email_send(
        email=reader.email, domain="sudoku.example", use_https=True, language="zh-hans"
    )
    LanguagePreference.objects.create(user=reader, language="en")
    password_reset_email_send(
        email=reader.email, domain="sudoku.example", use_https=True, language="zh-hans"
    )
    chinese, english = mail.outbox
    assert "重置" in chinese.subject and "你好" in chinese.body
    assert english.subject.startswith("Reset your") and "Hello" in english.body


@pytest.mark.parametrize("path", ["/", "/api/v1/techniques/"])
def test_answers_vary_on_accept_language_so_caches_keep_each_language_apart(path):
    english = Client().get(path)
    chinese = Client(HTTP_ACCEPT_LANGUAGE="zh-CN").get(path)
    for response in (english, chinese):
        vary = {v.strip().lower() for v in response.get("Vary", "").split(",")}
        assert "accept-language" in vary
    assert (lang_of(english), lang_of(chinese)) == ("en", "zh-hans")
