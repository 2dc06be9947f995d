"""Starting a game on a puzzle the player typed in: POST /api/v1/games/ {"grid": ...}."""

from __future__ import annotations

import pytest
from django.middleware.csrf import _get_new_csrf_string
from rest_framework.test import APIClient

from play.models import Game
from puzzles.models import Puzzle, Source
from solver import logic_solve, parse
from tests.api.test_solver_api import (
    CLASHING,
    HOSTILE_16,
    NEARLY_EMPTY_25,
    UNIQUE,
    UNIQUE_SOLUTION,
    UNSOLVABLE,
    rate_limit,
)
from tests.solver.datasets import load

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"


@pytest.fixture
def guest() -> APIClient:
    """A browser without an account that loaded one of our pages (it has the CSRF cookie)."""
    client = APIClient(enforce_csrf_checks=True)
    token = _get_new_csrf_string()
    client.cookies["csrftoken"] = token
    client.credentials(HTTP_X_CSRFTOKEN=token)
    return client


def start(client, grid: str, **environ):
    return client.post(GAMES, {"grid": grid}, format="json", **environ)


def transposed(grid: str) -> str:
    """The same puzzle mirrored on its main diagonal (an equivalent puzzle)."""
    return "".join(grid[c * 9 + r] for r in range(9) for c in range(9))


def test_a_game_starts_on_an_entered_grid_stored_once_as_a_typed_in_puzzle(token_client):
    response = start(token_client, UNIQUE)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["puzzle"]["givens"] == UNIQUE
    assert body["status"] == "in_progress"
    assert UNIQUE_SOLUTION not in response.content.decode()  # not while the game is open
    puzzle = Puzzle.objects.get()
    assert puzzle.pk == body["puzzle"]["id"]
    assert puzzle.source == Source.TYPED
    assert puzzle.solution == UNIQUE_SOLUTION
    assert puzzle.difficulty == "easy"


def test_entering_the_grid_again_reuses_the_stored_puzzle(token_client, guest):
    first = start(token_client, UNIQUE).json()
    again = start(token_client, UNIQUE)
    by_a_guest = start(guest, UNIQUE).json()
    # The player is playing it already: that game goes on. The guest gets a game of its own.
    assert again.status_code == 200
    assert again.json()["id"] == first["id"] != by_a_guest["id"]
    assert first["puzzle"]["id"] == by_a_guest["puzzle"]["id"]
    assert Puzzle.objects.count() == 1
    assert Game.objects.count() == 2


def test_an_equivalent_grid_plays_the_stored_puzzle(token_client):
    first = start(token_client, UNIQUE).json()
    token_client.post(f"/api/v1/games/{first['id']}/abandon/", {}, format="json")
    mirrored = start(token_client, transposed(UNIQUE))
    assert mirrored.status_code == 201
    assert mirrored.json()["puzzle"]["id"] == first["puzzle"]["id"]
    assert mirrored.json()["puzzle"]["givens"] == UNIQUE  # the stored one is played
    assert Puzzle.objects.count() == 1


@pytest.mark.parametrize(
    ("grid", "code", "says"),
    [
        (load("serg_multisolution_1000")[0], "multiple_solutions", "more than one solution"),
        (UNSOLVABLE, "no_solution", "no solution"),
        (CLASHING, "no_solution", "r1c1 and r1c5 both hold 5 in row 1"),
    ],
    ids=["several", "none", "clash"],
)
def test_a_grid_without_exactly_one_solution_is_a_400_saying_which(token_client, grid, code, says):
    response = start(token_client, grid)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code
    assert says in error["message"]
    assert not Puzzle.objects.exists()
    assert not Game.objects.exists()


def test_an_unreadable_grid_is_a_400_naming_the_cell(token_client):
    response = start(token_client, "12x" + "." * 78)
    assert response.status_code == 400
    assert response.json()["error"]["fields"]["grid"] == [
        "cell r1c3: 'x' is not a symbol of a 9x9 grid"
    ]


@pytest.mark.parametrize("grid", [HOSTILE_16, NEARLY_EMPTY_25], ids=["16x16", "25x25"])
def test_a_grid_that_uses_up_the_budget_is_a_422_and_stores_nothing(token_client, grid):
    response = start(token_client, grid)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "too_hard"
    assert not Puzzle.objects.exists()
    assert not Game.objects.exists()


def test_grading_an_entered_grid_is_budgeted_too(token_client, settings):
    puzzle = load("forum_hardest_1106")[0]
    needed = logic_solve(parse(puzzle)).passes
    # Four times this budget (what storing a puzzle may spend) is less than the grader needs.
    settings.SOLVER_LOGIC_BUDGET = needed // 4 - 1
    response = start(token_client, puzzle)
    assert response.status_code == 422
    error = response.json()["error"]
    assert (error["code"], error["engine"]) == ("too_hard", "grader")
    assert not Puzzle.objects.exists()


def test_entered_grids_share_the_analyse_rate(guest, puzzle4):
    for _ in range(rate_limit("solver_analyse")):
        guest.post("/api/v1/solver/analyse/", {"grid": "1234341221434321"}, format="json")
    refused = start(guest, UNIQUE)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert not Game.objects.exists()
    # Games on the bank's puzzles do not count against it.
    from_bank = guest.post(GAMES, {"puzzle": puzzle4.pk}, format="json")
    assert from_bank.status_code == 201
