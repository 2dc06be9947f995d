"""A player has one unfinished game of a puzzle at most: asking for that puzzle again gives
back the game they have, so a second game cannot be abandoned to show the solution of the
first, and a retried start makes no second game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from accounts.services import token_create
from play.models import Game
from tests.play.factories import FOUR, empty_cells, value_at
from tests.play.helpers import action, move, start

GAMES = "/api/v1/games/"


@pytest.mark.django_db
def test_asking_for_a_puzzle_you_are_playing_gives_back_that_game_as_it_is(token_client, puzzle4):
    first = start(token_client, puzzle4, mistake_limit=3)
    cell = empty_cells(puzzle4)[0]
    move(token_client, first["id"], cell, value_at(puzzle4, cell))
    paused = action(token_client, first["id"], "pause").json()

    again = token_client.post(GAMES, {"puzzle": puzzle4.pk, "mistake_limit": 9}, format="json")

    assert again.status_code == 200
    game = again.json()
    assert game["id"] == first["id"]
    assert (game["status"], game["version"], game["mistake_limit"]) == (
        "paused",
        paused["version"],
        3,
    )
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_a_second_game_cannot_be_abandoned_to_show_the_first_ones_solution(token_client, puzzle4):
    first = start(token_client, puzzle4)
    second = token_client.post(GAMES, {"puzzle": puzzle4.pk}, format="json")
    assert second.json()["id"] == first["id"]  # no second game to abandon

    abandoned = action(token_client, first["id"], "abandon").json()
    assert abandoned["solution"]  # the game is over: now it may be shown
    # Once it is over, the puzzle can be played again, in a game that does not rank.
    third = token_client.post(GAMES, {"puzzle": puzzle4.pk}, format="json")
    assert third.status_code == 201 and third.json()["id"] != first["id"]
    assert Game.objects.get(pk=first["id"]).ranked is True
    assert Game.objects.get(pk=third.json()["id"]).ranked is False


@pytest.mark.django_db
def test_other_players_each_start_a_game_of_their_own(token_client, puzzle4):
    mine = start(token_client, puzzle4)
    _, key = token_create(user=UserFactory())
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    theirs = start(other, puzzle4)
    assert theirs["id"] != mine["id"]


@pytest.mark.django_db
def test_the_lobby_opens_the_game_you_are_playing_and_says_so(client, user, puzzle4):
    client.force_login(user)
    first = client.post("/play/new/", {"puzzle": puzzle4.pk})
    again = client.post("/play/new/", {"puzzle": puzzle4.pk}, follow=True)
    assert again.redirect_chain[-1][0] == first["Location"]
    assert "You are already playing this puzzle" in again.content.decode()
    assert Game.objects.count() == 1


@pytest.fixture
def _latest_migrations_after():
    """Migrate every app forward again after a test that moved the schema back: going
    back to play 0001 also unapplies the apps that depend on play (ratings)."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_latest_migrations_after")
def test_the_migration_keeps_one_unfinished_game_per_player_and_puzzle():
    before, after = (
        ("play", "0001_initial"),
        ("play", "0002_one_unfinished_game_per_player_and_puzzle"),
    )
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    apps = executor.loader.project_state([before]).apps
    Puzzle, OldGame = apps.get_model("puzzles", "Puzzle"), apps.get_model("play", "Game")
    User = apps.get_model("auth", "User")
    puzzle = Puzzle.objects.create(
        size=4, box_rows=2, box_cols=2, givens=FOUR, solution="1234341221434321",
        difficulty="easy", score=10, clue_count=9, canonical_key="k" * 64, source="imported",
    )  # fmt: skip
    user = User.objects.create(username="twice")
    now = timezone.now()

    def game(minutes_ago: int, **fields):
        made = OldGame.objects.create(puzzle=puzzle, entries=FOUR, **fields)
        OldGame.objects.filter(pk=made.pk).update(updated=now - timedelta(minutes=minutes_ago))
        return made.pk

    oldest = game(30, user=user, ranked=True, running_since=now - timedelta(minutes=30))
    latest = game(5, user=user, ranked=False, status="paused")
    middle = game(10, user=user, ranked=False)
    done = game(40, user=user, ranked=False, status="completed", score=100)
    guest_old, guest_new = game(20, guest_key="g1"), game(1, guest_key="g1")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([after])
    # Read with the model as it was at ``after``: later migrations add columns.
    AfterGame = executor.loader.project_state([after]).apps.get_model("play", "Game")
    games = {g.pk: g for g in AfterGame.objects.all()}
    # Leave the schema as the other tests expect it.
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    # The one played last goes on, unranked now that the others show its solution.
    assert (games[latest].status, games[latest].ranked) == ("paused", False)
    assert games[guest_new].status == "in_progress"
    for pk in (oldest, middle, guest_old):
        assert games[pk].status == "abandoned"
        assert games[pk].finished is not None and games[pk].running_since is None
        assert games[pk].version == 2
    assert games[oldest].elapsed_ms >= 30 * 60 * 1000  # its running clock was stopped
    assert games[done].status == "completed" and games[done].score == 100
    # Back to the latest schema for the tests that follow.
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
