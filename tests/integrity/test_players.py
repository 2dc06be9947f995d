"""The evidence across games, played through the API: scripts held, people not."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine

from accounts.factories import UserFactory
from bench import players as sim
from integrity.decisions import player_review_decide
from integrity.models import GameReview, PlayerReview, Verdict
from integrity.player_signals import MIN_GAMES
from integrity.players import player_held
from integrity.selectors import held_user_ids
from play.models import Game
from play.selectors import leaderboard, puzzle_leaderboard
from ratings.models import RatingChange
from tests.integrity.players import START, logical_order
from tests.integrity.test_review import client_for
from tests.play.factories import puzzle_create
from tests.play.helpers import action, move, start
from tests.solver.datasets import load

pytestmark = pytest.mark.django_db

HARD = load("qqwing_intermediate")


def play_engine_order(client, puzzle, *, hour: int, every_ms: int = 1200) -> int:
    """The script of the issue: every value in the logic engine's order, one every 1.2 s."""
    with time_machine.travel(START + timedelta(hours=hour), tick=False) as clock:
        game_id = start(client, puzzle)["id"]
        for cell in logical_order(puzzle.givens):
            clock.shift(timedelta(milliseconds=every_ms))
            answer = move(client, game_id, cell, int(puzzle.solution[cell]))
            assert answer.status_code == 200, answer.content
    return game_id


def play_events(client, puzzle, events, *, hour: int) -> int:
    """A simulated game (``bench.players.play``) played through the API on its own clock."""
    with time_machine.travel(START + timedelta(hours=hour), tick=False) as clock:
        game_id = start(client, puzzle)["id"]
        now = 0
        for event in events:
            clock.shift(timedelta(milliseconds=event.clock_ms - now))
            now = event.clock_ms
            kind = "note" if event.kind == "note" else "value"
            answer = move(client, game_id, event.cell, event.value, kind=kind)
            assert answer.status_code == 200, answer.content
    return game_id


def board_names(puzzle) -> list[str]:
    return [row["username"] for row in puzzle_leaderboard(puzzle_id=puzzle.pk)]


def hard_puzzle(i: int):
    return puzzle_create(HARD[i], difficulty="hard")


def test_an_engine_order_script_at_1_2_s_is_held_off_boards_and_ratings(user):
    client = client_for(user)
    games = [play_engine_order(client, hard_puzzle(i), hour=i) for i in range(MIN_GAMES + 1)]
    # No single game is flagged: each passes the per-game signals.
    assert not GameReview.objects.filter(game_id__in=games, flagged=True).exists()
    review = PlayerReview.objects.get(user=user)
    assert review.held and review.verdict == Verdict.FLAGGED
    assert review.game_id == games[MIN_GAMES - 1]
    assert any("engine's next cell" in reason for reason in review.reasons)
    assert review.signals["engine_share"] == 1.0
    assert player_held(user_id=user.pk)
    assert user.pk in set(held_user_ids().values_list("user_id", flat=True))
    # The games before the evidence was enough were rated; the held ones move nothing.
    rated = set(RatingChange.objects.filter(user=user).values_list("game_id", flat=True))
    assert rated == set(games[: MIN_GAMES - 1])
    assert board_names(hard_puzzle(0)) == []
    assert not leaderboard(size=9, difficulty="hard").filter(username=user.username).exists()


def test_staff_clearing_a_held_player_rates_the_held_games_once_in_order(user):
    client = client_for(user)
    games = [play_engine_order(client, hard_puzzle(i), hour=i) for i in range(MIN_GAMES + 1)]
    review = PlayerReview.objects.get(user=user, held=True)
    staff = UserFactory(is_staff=True)
    player_review_decide(review_id=review.pk, staff=staff, cleared=True)
    assert not player_held(user_id=user.pk)
    held = games[MIN_GAMES - 1 :]
    changes = list(RatingChange.objects.filter(game_id__in=held).order_by("id"))
    assert [c.game_id for c in changes] == held  # oldest first
    assert changes[0].player_after == changes[1].player_before  # one after the other
    review.refresh_from_db()
    assert review.verdict == Verdict.CLEARED and review.reviewed_by == staff
    assert review.released == len(held)
    player_review_decide(review_id=review.pk, staff=staff, cleared=True)
    assert RatingChange.objects.filter(game_id__in=held).count() == len(held)
    assert board_names(hard_puzzle(0)) == [user.username]
    # The evidence staff cleared is not judged again: the next game is rated at once.
    after = play_engine_order(client, hard_puzzle(MIN_GAMES + 1), hour=MIN_GAMES + 1)
    assert not player_held(user_id=user.pk)
    assert RatingChange.objects.filter(game_id=after).exists()


def test_a_confirmed_hold_keeps_the_player_off_and_a_given_up_game_unrated(user):
    client = client_for(user)
    for i in range(MIN_GAMES):
        play_engine_order(client, hard_puzzle(i), hour=i)
    review = PlayerReview.objects.get(user=user, held=True)
    player_review_decide(review_id=review.pk, staff=UserFactory(is_staff=True), cleared=False)
    review.refresh_from_db()
    assert review.verdict == Verdict.CONFIRMED and review.held
    puzzle = hard_puzzle(MIN_GAMES)
    game_id = start(client, puzzle)["id"]
    assert action(client, game_id, "abandon").status_code == 200
    assert Game.objects.get(pk=game_id).status == "abandoned"
    assert not RatingChange.objects.filter(game_id=game_id).exists()
    assert player_held(user_id=user.pk)


@pytest.mark.slow
def test_simulated_people_playing_through_the_api_are_not_held():
    rng = random.Random("api-people")
    for person in range(2):
        user = UserFactory()
        client = client_for(user)
        style = sim.human_style(rng)
        games = []
        for i in range(MIN_GAMES + 1):
            puzzle = puzzle_create(HARD[10 * person + i], difficulty="hard")
            p = next(q for q in sim.pool() if "".join(map(str, q.givens)) == _digits(puzzle))
            events, _ = sim.play(style, p, rng)
            games.append(play_events(client, puzzle, events, hour=i))
        assert not PlayerReview.objects.filter(user=user).exists(), style
        assert RatingChange.objects.filter(game_id__in=games).count() == len(games)
        assert board_names(puzzle) == [user.username]


def _digits(puzzle) -> str:
    return puzzle.givens.replace(".", "0")


def test_a_player_the_staff_exempted_is_not_held():
    from django.contrib.auth.models import Permission

    scripted = UserFactory()
    scripted.user_permissions.add(Permission.objects.get(codename="exempt_from_review"))
    client = client_for(scripted)
    for i in range(MIN_GAMES):
        play_engine_order(client, hard_puzzle(i), hour=i)
    assert not PlayerReview.objects.filter(user=scripted).exists()


def test_the_evidence_costs_two_queries_at_a_completion_and_one_once_held(user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from integrity.players import player_evaluate

    client = client_for(user)
    games = [play_engine_order(client, hard_puzzle(i), hour=i) for i in range(MIN_GAMES - 1)]
    game = Game.objects.select_related("user").get(pk=games[-1])
    with CaptureQueriesContext(connection) as captured:
        assert player_evaluate(game=game, reviewed=True) == ""
    # The latest player review, the window (an established player's standing is not
    # read: fewer than PROVISIONAL_GAMES judged games).
    assert len(captured.captured_queries) == 2
    play_engine_order(client, hard_puzzle(MIN_GAMES), hour=MIN_GAMES)
    with CaptureQueriesContext(connection) as captured:
        assert player_evaluate(game=game, reviewed=True) == "held"
    assert len(captured.captured_queries) == 1


def test_an_ordinary_move_makes_no_query_for_the_player_review(user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for(user)
    puzzle = hard_puzzle(0)
    game = start(client, puzzle)
    with CaptureQueriesContext(connection) as queries:
        move(client, game["id"], puzzle.givens.index("."), 1)
    assert not [q for q in queries.captured_queries if "integrity_playerreview" in q["sql"]]


def test_the_admin_lists_held_players_and_clears_them(user, admin_client):
    client = client_for(user)
    games = [play_engine_order(client, hard_puzzle(i), hour=i) for i in range(MIN_GAMES)]
    review = PlayerReview.objects.get(user=user, held=True)
    page = admin_client.get("/admin/integrity/playerreview/")
    assert page.status_code == 200
    assert user.username in page.content.decode() and "1.0" in page.content.decode()
    assert admin_client.get(f"/admin/integrity/playerreview/{review.pk}/change/").status_code == 200
    answer = admin_client.post(
        "/admin/integrity/playerreview/",
        {"action": "clear_players", "_selected_action": [review.pk]},
    )
    assert answer.status_code == 302
    review.refresh_from_db()
    assert review.verdict == Verdict.CLEARED and not review.held
    assert RatingChange.objects.filter(game_id=games[-1]).count() == 1


def test_a_flagged_game_cleared_while_its_player_is_held_waits_for_the_player(user):
    from integrity.decisions import review_decide

    client = client_for(user)
    for i in range(MIN_GAMES):
        play_engine_order(client, hard_puzzle(i), hour=i)
    bot_game = play_engine_order(client, hard_puzzle(MIN_GAMES), hour=MIN_GAMES, every_ms=50)
    game_review = GameReview.objects.get(game_id=bot_game)
    assert game_review.flagged
    staff = UserFactory(is_staff=True)
    review_decide(review_id=game_review.pk, staff=staff, cleared=True)
    assert not RatingChange.objects.filter(game_id=bot_game).exists()
    held = PlayerReview.objects.get(user=user, held=True)
    player_review_decide(review_id=held.pk, staff=staff, cleared=True)
    assert RatingChange.objects.filter(game_id=bot_game).count() == 1


def test_the_worker_rates_what_one_clearing_leaves(
    user, monkeypatch, django_capture_on_commit_callbacks
):
    from integrity import decisions, tasks

    client = client_for(user)
    games = [play_engine_order(client, hard_puzzle(i), hour=i) for i in range(MIN_GAMES + 1)]
    monkeypatch.setattr(decisions, "RELEASE_CHUNK", 1)
    sent = []
    monkeypatch.setattr(tasks.player_release, "delay", lambda user_id: sent.append(user_id))
    review = PlayerReview.objects.get(user=user, held=True)
    with django_capture_on_commit_callbacks(execute=True):
        player_review_decide(review_id=review.pk, staff=UserFactory(is_staff=True), cleared=True)
    assert sent == [user.pk]
    assert RatingChange.objects.filter(game_id=games[MIN_GAMES - 1]).exists()
    assert not RatingChange.objects.filter(game_id=games[MIN_GAMES]).exists()
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.player_release(user.pk) == 1
    assert RatingChange.objects.filter(game_id=games[MIN_GAMES]).count() == 1
    assert sent == [user.pk]  # nothing left: not sent again
    assert tasks.player_release(user.pk) == 0
