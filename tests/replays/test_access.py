"""Who may see a replay: its owner once the game is over, anyone with a shared link."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from play.models import Game, Status
from replays.models import ReplayShare
from replays.services import analysis_compute
from tests.play.factories import empty_cells, value_at
from tests.play.helpers import action, move, start

pytestmark = pytest.mark.django_db


def _finished(client, puzzle) -> dict:
    game = start(client, puzzle)
    cell = empty_cells(puzzle)[0]
    assert move(client, game["id"], cell, value_at(puzzle, cell)).status_code == 200
    assert action(client, game["id"], "abandon").status_code == 200
    return game


def _replay(client, game_id: int, query: str = ""):
    return client.get(f"/api/v1/games/{game_id}/replay/{query}")


def test_a_finished_game_replays_with_givens_solution_and_events(token_client, puzzle9):
    game = _finished(token_client, puzzle9)
    body = _replay(token_client, game["id"]).json()
    assert body["puzzle"]["givens"] == puzzle9.givens
    assert body["puzzle"]["solution"] == puzzle9.solution
    assert [e["kind"] for e in body["events"]] == ["value", "abandon"]
    assert body["analysis"] == {"status": "pending", "data": None}
    assert body["share"] == {"shared": False, "url": None, "show_username": False}


def test_the_analysis_shows_once_stored(token_client, puzzle9):
    game = _finished(token_client, puzzle9)
    analysis_compute(game_id=game["id"])
    body = _replay(token_client, game["id"]).json()
    assert body["analysis"]["status"] == "ready"
    assert body["analysis"]["data"]["summary"]["placements"] == 1


def test_an_unfinished_game_is_409_without_the_solution(token_client, puzzle9):
    game = start(token_client, puzzle9)
    response = _replay(token_client, game["id"])
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "game_not_finished"
    assert puzzle9.solution not in response.content.decode()
    share = token_client.post(f"/api/v1/games/{game['id']}/replay/share/", {}, format="json")
    assert share.status_code == 409 and puzzle9.solution not in share.content.decode()


def test_another_players_game_is_404(token_client, puzzle9):
    game = _finished(token_client, puzzle9)
    other = APIClient()
    other.force_authenticate(UserFactory())
    assert _replay(other, game["id"]).status_code == 404
    assert other.post(f"/api/v1/games/{game['id']}/replay/share/").status_code == 404
    assert APIClient().get(f"/api/v1/games/{game['id']}/replay/").status_code in (401, 403)


@pytest.mark.parametrize(
    ("query", "name"),
    [("?speed=2", "speed"), ("?position=-1", "position"), ("?position=x", "position")],
)
def test_a_bad_speed_or_position_is_400_naming_it(token_client, puzzle9, query, name):
    game = _finished(token_client, puzzle9)
    response = _replay(token_client, game["id"], query)
    assert response.status_code == 400
    assert name in response.json()["error"]["fields"]


def test_a_position_gives_the_board_after_that_event(token_client, puzzle9):
    game = _finished(token_client, puzzle9)
    body = _replay(token_client, game["id"], "?speed=16&position=0").json()
    assert body["speed"] == 16
    assert body["position"]["entries"] == puzzle9.givens
    seq = body["events"][0]["seq"]
    after = _replay(token_client, game["id"], f"?position={seq}").json()["position"]
    assert after["entries"] == Game.objects.get(pk=game["id"]).entries


def test_a_shared_replay_works_for_a_guest_until_unshared(token_client, user, puzzle9):
    game = _finished(token_client, puzzle9)
    url = f"/api/v1/games/{game['id']}/replay/share/"
    shared = token_client.post(url, {"show_username": False}, format="json").json()
    assert shared["shared"] is True and shared["url"].startswith("/r/")
    token = shared["url"].split("/")[2]
    # The link is the random token alone: no game id in it.
    assert shared["url"] == f"/r/{ReplayShare.objects.get(game_id=game['id']).token}/"
    assert len(token) >= 32
    guest = Client()
    page = guest.get(shared["url"])
    assert page.status_code == 200 and 'data-testid="replay-player"' not in page.content.decode()
    body = APIClient().get(f"/api/v1/replays/{token}/").json()
    assert body["player"] is None and body["game"]["id"] is None and "share" not in body
    assert body["puzzle"]["solution"] == puzzle9.solution
    # Showing the username keeps the link.
    again = token_client.post(url, {"show_username": True}, format="json").json()
    assert again["url"] == shared["url"]
    assert APIClient().get(f"/api/v1/replays/{token}/").json()["player"] == user.username
    shown = guest.get(shared["url"]).content.decode()
    assert f'data-testid="replay-player">{user.username}<' in shown
    assert token_client.delete(url).status_code == 204
    assert guest.get(shared["url"]).status_code == 404
    assert APIClient().get(f"/api/v1/replays/{token}/").status_code == 404
    assert not ReplayShare.objects.exists()


@pytest.mark.parametrize("token", ["x", "not-a-token!", "a" * 200, "%00", "..%2f"])
def test_a_malformed_share_token_is_404(db, token):
    assert Client().get(f"/r/{token}/").status_code == 404
    assert APIClient().get(f"/api/v1/replays/{token}/").status_code == 404


def test_a_share_body_with_unknown_fields_is_400(token_client, puzzle9):
    game = _finished(token_client, puzzle9)
    response = token_client.post(
        f"/api/v1/games/{game['id']}/replay/share/", {"public": True}, format="json"
    )
    assert response.status_code == 400 and "public" in response.json()["error"]["fields"]


def test_the_owner_page_ignores_unknown_query_values(puzzle9, user):
    client = Client()
    client.force_login(user)
    api = APIClient()
    api.force_authenticate(user)
    game = _finished(api, puzzle9)
    page = client.get(f"/play/{game['id']}/replay/?speed=banana&position=-3")
    assert page.status_code == 200
    assert 'id="replay-data"' in page.content.decode()


def test_the_replay_page_of_an_unfinished_game_opens_the_game(puzzle9, user):
    client = Client()
    client.force_login(user)
    api = APIClient()
    api.force_authenticate(user)
    game = start(api, puzzle9)
    response = client.get(f"/play/{game['id']}/replay/")
    assert response.status_code == 302 and response["Location"] == f"/play/{game['id']}/"
    assert (
        puzzle9.solution
        not in client.get(f"/play/{game['id']}/").content.decode().split("game-data")[0]
    )


def test_another_players_replay_page_is_404(puzzle9, user):
    api = APIClient()
    api.force_authenticate(user)
    game = _finished(api, puzzle9)
    client = Client()
    client.force_login(UserFactory())
    assert client.get(f"/play/{game['id']}/replay/").status_code == 404


def test_finished_games_link_to_their_replays(token_client, puzzle9, user):
    game = _finished(token_client, puzzle9)
    rows = token_client.get("/api/v1/games/?status=abandoned").json()["results"]
    assert rows[0]["replay_url"] == f"/play/{game['id']}/replay/"
    assert token_client.get("/api/v1/games/?status=in_progress").json()["results"] == []
    client = Client()
    client.force_login(user)
    assert 'href="/games/"' in client.get("/stats/").content.decode()
    history = client.get("/games/").content.decode()
    assert f"/play/{game['id']}/replay/" in history
    Game.objects.filter(pk=game["id"]).update(status=Status.COMPLETED)
    assert f"/play/{game['id']}/replay/" in client.get("/stats/").content.decode()


def test_a_guest_sees_their_own_replay(puzzle9):
    client = Client()
    client.get("/")  # the CSRF cookie a guest browser has
    api = APIClient()
    api.cookies = client.cookies
    csrf = client.cookies["csrftoken"].value
    api.credentials(HTTP_X_CSRFTOKEN=csrf)
    game = start(api, puzzle9)
    assert action(api, game["id"], "abandon").status_code == 200
    assert client.get(f"/play/{game['id']}/replay/").status_code == 200
    assert api.get(f"/api/v1/games/{game['id']}/replay/").status_code == 200
