"""A move's API token is checked by DRF's authentication step (accounts.auth), as on every
other endpoint: every answer and every side effect of the check is the one any endpoint
gives, and nothing is played for a token that does not pass."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts import services as accounts
from accounts.factories import UserFactory
from play.models import Game, Move
from tests.play.factories import empty_cells, value_at
from tests.play.helpers import move, start

pytestmark = pytest.mark.django_db


def _client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def game(token_client, puzzle9) -> dict:
    return start(token_client, puzzle9)


def _right_move(client, game: dict, puzzle) -> object:
    cell = empty_cells(puzzle)[0]
    return move(client, game["id"], cell, value_at(puzzle, cell))


def test_a_move_with_a_good_token_is_played_and_names_its_user(token_client, game, puzzle9):
    response = _right_move(token_client, game, puzzle9)
    assert response.status_code == 200, response.content
    assert response.json()["correct"] is True
    assert response.wsgi_request.user.pk == Game.objects.get(pk=game["id"]).user_id
    assert Move.objects.filter(game_id=game["id"]).count() == 1


def test_a_wrong_key_under_a_real_prefix_is_refused_and_plays_nothing(token_client, game, puzzle9):
    key = token_client.token
    forged = key[:20] + ("0" if key[20] != "0" else "1") + key[21:]
    response = _right_move(_client(forged), game, puzzle9)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert not Move.objects.filter(game_id=game["id"]).exists()


def test_an_expired_token_is_refused_and_deleted_on_a_move(user, game, puzzle9):
    with time_machine.travel(timezone.now() - timedelta(days=365)):
        token, key = accounts.token_create(user=user)
    response = _right_move(_client(key), game, puzzle9)
    assert response.status_code == 401
    assert not AuthToken.objects.filter(pk=token.pk).exists()
    assert not Move.objects.filter(game_id=game["id"]).exists()


def test_the_token_of_a_deactivated_user_plays_no_move(user, token_client, game, puzzle9):
    user.is_active = False
    user.save()
    assert _right_move(token_client, game, puzzle9).status_code == 401
    assert not Move.objects.filter(game_id=game["id"]).exists()


def test_a_good_token_on_another_players_game_is_told_not_found(game, puzzle9):
    _, key = accounts.token_create(user=UserFactory())
    response = _right_move(_client(key), game, puzzle9)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert not Move.objects.filter(game_id=game["id"]).exists()


def test_a_wrong_token_hears_401_before_its_body_is_judged(token_client, game):
    forged = "0" * len(token_client.token)
    for body in ({"cell": "x"}, "not json"):
        response = _client(forged).post(f"/api/v1/games/{game['id']}/moves/", body, format="json")
        assert response.status_code == 401, response.content


@pytest.mark.parametrize("header", ["Token", "Token a b", "Token k\u00e9y", "Bearer abc"])
def test_a_malformed_header_gets_the_answer_it_gets_elsewhere(game, puzzle9, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    moved = _right_move(client, game, puzzle9)
    elsewhere = client.get("/api/v1/games/")
    assert moved.status_code == elsewhere.status_code == 401
    assert not Move.objects.filter(game_id=game["id"]).exists()


def test_a_move_keeps_its_token_alive_as_any_request_does(user, puzzle9):
    started = timezone.now()
    with time_machine.travel(started, tick=False) as clock:
        token, key = accounts.token_create(user=user)
        client = _client(key)
        game = start(client, puzzle9)
        token.refresh_from_db()
        first_expiry = token.expiry
        clock.shift(timedelta(days=1))
        assert _right_move(client, game, puzzle9).status_code == 200
        token.refresh_from_db()
        assert token.expiry > first_expiry


def test_a_token_that_is_not_utf8_is_refused_not_a_server_error(game, puzzle9):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token \xff\xfe" + "a" * 62)
    response = _right_move(client, game, puzzle9)
    assert response.status_code == 401
    assert not Move.objects.filter(game_id=game["id"]).exists()


def test_an_expired_token_with_a_bad_body_is_told_401_and_deleted(user, game):
    with time_machine.travel(timezone.now() - timedelta(days=365)):
        token, key = accounts.token_create(user=user)
    response = _client(key).post(f"/api/v1/games/{game['id']}/moves/", {"cell": "x"}, format="json")
    assert response.status_code == 401
    assert not AuthToken.objects.filter(pk=token.pk).exists()
