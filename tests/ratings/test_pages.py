"""Ratings on the stats page, the leaderboards and the API."""

from __future__ import annotations

import pytest

from accounts.factories import UserFactory
from play.lifecycle import Player
from ratings.models import PlayerRating
from ratings.selectors import BOARD_MAX_DEVIATION, BOARD_MIN_GAMES
from tests.ratings.helpers import play_through

pytestmark = pytest.mark.django_db


def test_stats_page_shows_the_rating_and_its_chart(client, user, puzzle4, puzzle4b):
    play_through(Player(user=user), puzzle4)
    play_through(Player(user=user), puzzle4b)
    rating = PlayerRating.objects.get(user=user, size=4)
    client.force_login(user)
    page = client.get("/stats/").content.decode()
    assert f'data-testid="rating-value">{round(rating.rating)}<' in page
    assert 'data-testid="rating-chart"' in page
    chart = page[page.index('data-testid="rating-chart"') :]
    chart = chart[: chart.index("</svg>")]
    assert chart.count('class="dot"') == 3  # the start and two games


def test_me_stats_api_gives_the_rating_per_size_with_history(api_client, user, puzzle4):
    game = play_through(Player(user=user), puzzle4)
    api_client.force_authenticate(user)
    body = api_client.get("/api/v1/me/stats/").json()
    (rating,) = body["ratings"]
    stored = PlayerRating.objects.get(user=user, size=4)
    assert rating["size"] == 4 and rating["games"] == 1
    assert rating["rating"] == round(stored.rating) and rating["provisional"] is True
    assert rating["history"][0]["game"] == game.pk
    assert rating["start"] == 1500


def _rated(username: str, rating: float, deviation: float, games: int) -> None:
    PlayerRating.objects.create(
        user=UserFactory(username=username), size=9, rating=rating, deviation=deviation, games=games
    )


def test_the_rating_board_lists_only_established_ratings_best_first(api_client):
    _rated("steady", 1700, 80, BOARD_MIN_GAMES)
    _rated("star", 1900, 60, 40)
    _rated("newcomer", 2100, 300, 2)
    _rated("unsure", 2000, BOARD_MAX_DEVIATION + 1, 50)
    response = api_client.get("/api/v1/leaderboards/", {"board": "rating", "size": 9})
    assert response.status_code == 200
    rows = response.json()["results"]
    assert [(r["rank"], r["username"], r["rating"]) for r in rows] == [
        (1, "star", 1900),
        (2, "steady", 1700),
    ]
    assert "best_score" not in rows[0]


def test_the_score_board_still_needs_a_difficulty(api_client):
    response = api_client.get("/api/v1/leaderboards/", {"size": 9})
    assert response.status_code == 400
    assert "difficulty" in response.json()["error"]["fields"]


def test_the_rating_board_page(client):
    _rated("star", 1900, 60, 40)
    page = client.get("/leaderboards/", {"board": "rating", "size": 9}).content.decode()
    assert "star" in page and "1900" in page and "Deviation" in page


def test_the_lobby_offers_my_level_to_players_only(client, user):
    assert 'data-testid="start-mine"' not in client.get("/").content.decode()
    client.force_login(user)
    assert 'data-testid="start-mine"' in client.get("/").content.decode()


def test_the_lobby_button_starts_a_game_at_my_level(client, user, puzzle4):
    client.force_login(user)
    response = client.post("/play/new/", {"size": 4, "level": "mine"})
    assert response.status_code == 302
    game = user.games.get()
    assert response["Location"] == f"/play/{game.pk}/"
    assert game.puzzle_id == puzzle4.pk
