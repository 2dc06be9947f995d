"""Names people can tell apart (issue #34, item 6): a username that looks like a taken one,
mixes alphabets, or hides characters is refused with a field error in both languages; the
stored skeleton makes the database the judge."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client

from accounts.factories import UserFactory
from accounts.models import UsernameSkeleton
from accounts.names import mixed_script, skeleton
from accounts.services import username_skeleton_set

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/auth/register/"
STRONG = "tiles-and-lanterns-42"


def register(client, username: str, **headers):
    return client.post(
        REGISTER, {"username": username, "password": STRONG}, format="json", **headers
    )


def username_error(response) -> str:
    assert response.status_code == 400, response.content
    return response.json()["error"]["fields"]["username"][0]


@pytest.mark.parametrize(
    "look_alike",
    [
        "ɑdmin",  # Latin alpha
        "adrnin",  # r and n for m
        "ａｄｍｉｎ",  # full-width (folded by the username's NFKC)
        "Admin",  # another case
    ],
)
def test_a_name_that_looks_like_a_taken_one_is_refused(api_client, look_alike):
    assert register(api_client, "admin").status_code == 201
    message = username_error(register(api_client, look_alike))
    assert "already" in message or "looks the same" in message
    assert get_user_model().objects.count() == 1


def test_a_digit_one_and_a_lower_case_l_are_one_look(api_client):
    assert register(api_client, "player1").status_code == 201
    assert "looks the same" in username_error(register(api_client, "playerl"))


def test_a_name_mixing_latin_and_cyrillic_is_refused_even_when_nothing_is_taken(api_client):
    message = username_error(register(api_client, "аdmin"))  # a Cyrillic а
    assert "mixes alphabets" in message and "Cyrillic" in message


def test_the_refusal_reads_in_chinese_too(api_client):
    assert register(api_client, "admin").status_code == 201
    response = register(api_client, "ɑdmin", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert username_error(response) == "此用户名与已被使用的用户名看起来一样：请换一个。"


@pytest.mark.parametrize("name", ["小明abc", "Σίσυφος", "иван", "たなか太郎", "player_7", "Müller"])
def test_names_of_one_script_or_an_allowed_mix_register(api_client, name):
    assert register(api_client, name).status_code == 201, name


@pytest.mark.parametrize("name", ["\u3164", "ad\u200dmin", "admin\u200f", "\u2800"])
def test_a_name_with_invisible_characters_is_refused(api_client, name):
    username_error(register(api_client, name))
    assert not get_user_model().objects.exists()


def test_the_signup_form_says_why_a_look_alike_is_refused():
    browser = Client()
    form = {"username": "admin", "password1": STRONG, "password2": STRONG}
    assert browser.post("/accounts/signup/", form).status_code == 302
    page = Client().post("/accounts/signup/", {**form, "username": "ɑdmin"})
    assert page.status_code == 400  # the form again, with its errors
    assert "looks the same as one already taken" in page.content.decode()
    assert get_user_model().objects.count() == 1


def test_the_database_refuses_a_second_account_that_looks_like_the_first():
    first, second = UserFactory(username="admin"), UserFactory(username="ɑdmin")
    username_skeleton_set(user=first)
    with pytest.raises(ValidationError):
        username_skeleton_set(user=second)
    assert UsernameSkeleton.objects.get().user == first


def test_the_migration_fills_skeletons_and_keeps_existing_look_alikes():
    from importlib import import_module

    from django.apps import apps
    from django.db import connection

    fill = import_module("accounts.migrations.0003_username_skeleton")._fill
    users = [UserFactory(username=n) for n in ("admin", "ɑdmin", "someone")]
    UsernameSkeleton.objects.all().delete()

    class Editor:
        pass

    editor = Editor()
    editor.connection = connection  # type: ignore[attr-defined]
    fill(apps, editor)
    stored = dict(UsernameSkeleton.objects.values_list("user_id", "skeleton"))
    assert stored[users[0].pk] == skeleton("admin")
    assert stored[users[1].pk] == f"{skeleton('admin')}#{users[1].pk}"
    assert stored[users[2].pk] == skeleton("someone")


def test_the_skeleton_is_what_the_name_looks_like():
    assert skeleton("admin") == skeleton("ɑdmin") == skeleton("adrnin") == skeleton("аdmin")
    assert skeleton("adm1n") == skeleton("admln") == skeleton("admIn")
    assert skeleton("Ivan") == skeleton("lvan")
    assert skeleton("admin") != skeleton("admit")
    assert mixed_script("pаypal") and not mixed_script("paypal") and not mixed_script("小明abc")


def test_a_look_alike_of_an_account_made_outside_sign_up_is_refused(api_client):
    get_user_model().objects.create_superuser("admin", "admin@example.com", STRONG)
    assert not UsernameSkeleton.objects.exists()
    assert "looks the same" in username_error(register(api_client, "ɑdmin"))
    assert register(api_client, "someone").status_code == 201
    assert UsernameSkeleton.objects.filter(skeleton=skeleton("admin")).exists()


def test_a_pack_name_of_only_invisible_characters_is_refused(api_client):
    staff = UserFactory(is_staff=True)
    api_client.force_authenticate(staff)
    body = {"name": "\u200f\u200b\u200b", "size": 4, "difficulty": "easy", "count": 1}
    response = api_client.post("/api/v1/packs/", body, format="json")
    assert response.status_code == 400
    assert "name" in response.json()["error"]["fields"]


def test_the_text_rule_refuses_invisible_labels_and_keeps_visible_notes():
    from sudokusite.fields import text_problem

    for bad in ["\u200f\u200b", "\u3164", "\u202eabc", "a\x00b", " \u200b "]:
        assert text_problem(bad) is not None, repr(bad)
    assert text_problem("line one\nline two", multiline=True) is None
    assert text_problem("小明 · 9x9") is None


def test_the_review_admin_refuses_an_invisible_note(client):
    from integrity.admin import GameReviewForm

    form = GameReviewForm(data={"note": "\u200b\u200f"})
    assert not form.is_valid() and "note" in form.errors
    assert GameReviewForm(data={"note": "Checked the moves: fine."}).is_valid()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_sign_ups_of_look_alike_names_make_one_account():
    import threading

    from django.db import connection
    from rest_framework.test import APIClient

    names = ["admin", "ɑdmin", "adrnin", "ａdmin"]
    barrier = threading.Barrier(len(names))
    statuses: list[int] = []

    def sign_up(index: int, username: str) -> None:
        try:
            client = APIClient(REMOTE_ADDR=f"192.0.2.{index + 1}")
            barrier.wait()
            statuses.append(register(client, username).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=pair) for pair in enumerate(names)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] + [400] * (len(names) - 1)
    assert get_user_model().objects.count() == 1
    assert UsernameSkeleton.objects.count() == 1


def test_the_mixed_script_refusal_names_the_alphabets_in_chinese(api_client):
    response = register(api_client, "аdmin", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    message = username_error(response)
    assert "西里尔字母" in message and "拉丁字母" in message


def test_the_pack_admin_form_refuses_a_name_of_only_invisible_characters():
    from puzzles.admin import PackRequestForm

    data = {"size": 4, "difficulty": "easy", "count": 1, "symmetry": "none", "technique": ""}
    form = PackRequestForm(data={**data, "name": "\u200f\u200b"})
    assert not form.is_valid() and "name" in form.errors
    assert PackRequestForm(data={**data, "name": "Weekend 4x4"}).is_valid()
