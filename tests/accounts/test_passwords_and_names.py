"""Passwords made of blanks or of a few repeated characters are refused everywhere, and
no two accounts share a name in any case, even when they sign up at the same moment."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from accounts.services import token_create

pytestmark = pytest.mark.django_db

STRONG = "tiles-and-lanterns-42"
WEAK = [" " * 12, "\t" * 12, " " * 8 + "\u3000" * 8, "ab ab ab ab ab ab", "zzzzzzzzzzzzzzzz"]


@pytest.mark.parametrize("password", WEAK)
def test_register_refuses_a_password_of_blanks_or_few_characters(api_client, password):
    response = api_client.post(
        "/api/v1/auth/register/", {"username": "newcomer", "password": password}, format="json"
    )
    assert response.status_code == 400
    fields = response.json()["error"]["fields"]
    assert list(fields) == ["password"]
    assert any("different characters" in message for message in fields["password"])
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize("password", WEAK)
def test_the_signup_form_refuses_a_password_of_blanks_or_few_characters(client, password):
    response = client.post(
        "/accounts/signup/", {"username": "newcomer", "password1": password, "password2": password}
    )
    assert response.status_code == 400
    assert b"different characters" in response.content
    assert not get_user_model().objects.exists()


def test_a_password_change_refuses_a_password_of_blanks(user):
    _, key = token_create(user=user)
    response = APIClient(HTTP_AUTHORIZATION=f"Token {key}").post(
        "/api/v1/me/password/",
        {"old_password": user.raw_password, "new_password": " " * 12},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["new_password"]


def test_spaces_inside_a_strong_password_are_kept_not_stripped(api_client):
    password = f"  {STRONG}  "
    response = api_client.post(
        "/api/v1/auth/register/", {"username": "newcomer", "password": password}, format="json"
    )
    assert response.status_code == 201
    user = get_user_model().objects.get()
    assert user.check_password(password)
    assert not user.check_password(STRONG)


def test_the_database_refuses_a_second_name_differing_only_by_case():
    UserFactory(username="Alice")
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create(username="aLICE")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_sign_ups_of_one_name_in_different_cases_make_one_account():
    spellings = ["Racer", "racer", "RACER", "rAcer", "raCer", "racEr"]
    barrier = threading.Barrier(len(spellings))
    answers: dict[str, tuple[int, dict]] = {}

    def sign_up(username: str) -> None:
        try:
            client = APIClient(REMOTE_ADDR=f"192.0.2.{len(answers) + 1}")
            barrier.wait()
            response = client.post(
                "/api/v1/auth/register/",
                {"username": username, "password": STRONG},
                format="json",
            )
            answers[username] = (response.status_code, response.json())
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(name,)) for name in spellings]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert get_user_model().objects.filter(username__iexact="racer").count() == 1
    statuses = sorted(status for status, _ in answers.values())
    assert statuses == [201] + [400] * (len(spellings) - 1)
    for status, body in answers.values():
        if status == 400:
            assert body["error"]["fields"] == {
                "username": ["A user with that username already exists."]
            }


def test_the_admin_refuses_renaming_a_user_to_another_name_in_another_case(admin_client):
    UserFactory(username="Alice")
    bob = UserFactory(username="bob")
    response = admin_client.post(
        f"/admin/auth/user/{bob.pk}/change/",
        {
            "username": "ALICE",
            "email": bob.email,
            "is_active": "on",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
        },
    )
    assert response.status_code == 200
    assert b"A user with that username already exists." in response.content
    bob.refresh_from_db()
    assert bob.username == "bob"
