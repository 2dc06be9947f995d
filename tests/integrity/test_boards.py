"""Every board asks one question (integrity.selectors): who may be shown.

Paths covered, through the API: the rating board leaves out a held player, one flagged
repeatedly and a provisional one, as the level and puzzle boards do; race results mark a
racer flagged as faster than people play, or held, and rank them after the others (never
first), and rank a provisional racer marked.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts.factories import UserFactory
from integrity.models import GameReview, PlayerReview, PlayerStanding, Verdict
from integrity.selectors import REPEAT_FLAGS
from play.models import Game
from ratings.models import PlayerRating
from tests.integrity.players import play_as_bot
from tests.play.factories import FOUR, FOUR_B, empty_cells, puzzle_create, value_at
from tests.races.helpers import after_start, move, player, race_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def puzzle4(db: None):
    return puzzle_create(FOUR, difficulty="easy")


def _rated(user, rating: float) -> None:
    PlayerRating.objects.create(user=user, size=9, rating=rating, deviation=60, games=30)


def _hold(user) -> None:
    game = Game.objects.filter(user=user).first()
    PlayerReview.objects.create(
        user=user,
        verdict=Verdict.FLAGGED,
        held=True,
        last_game_review_id=0,
        game=game,
        held_since=timezone.now(),
    )


def _rating_board(client) -> list[str]:
    response = client.get("/api/v1/leaderboards/", {"board": "rating", "size": 9})
    assert response.status_code == 200, response.content
    return [row["username"] for row in response.json()["results"]]


def test_the_rating_board_leaves_out_a_held_player(api_client):
    held, honest = player().user, player().user
    _rated(held, 2300)
    _rated(honest, 1700)
    assert _rating_board(api_client) == [held.username, honest.username]
    _hold(held)
    assert _rating_board(api_client) == [honest.username]


def test_the_rating_board_leaves_out_a_player_flagged_repeatedly(api_client):
    flagged = player(exempt=False)
    _rated(flagged.user, 2300)
    for givens in (FOUR, FOUR_B)[:REPEAT_FLAGS]:
        play_as_bot(flagged, puzzle_create(givens))
    assert GameReview.objects.filter(user=flagged.user, flagged=True).count() == REPEAT_FLAGS
    assert _rating_board(api_client) == []


def _solve(client, game_id: int, puzzle) -> None:
    for cell in empty_cells(puzzle):
        assert move(client, game_id, cell, value_at(puzzle, cell)).status_code == 200


def _results(code: str) -> list[dict]:
    body = player().get(f"/api/v1/races/{code}/results/")
    assert body.status_code == 200, body.content
    return body.json()["race"]["racers"]


def test_race_results_mark_a_racer_faster_than_people_and_rank_them_after(puzzle4):
    bot, person = player(exempt=False), player()
    code = race_create(person)["race"]["code"]
    bot.post(f"/api/v1/races/{code}/join/")
    person.post(f"/api/v1/races/{code}/start/")
    with after_start(code, seconds=1):
        games = {c: c.get(f"/api/v1/races/{code}/").json()["you"]["game"] for c in (bot, person)}
        _solve(bot, games[bot], puzzle4)  # every cell at once: flagged
    assert Game.objects.get(pk=games[bot]).standing == "flagged"
    with after_start(code, seconds=40):
        _solve(person, games[person], puzzle4)
    racers = _results(code)
    assert [(r["name"], r["place"], r["mark"]) for r in racers] == [
        (person.user.username, 1, None),
        (bot.user.username, None, "flagged"),
    ]


def test_race_results_mark_a_held_racer(puzzle4):
    held, other = player(), player()
    code = race_create(other)["race"]["code"]
    held.post(f"/api/v1/races/{code}/join/")
    other.post(f"/api/v1/races/{code}/start/")
    with after_start(code, seconds=1):
        games = {c: c.get(f"/api/v1/races/{code}/").json()["you"]["game"] for c in (held, other)}
        _hold(held.user)
        _solve(held, games[held], puzzle4)
        _solve(other, games[other], puzzle4)
    by_name = {r["name"]: r for r in _results(code)}
    assert by_name[held.user.username]["mark"] == "held"
    assert by_name[held.user.username]["place"] is None
    assert by_name[other.user.username]["place"] == 1


def test_the_rating_board_leaves_out_a_provisional_player(api_client):
    new, established = UserFactory(established=False), player().user
    _rated(new, 2300)
    _rated(established, 1700)
    assert _rating_board(api_client) == [established.username]


def test_race_results_rank_a_provisional_racer_marked(puzzle4):
    new, other = player(exempt=False), player()
    PlayerStanding.objects.filter(user=new.user).delete()
    code = race_create(other)["race"]["code"]
    new.post(f"/api/v1/races/{code}/join/")
    other.post(f"/api/v1/races/{code}/start/")
    with after_start(code, seconds=1):
        games = {c: c.get(f"/api/v1/races/{code}/").json()["you"]["game"] for c in (new, other)}
    for i, cell in enumerate(empty_cells(puzzle4)):  # a person's pace: not flagged
        with after_start(code, seconds=3 + 3 * i + i % 3):
            assert move(new, games[new], cell, value_at(puzzle4, cell)).status_code == 200
    with after_start(code, seconds=60):
        _solve(other, games[other], puzzle4)
    assert Game.objects.get(pk=games[new]).standing == "provisional"
    by_name = {r["name"]: r for r in _results(code)}
    assert (by_name[new.user.username]["place"], by_name[new.user.username]["mark"]) == (
        1,
        "provisional",
    )


def test_the_admin_lists_established_players(admin_client):
    user = player().user
    page = admin_client.get("/admin/integrity/playerstanding/")
    assert page.status_code == 200 and user.username.encode() in page.content
