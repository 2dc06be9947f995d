"""A whole game over the API, from a fresh token to the score and the stats."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from play.scoring import game_score
from tests.play.factories import empty_cells, value_at, wrong_value_at
from tests.play.helpers import action, move, start

pytestmark = pytest.mark.django_db


def test_a_whole_game_from_a_fresh_token_to_the_score_and_stats(puzzle4):
    t0 = timezone.now().replace(microsecond=0)
    with time_machine.travel(t0, tick=False) as clock:
        anonymous = APIClient()
        registered = anonymous.post(
            "/api/v1/auth/register/",
            {"username": "solver", "password": "tiles-and-lanterns-42"},
            format="json",
        )
        assert registered.status_code == 201
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {registered.json()['token']}")

        game = start(client, puzzle4)
        gid = game["id"]
        assert game["status"] == "in_progress"
        assert game["entries"] == puzzle4.givens
        assert game["solution"] is None
        assert game["version"] == 1
        cells = empty_cells(puzzle4)
        first, second = cells[0], cells[1]

        # A note, then a mistake, which stays on the board marked wrong.
        clock.shift(timedelta(seconds=10))
        noted = move(client, gid, second, value_at(puzzle4, second), kind="note").json()
        assert noted["correct"] is None
        assert noted["game"]["notes"] == {str(second): [value_at(puzzle4, second)]}
        wrong = move(client, gid, first, wrong_value_at(puzzle4, first)).json()
        assert wrong["correct"] is False
        assert wrong["game"]["mistakes"] == 1
        assert wrong["game"]["entries"][first] == str(wrong_value_at(puzzle4, first))

        # Undo takes the wrong value back; the mistake stays counted.
        undone = action(client, gid, "undo").json()
        assert undone["entries"][first] == "."
        assert undone["mistakes"] == 1
        assert undone["can_redo"] is True

        # An hour away while paused costs nothing.
        clock.shift(timedelta(seconds=20))
        paused = action(client, gid, "pause").json()
        assert paused["status"] == "paused" and paused["entries"] is None
        assert paused["elapsed_ms"] == 30_000
        clock.shift(timedelta(hours=1))
        resumed = action(client, gid, "resume").json()
        assert resumed["elapsed_ms"] == 30_000

        # A hint in two stages (where to look, then the technique), then applied.
        clock.shift(timedelta(seconds=10))
        look = action(client, gid, "hint", level=1).json()
        assert look["hint"]["message"].startswith("Look at")
        assert "technique" not in look["hint"]
        why = action(client, gid, "hint", level=2).json()
        assert why["hint"]["technique"] and why["hint"]["message"]
        applied = action(client, gid, "hint", level=3).json()
        assert applied["hint"]["placements"]
        assert applied["game"]["hints_used"] == 3
        placed = applied["hint"]["placements"][0]
        assert applied["game"]["entries"][placed["cell"]] == str(placed["value"])

        # The remaining cells, correctly, at a person's pace (20 s in all).
        board = applied["game"]["entries"]
        remaining = [cell for cell in cells if board[cell] == "."]
        last = None
        for i, cell in enumerate(remaining, 1):
            clock.shift(
                timedelta(
                    milliseconds=20_000 * i // len(remaining) - 20_000 * (i - 1) // len(remaining)
                )
            )
            last = move(client, gid, cell, value_at(puzzle4, cell)).json()
            assert last["correct"] is True
        assert last is not None and last["completed"] is True
        done = last["game"]
        assert done["status"] == "completed"
        assert done["entries"] == puzzle4.solution == done["solution"]
        assert done["elapsed_ms"] == 60_000
        expected = game_score(
            difficulty="easy", size=4, elapsed_ms=60_000, mistakes=1, hint_stages=3
        )
        assert done["score"] == expected
        assert done["clock_running"] is False
        # A new account is provisional: its games wait for the evidence across games
        # (docs/integrity.md), and say so.
        assert done["counts"] is False
        assert done["unranked_reason"]["code"] == "provisional"

        # The finished game refuses moves and keeps its score.
        refused = move(client, gid, first, 1)
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "game_finished"

        stats = client.get("/api/v1/me/stats/").json()
        assert stats["standing"] == {"provisional": True, "waiting_games": 1, "needed_games": 5}
        assert stats["played"] == 1 and stats["completed"] == 1
        assert stats["current_streak"] == 1 and stats["longest_streak"] == 1
        (group,) = stats["groups"]
        assert (group["size"], group["difficulty"]) == (4, "easy")
        assert group["best_time_ms"] == 60_000 == group["average_time_ms"]
        assert group["best_score"] == expected
        assert [r["elapsed_ms"] for r in group["recent"]] == [60_000]

        board = client.get("/api/v1/leaderboards/", {"difficulty": "easy", "size": 4}).json()
        assert board["results"] == []  # provisional

        web = Client()
        web.force_login(get_user_model().objects.get(username="solver"))
        page = web.get("/stats/")
        assert page.status_code == 200
        assert b'data-testid="provisional"' in page.content
