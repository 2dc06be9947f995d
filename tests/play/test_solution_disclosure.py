"""The solution as an oracle, tried as an attacker would: the solver's API on a puzzle in
play (copied, relabelled, rotated), a second account, a guest, and a give-up."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.middleware.csrf import _get_new_csrf_string
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from puzzles.bank import puzzle_key
from puzzles.models import DailyPuzzle
from solver import parse
from tests.play.factories import NINE, empty_cells, puzzle_create, value_at
from tests.play.helpers import action, move, start

pytestmark = pytest.mark.django_db

ANALYSE = "/api/v1/solver/analyse/"
HINT = "/api/v1/solver/hint/"
# A Monday noon: the week of a give-up ends six and a half days later.
MONDAY = "2026-11-23 12:00:00+00:00"


def bank_puzzle(givens: str = NINE):
    """A bank puzzle stored under its real canonical key."""
    return puzzle_create(givens, canonical_key=puzzle_key(parse(givens)))


def relabelled_and_rotated(givens: str) -> str:
    """The same puzzle with every digit d replaced by d % 9 + 1 and the grid turned 90°."""
    relabel = {str(d): str(d % 9 + 1) for d in range(1, 10)}
    rows = [givens[r * 9 : r * 9 + 9] for r in range(9)]
    turned = ["".join(rows[8 - r][c] for r in range(9)) for c in range(9)]
    return "".join(relabel.get(ch, ch) for ch in "".join(turned))


def client_for(user) -> APIClient:
    from accounts.services import token_create

    _, key = token_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def browser() -> APIClient:
    """A guest's browser: it holds the CSRF cookie, and its session keeps the guest key."""
    client = APIClient(enforce_csrf_checks=True)
    token = _get_new_csrf_string()
    client.cookies["csrftoken"] = token
    client.credentials(HTTP_X_CSRFTOKEN=token)
    return client


def refused(response) -> bool:
    body = response.json()
    return (
        response.status_code == 403
        and body["error"]["code"] == "puzzle_in_play"
        and "solution" not in body
        and "steps" not in body
    )


def finish(client, puzzle, game_id: int) -> dict:
    body: dict = {}
    for cell in empty_cells(puzzle):
        body = move(client, game_id, cell, value_at(puzzle, cell)).json()
    return body


# --- The solver's API ------------------------------------------------------------------


def test_analyse_refuses_the_solution_of_a_puzzle_the_caller_is_playing(token_client):
    puzzle = bank_puzzle()
    start(token_client, puzzle)
    response = token_client.post(ANALYSE, {"grid": NINE}, format="json")
    assert refused(response), response.content


def test_analyse_refuses_a_relabelled_and_rotated_copy_of_the_puzzle(token_client):
    puzzle = bank_puzzle()
    start(token_client, puzzle)
    copy = relabelled_and_rotated(NINE)
    assert copy != NINE
    response = token_client.post(ANALYSE, {"grid": copy}, format="json")
    assert refused(response), response.content


def test_the_setters_check_refuses_a_copy_of_a_puzzle_the_caller_is_playing(token_client):
    start(token_client, bank_puzzle())
    copy = relabelled_and_rotated(NINE)
    response = token_client.post("/api/v1/solver/check/", {"grid": copy}, format="json")
    assert refused(response), response.content


def test_solver_hint_refuses_to_walk_a_puzzle_the_caller_is_playing(token_client):
    puzzle = bank_puzzle()
    start(token_client, puzzle)
    response = token_client.post(HINT, {"grid": NINE}, format="json")
    assert refused(response), response.content


def test_a_second_account_cannot_analyse_a_puzzle_another_player_is_playing_ranked(
    token_client,
):
    puzzle = bank_puzzle()
    start(token_client, puzzle)
    second = client_for(UserFactory())
    assert refused(second.post(ANALYSE, {"grid": NINE}, format="json"))
    assert refused(APIClient().post(ANALYSE, {"grid": NINE}, format="json"))


def test_a_guest_cannot_analyse_todays_daily_puzzle(api_client):
    puzzle = bank_puzzle()
    DailyPuzzle.objects.create(date=timezone.localdate(), size=9, puzzle=puzzle)
    assert refused(api_client.post(ANALYSE, {"grid": NINE}, format="json"))


def test_analyse_shows_the_solution_of_a_bank_puzzle_nobody_is_playing(api_client):
    bank_puzzle()
    response = api_client.post(ANALYSE, {"grid": NINE}, format="json")
    assert response.status_code == 200
    assert response.json()["solution"]


def test_analyse_shows_the_solution_to_the_player_who_completed_it(token_client):
    puzzle = bank_puzzle()
    game = start(token_client, puzzle)
    assert finish(token_client, puzzle, game["id"])["completed"] is True
    response = token_client.post(ANALYSE, {"grid": NINE}, format="json")
    assert response.status_code == 200
    assert response.json()["solution"] == puzzle.solution


# --- Give-ups ---------------------------------------------------------------------------


def test_a_second_account_that_gives_up_does_not_see_the_solution_while_the_first_plays(
    token_client,
):
    puzzle = bank_puzzle()
    with time_machine.travel(MONDAY, tick=False):
        start(token_client, puzzle)
        second = client_for(UserFactory())
        decoy = start(second, puzzle)
        given_up = action(second, decoy["id"], "abandon").json()
        assert given_up["status"] == "abandoned"
        assert given_up["solution"] is None
        assert second.get(f"/api/v1/games/{decoy['id']}/").json()["solution"] is None
        listed = second.get("/api/v1/games/").json()["results"]
        assert [g["solution"] for g in listed] == [None]
    # A week later the first player has paused, not finished: still held.
    with time_machine.travel(timezone.datetime.fromisoformat(MONDAY) + timedelta(days=8)):
        assert second.get(f"/api/v1/games/{decoy['id']}/").json()["solution"] is None


def test_a_give_up_after_another_players_ranked_game_is_held_until_the_week_ends(
    token_client,
):
    puzzle = bank_puzzle()
    second = client_for(UserFactory())
    with time_machine.travel(MONDAY, tick=False):
        first = start(token_client, puzzle)
        finish(token_client, puzzle, first["id"])
        decoy = start(second, puzzle)
        assert action(second, decoy["id"], "abandon").json()["solution"] is None
    sunday = timezone.datetime.fromisoformat(MONDAY) + timedelta(days=6, hours=11)
    with time_machine.travel(sunday, tick=False):
        assert second.get(f"/api/v1/games/{decoy['id']}/").json()["solution"] is None
    with time_machine.travel(sunday + timedelta(hours=1), tick=False):
        shown = second.get(f"/api/v1/games/{decoy['id']}/").json()["solution"]
    assert shown == puzzle.solution


def test_a_players_own_give_up_on_a_puzzle_nobody_else_plays_shows_it_at_once(token_client):
    puzzle = bank_puzzle()
    game = start(token_client, puzzle)
    assert action(token_client, game["id"], "abandon").json()["solution"] == puzzle.solution
    response = token_client.post(ANALYSE, {"grid": NINE}, format="json")
    assert response.status_code == 200 and response.json()["solution"] == puzzle.solution


def test_a_give_up_on_the_daily_puzzle_is_shown_the_next_day():
    api_client = browser()
    puzzle = bank_puzzle()
    with time_machine.travel(MONDAY, tick=False):
        DailyPuzzle.objects.create(date=timezone.localdate(), size=9, puzzle=puzzle)
        game = api_client.post("/api/v1/games/", {"daily": True}, format="json").json()
        assert game["puzzle"]["id"] == puzzle.pk
        assert action(api_client, game["id"], "abandon").json()["solution"] is None
    with time_machine.travel("2026-11-24 00:00:01+00:00", tick=False):
        shown = api_client.get(f"/api/v1/games/{game['id']}/").json()["solution"]
    assert shown == puzzle.solution


def test_a_guests_give_up_on_an_unranked_puzzle_shows_the_solution_at_once():
    api_client = browser()
    puzzle = bank_puzzle()
    game = start(api_client, puzzle)
    assert action(api_client, game["id"], "abandon").json()["solution"] == puzzle.solution


def test_a_held_give_up_keeps_analyse_refusing_for_its_player(token_client):
    puzzle = bank_puzzle()
    start(client_for(UserFactory()), puzzle)  # someone plays it for a score
    game = start(token_client, puzzle)
    assert action(token_client, game["id"], "abandon").json()["solution"] is None
    assert refused(token_client.post(ANALYSE, {"grid": NINE}, format="json"))


def test_analyse_refuses_a_guest_the_puzzle_of_their_unfinished_game():
    guest = browser()
    puzzle = bank_puzzle()
    start(guest, puzzle)
    assert refused(guest.post(ANALYSE, {"grid": relabelled_and_rotated(NINE)}, format="json"))
