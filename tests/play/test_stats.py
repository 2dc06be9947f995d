"""Stats per size and level, streaks, leaderboards and the score formula."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine

from accounts.factories import UserFactory
from accounts.services import token_create
from play import lifecycle, moves
from play.lifecycle import Player
from play.scoring import game_score
from play.selectors import streaks
from tests.play.factories import FOUR_B, NINE, empty_cells, puzzle_create, value_at
from tests.play.helpers import think

pytestmark = pytest.mark.django_db


def finish(game, player, puzzle, clock, *, seconds: int, mistakes: int = 0):
    cells = empty_cells(puzzle)
    for _ in range(mistakes):
        wrong = 1 if value_at(puzzle, cells[0]) != 1 else 2
        moves.move_apply(
            game_id=game.pk,
            player=player,
            client_move_id=_id(),
            kind="value",
            cell=cells[0],
            value=wrong,
        )
    # At a person's pace: the time spread over the placements, to the millisecond, the page
    # on screen meanwhile (a heartbeat every 20 s keeps the whole stretch on the clock).
    gaps = [seconds * 1000 // len(cells)] * len(cells)
    gaps[-1] += seconds * 1000 - sum(gaps)
    for cell, gap in zip(cells, gaps, strict=True):
        think(clock, game_id=game.pk, player=player, seconds=gap // 1000)
        clock.shift(timedelta(milliseconds=gap % 1000))
        result = moves.move_apply(
            game_id=game.pk,
            player=player,
            client_move_id=_id(),
            kind="value",
            cell=cell,
            value=value_at(puzzle, cell),
        )
    assert result.completed
    return result.game


def _id():
    import uuid

    return uuid.uuid4()


def play_on(day: datetime, user, puzzle, *, seconds: int, mistakes: int = 0):
    with time_machine.travel(day, tick=False) as clock:
        player = Player(user=user)
        game, _ = lifecycle.game_start(player=player, puzzle_id=puzzle.pk)
        return finish(game, player, puzzle, clock, seconds=seconds, mistakes=mistakes)


def at(y: int, m: int, d: int, hour: int = 12) -> datetime:
    return datetime(y, m, d, hour, tzinfo=UTC)


def test_streaks_count_consecutive_days_and_survive_until_the_day_ends():
    days = {date(2026, 3, d) for d in (1, 2, 3, 7, 8)}
    assert streaks(days, date(2026, 3, 8)) == (2, 3)
    assert streaks(days, date(2026, 3, 9)) == (2, 3)  # today not played yet
    assert streaks(days, date(2026, 3, 10)) == (0, 3)
    assert streaks(set(), date(2026, 3, 10)) == (0, 0)


def test_stats_per_size_and_level_with_times_streaks_and_recent_solves(user):
    four = puzzle_create(FOUR_B, difficulty="easy")
    nine = puzzle_create(NINE, difficulty="medium")
    play_on(at(2026, 5, 1), user, four, seconds=60)
    play_on(at(2026, 5, 2), user, four, seconds=40, mistakes=1)
    play_on(at(2026, 5, 3), user, nine, seconds=300)
    with time_machine.travel(at(2026, 5, 3, 18), tick=False):
        lifecycle.game_start(player=Player(user=user), puzzle_id=nine.pk)  # unfinished
        client_key = token_create(user=user)[1]
        from rest_framework.test import APIClient

        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {client_key}")
        stats = client.get("/api/v1/me/stats/").json()
    assert stats["played"] == 4 and stats["completed"] == 3
    assert (stats["current_streak"], stats["longest_streak"]) == (3, 3)
    easy, medium = stats["groups"]
    assert (easy["size"], easy["difficulty"]) == (4, "easy")
    assert easy["played"] == 2 and easy["completed"] == 2
    assert easy["best_time_ms"] == 40_000 and easy["average_time_ms"] == 50_000
    assert (easy["current_streak"], easy["longest_streak"]) == (2, 2)  # alive until today ends
    assert [r["elapsed_ms"] for r in easy["recent"]] == [60_000, 40_000]
    assert medium["played"] == 2 and medium["completed"] == 1
    assert medium["best_time_ms"] == 300_000 and medium["current_streak"] == 1


def test_leaderboards_rank_best_scores_by_period_with_usernames_only(api_client):
    four = puzzle_create(FOUR_B, difficulty="easy")
    fast, slow, old = (
        UserFactory(username="fast"),
        UserFactory(username="slow"),
        UserFactory(username="old"),
    )
    play_on(at(2026, 6, 1), old, four, seconds=10)  # a Monday, the week before
    play_on(at(2026, 6, 10), slow, four, seconds=900)  # Wednesday
    play_on(at(2026, 6, 11), fast, four, seconds=30)  # Thursday
    with time_machine.travel(at(2026, 6, 11, 20), tick=False):

        def board(period: str) -> list[dict]:
            response = api_client.get(
                "/api/v1/leaderboards/", {"difficulty": "easy", "size": 4, "period": period}
            )
            assert response.status_code == 200
            return response.json()["results"]

        assert [r["username"] for r in board("day")] == ["fast"]
        assert [r["username"] for r in board("week")] == ["fast", "slow"]
        everyone = board("all")
        assert [r["username"] for r in everyone] == ["old", "fast", "slow"]
        assert [r["rank"] for r in everyone] == [1, 2, 3]
        assert set(everyone[0]) == {"rank", "username", "best_score", "best_time_ms", "completed"}
        page2 = api_client.get(
            "/api/v1/leaderboards/", {"difficulty": "easy", "size": 4, "page": 2, "page_size": 2}
        ).json()
        assert [(r["rank"], r["username"]) for r in page2["results"]] == [(3, "slow")]
        bad = api_client.get("/api/v1/leaderboards/", {"difficulty": "easy", "period": "year"})
        assert bad.status_code == 400 and "period" in bad.json()["error"]["fields"]
        missing = api_client.get("/api/v1/leaderboards/")
        assert missing.status_code == 400 and "difficulty" in missing.json()["error"]["fields"]

    per_puzzle = api_client.get(f"/api/v1/puzzles/{four.pk}/leaderboard/").json()["results"]
    assert [r["username"] for r in per_puzzle] == ["old", "fast", "slow"]
    assert api_client.get("/api/v1/puzzles/999999/leaderboard/").status_code == 404


def test_a_replay_of_a_puzzle_does_not_count_on_leaderboards(api_client, user):
    four = puzzle_create(FOUR_B, difficulty="easy")
    first = play_on(at(2026, 7, 1), user, four, seconds=600)
    replay = play_on(at(2026, 7, 2), user, four, seconds=5)
    assert first.ranked and not replay.ranked
    (row,) = api_client.get(f"/api/v1/puzzles/{four.pk}/leaderboard/").json()["results"]
    assert row["best_time_ms"] == 600_000 and row["best_score"] == first.score


def test_the_score_rewards_speed_and_charges_mistakes_hints_and_aids():
    par = game_score(difficulty="hard", size=9, elapsed_ms=1_200_000, mistakes=0, hint_stages=0)
    assert par == 3000
    assert game_score(difficulty="hard", size=9, elapsed_ms=1, mistakes=0, hint_stages=0) == 4500
    slow = game_score(difficulty="hard", size=9, elapsed_ms=10**9, mistakes=0, hint_stages=0)
    assert slow == 1500
    helped = game_score(difficulty="hard", size=9, elapsed_ms=1_200_000, mistakes=1, hint_stages=3)
    assert helped == 2250
    aided = game_score(
        difficulty="hard", size=9, elapsed_ms=1_200_000, mistakes=0, hint_stages=0, aids=1
    )
    assert aided == 2700
    floor = game_score(difficulty="hard", size=9, elapsed_ms=10**9, mistakes=50, hint_stages=0)
    assert floor == 300
    assert game_score(difficulty="easy", size=4, elapsed_ms=0, mistakes=99, hint_stages=9) >= 1
    assert game_score(
        difficulty="expert", size=9, elapsed_ms=600_000, mistakes=0, hint_stages=0
    ) > game_score(difficulty="easy", size=9, elapsed_ms=600_000, mistakes=0, hint_stages=0)
