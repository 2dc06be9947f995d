"""Deleting an account, and asking for a password-reset email, on the web and the API."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from knox.models import AuthToken

from accounts.factories import UserFactory
from accounts.services import token_create
from play.lifecycle import Player, game_start
from play.models import Game, Move
from play.moves import move_apply
from tests.play.factories import puzzle_create

pytestmark = pytest.mark.django_db

LIMIT = settings.AXES_FAILURE_LIMIT
RESET_LINK = re.compile(r"http://testserver(/accounts/password/reset/\S+/)")


def played_game(user):
    import uuid

    game, _ = game_start(player=Player(user=user), puzzle_id=puzzle_create().pk)
    cell = game.puzzle.givens.index(".")
    move_apply(
        game_id=game.pk,
        player=Player(user=user),
        client_move_id=uuid.uuid4(),
        kind="note",
        cell=cell,
        value=2,
    )
    return game


def exists(user) -> bool:
    return get_user_model().objects.filter(pk=user.pk).exists()


# --- Deleting an account: API ---------------------------------------------------------


def test_the_api_deletes_the_account_with_its_games_and_tokens(token_client, user):
    game = played_game(user)
    token_create(user=user)  # another device
    response = token_client.post(
        "/api/v1/me/delete/", {"password": user.raw_password}, format="json"
    )
    assert response.status_code == 204
    assert not exists(user)
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not Move.objects.filter(game_id=game.pk).exists()
    assert not AuthToken.objects.filter(user_id=user.pk).exists()
    assert token_client.get("/api/v1/me/").status_code == 401


def test_the_api_keeps_the_account_on_a_wrong_password(token_client, user):
    response = token_client.post("/api/v1/me/delete/", {"password": "nope"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"]["password"] == [
        "Your password was entered incorrectly."
    ]
    assert exists(user)
    missing = token_client.post("/api/v1/me/delete/", {}, format="json")
    assert "password" in missing.json()["error"]["fields"]
    assert exists(user)


def test_wrong_passwords_on_delete_count_towards_the_lockout(token_client, user):
    for i in range(LIMIT):
        token_client.post("/api/v1/me/delete/", {"password": f"guess-{i}"}, format="json")
    locked = token_client.post("/api/v1/me/delete/", {"password": user.raw_password}, format="json")
    assert locked.status_code == 429
    assert locked.json()["error"]["code"] == "login_locked"
    assert exists(user)


def test_a_staff_account_cannot_delete_itself(api_client):
    staff = UserFactory(is_staff=True)
    _, key = token_create(user=staff)
    response = api_client.post(
        "/api/v1/me/delete/",
        {"password": staff.raw_password},
        format="json",
        HTTP_AUTHORIZATION=f"Token {key}",
    )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "account_protected"
    assert exists(staff)


def test_deleting_needs_a_signed_in_user(api_client):
    response = api_client.post("/api/v1/me/delete/", {"password": "x"}, format="json")
    assert response.status_code == 401


# --- Deleting an account: web ---------------------------------------------------------


def test_the_web_deletes_the_account_and_signs_out(client, user):
    game = played_game(user)
    client.force_login(user)
    profile = client.get("/accounts/profile/")
    assert b'href="/accounts/delete/"' in profile.content
    page = client.get("/accounts/delete/")
    assert page.status_code == 200
    assert b"cannot be undone" in page.content
    response = client.post("/accounts/delete/", {"password": user.raw_password}, follow=True)
    assert response.redirect_chain[-1][0] == "/"
    assert b"Your account and its games have been deleted." in response.content
    assert not exists(user)
    assert not Game.objects.filter(pk=game.pk).exists()
    assert "_auth_user_id" not in client.session


def test_the_web_keeps_the_account_on_a_wrong_password(client, user):
    client.force_login(user)
    response = client.post("/accounts/delete/", {"password": "nope"})
    assert response.status_code == 400
    assert b"Your password was entered incorrectly." in response.content
    assert exists(user)
    assert client.get("/accounts/profile/").status_code == 200


def test_wrong_passwords_on_the_web_delete_page_lock_the_account(client, user):
    client.force_login(user)
    for i in range(LIMIT):
        client.post("/accounts/delete/", {"password": f"guess-{i}"})
    locked = client.post("/accounts/delete/", {"password": user.raw_password})
    assert locked.status_code == 429
    assert b"Too many failed sign-in attempts" in locked.content
    assert exists(user)


def test_the_web_delete_page_needs_a_signed_in_user(client):
    response = client.get("/accounts/delete/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_web_refuses_a_staff_account(client):
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    response = client.post("/accounts/delete/", {"password": staff.raw_password})
    assert response.status_code == 400
    assert b"ask another administrator" in response.content
    assert exists(staff)


# --- Password reset by email: API -----------------------------------------------------

RESET = "/api/v1/auth/password-reset/"


def test_the_api_sends_the_reset_link_the_web_sends(api_client, client, user, reset_emails):
    with reset_emails():
        response = api_client.post(RESET, {"email": user.email.upper()}, format="json")
    assert response.status_code == 202
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [user.email]
    assert mail.outbox[0].subject == "Reset your Sudoku password"
    link = RESET_LINK.search(mail.outbox[0].body)
    assert link
    form_page = client.get(link.group(1), follow=True)
    assert b"new_password1" in form_page.content


def test_the_answer_comes_before_any_email_is_sent(
    api_client, user, monkeypatch, django_capture_on_commit_callbacks
):
    """The request only queues the email: an address with an account is answered as
    quickly as one without (no mail server in the request)."""
    from celery import current_app

    queued = []

    def send_task(name, kwargs=None, **options):
        assert name == "accounts.password_reset_email"
        queued.append(kwargs)

    monkeypatch.setattr(current_app, "send_task", send_task)
    with django_capture_on_commit_callbacks() as on_commit:
        with_account = api_client.post(RESET, {"email": user.email}, format="json")
    assert with_account.status_code == 202
    assert queued == []  # queued once the request's work is committed, not before
    for callback in on_commit:
        callback()
    assert queued == [
        {"email": user.email, "domain": "testserver", "use_https": False, "language": "en"}
    ]
    assert not mail.outbox


def test_with_the_broker_down_the_email_is_sent_at_once(
    api_client, user, monkeypatch, django_capture_on_commit_callbacks
):
    from celery import current_app
    from kombu.exceptions import OperationalError

    def unreachable(name, kwargs=None, **options):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379")

    monkeypatch.setattr(current_app, "send_task", unreachable)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(RESET, {"email": user.email}, format="json")
    assert response.status_code == 202
    assert [m.to for m in mail.outbox] == [[user.email]]


def test_the_api_answers_alike_for_an_address_no_account_has(api_client, user, reset_emails):
    with reset_emails():
        known = api_client.post(RESET, {"email": user.email}, format="json")
        unknown = api_client.post(RESET, {"email": "nobody@example.com"}, format="json")
    assert (known.status_code, known.json()) == (unknown.status_code, unknown.json())
    assert len(mail.outbox) == 1


def test_an_address_gets_one_reset_email_per_interval_from_web_and_api(
    api_client, client, user, reset_emails
):
    with reset_emails():
        for _ in range(3):
            api_client.post(RESET, {"email": user.email}, format="json")
        client.post("/accounts/password/reset/", {"email": user.email})
    assert len(mail.outbox) == 1


def test_the_reset_interval_can_be_turned_off(api_client, user, settings, reset_emails):
    settings.PASSWORD_RESET_EMAIL_INTERVAL = 0
    with reset_emails():
        for _ in range(2):
            api_client.post(RESET, {"email": user.email}, format="json")
    assert len(mail.outbox) == 2


def test_the_api_refuses_a_malformed_address(api_client, reset_emails):
    with reset_emails():
        response = api_client.post(RESET, {"email": "not an address"}, format="json")
    assert response.status_code == 400
    assert "email" in response.json()["error"]["fields"]
    assert not mail.outbox


def test_reset_requests_are_throttled_per_client_address(api_client, monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "password_reset", "2/hour")
    statuses = [
        api_client.post(RESET, {"email": f"p{i}@example.com"}, format="json").status_code
        for i in range(3)
    ]
    assert statuses == [202, 202, 429]
