"""A visitor without an account plays in their browser session, and keeps the games on
signing up or logging in."""

from __future__ import annotations

import pytest
from django.middleware.csrf import _get_new_csrf_string
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from play.models import Game
from tests.play.factories import empty_cells, value_at
from tests.play.helpers import move, start

pytestmark = pytest.mark.django_db

STRONG = "tiles-and-lanterns-42"


def browser() -> APIClient:
    """A browser that loaded one of our pages: it holds the CSRF cookie and sends it back."""
    client = APIClient(enforce_csrf_checks=True)
    token = _get_new_csrf_string()
    client.cookies["csrftoken"] = token
    client.credentials(HTTP_X_CSRFTOKEN=token)
    client.csrf = token  # type: ignore[attr-defined]
    return client


def _log_in(guest: APIClient, user) -> None:
    response = guest.post(
        "/accounts/login/",
        {
            "username": user.username,
            "password": user.raw_password,
            "csrfmiddlewaretoken": guest.csrf,
        },
        format="multipart",
    )
    assert response.status_code == 302


def test_a_guest_plays_a_game_kept_in_their_session(puzzle4):
    guest = browser()
    game = start(guest, puzzle4)
    cell = empty_cells(puzzle4)[0]
    answer = move(guest, game["id"], cell, value_at(puzzle4, cell))
    assert answer.status_code == 200 and answer.json()["correct"] is True
    assert guest.get("/api/v1/games/").json()["count"] == 1
    stored = Game.objects.get(pk=game["id"])
    assert stored.user is None and stored.guest_key
    assert stored.guest_key == guest.session["play_guest_key"]


def test_a_guest_write_without_the_csrf_token_is_refused(puzzle4):
    guest = browser()
    game = start(guest, puzzle4)
    guest.credentials()  # drop the X-CSRFToken header
    response = move(guest, game["id"], empty_cells(puzzle4)[0], 1)
    assert response.status_code == 403
    assert "CSRF" in response.json()["error"]["message"]
    assert Game.objects.get(pk=game["id"]).version == 1


def test_another_guest_cannot_see_the_game(puzzle4):
    game = start(browser(), puzzle4)
    stranger = browser()
    stranger.get("/api/v1/games/")  # a session of their own
    assert stranger.get(f"/api/v1/games/{game['id']}/").status_code == 404
    assert move(stranger, game["id"], empty_cells(puzzle4)[0], 1).status_code == 404
    assert stranger.get("/api/v1/games/").json()["count"] == 0


def test_signing_up_keeps_the_guest_games(puzzle4):
    guest = browser()
    game = start(guest, puzzle4)
    response = guest.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "password1": STRONG,
            "password2": STRONG,
            "csrfmiddlewaretoken": guest.csrf,
        },
        format="multipart",
    )
    assert response.status_code == 302
    stored = Game.objects.get(pk=game["id"])
    assert stored.user is not None and stored.user.username == "newcomer"
    assert stored.guest_key == "" and stored.ranked is True
    # Same browser, now signed in: still its game.
    assert guest.get(f"/api/v1/games/{game['id']}/").status_code == 200


def test_logging_in_keeps_the_guest_games_but_a_replayed_puzzle_is_unranked(
    token_client, user, puzzle4
):
    already = start(token_client, puzzle4)
    guest = browser()
    game = start(guest, puzzle4)
    _log_in(guest, user)
    claimed = Game.objects.get(pk=game["id"])
    assert claimed.user == user and claimed.ranked is False
    assert Game.objects.get(pk=already["id"]).ranked is True
    assert token_client.get("/api/v1/games/").json()["count"] == 2


def test_a_guest_has_no_stats(puzzle4):
    guest = browser()
    start(guest, puzzle4)
    assert guest.get("/api/v1/me/stats/").status_code in (401, 403)


def test_a_signed_up_players_guest_games_do_not_follow_another_login(puzzle4):
    """Claiming takes the key out of the session: a later login claims nothing more."""
    guest = browser()
    game = start(guest, puzzle4)
    first, second = UserFactory(), UserFactory()
    guest.force_login(first)
    from django.test import RequestFactory

    from play.lifecycle import game_claim_guest_games

    request = RequestFactory().get("/")
    request.session = guest.session
    assert game_claim_guest_games(request=request, user=first) == 1
    assert game_claim_guest_games(request=request, user=second) == 0
    assert Game.objects.get(pk=game["id"]).user == first


@pytest.mark.parametrize("played_last", ["guest", "account"])
def test_logging_in_goes_on_with_the_unfinished_game_played_last(
    token_client, user, puzzle4, played_last
):
    guest = browser()
    clients = {"account": token_client, "guest": guest}
    games = {side: start(client, puzzle4)["id"] for side, client in clients.items()}
    cell = empty_cells(puzzle4)[0]
    move(clients[played_last], games[played_last], cell, value_at(puzzle4, cell))

    _log_in(guest, user)

    other = "account" if played_last == "guest" else "guest"
    stored = {g.pk: g for g in Game.objects.filter(user=user)}
    going_on, stopped = stored[games[played_last]], stored[games[other]]
    assert going_on.status == "in_progress" and going_on.entries[cell] != "."
    assert stopped.status == "abandoned"  # kept, in the history
    # Its abandon is on its log like any other write.
    assert stopped.moves.order_by("-seq").first().kind == "abandon"
    assert stopped.moves.count() == stopped.move_count
    again = token_client.post("/api/v1/games/", {"puzzle": puzzle4.pk}, format="json")
    assert again.status_code == 200 and again.json()["id"] == going_on.pk


def _sign_in(guest: APIClient, path: str) -> int:
    """The guest becomes a player by one of the four ways in; the status code."""
    if path == "signup":
        data = {"username": "newcomer", "password1": STRONG, "password2": STRONG}
        return guest.post(
            "/accounts/signup/", {**data, "csrfmiddlewaretoken": guest.csrf}, format="multipart"
        ).status_code
    user = UserFactory(username="newcomer")
    if path == "login":
        data = {"username": "newcomer", "password": user.raw_password}
        return guest.post(
            "/accounts/login/", {**data, "csrfmiddlewaretoken": guest.csrf}, format="multipart"
        ).status_code
    if path == "api_token":
        data = {"username": "newcomer", "password": user.raw_password}
        return guest.post("/api/v1/auth/token/", data, format="json").status_code
    user.delete()
    data = {"username": "newcomer", "password": STRONG}
    return guest.post("/api/v1/auth/register/", data, format="json").status_code


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["signup", "login", "api_token", "api_register"])
def test_every_way_in_claims_the_guest_games_in_a_real_transaction(path, puzzle4):
    """Outside a test's own transaction, as in production: the claim locks the games it
    moves, which it can only do inside a transaction of its own."""
    guest = browser()
    game = start(guest, puzzle4)
    assert _sign_in(guest, path) in (200, 201, 302)
    claimed = Game.objects.get(pk=game["id"])
    assert claimed.user is not None and claimed.user.username == "newcomer"
    assert claimed.guest_key == "" and claimed.claimed
