"""The review of completed games, played by scripted players through the API."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.factories import UserFactory
from integrity.decisions import review_decide
from integrity.models import GameReview, Verdict
from integrity.selectors import REPEAT_FLAGS, game_is_flagged
from play.models import Game
from play.selectors import leaderboard, puzzle_leaderboard
from tests.integrity.players import play_as_bot, play_as_person
from tests.play.factories import NINE, puzzle_create
from tests.play.helpers import move, start
from tests.solver.datasets import load

pytestmark = pytest.mark.django_db


def client_for(user):
    from rest_framework.test import APIClient

    from accounts.services import token_create

    _, key = token_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def guest_browser():
    from django.middleware.csrf import _get_new_csrf_string
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    token = _get_new_csrf_string()
    client.cookies["csrftoken"] = token
    client.credentials(HTTP_X_CSRFTOKEN=token)
    return client


def board_names(puzzle) -> list[str]:
    return [row["username"] for row in puzzle_leaderboard(puzzle_id=puzzle.pk)]


def test_a_bot_placing_every_value_at_50_ms_is_flagged_and_kept_off_the_boards(user):
    client = client_for(user)
    puzzle = puzzle_create(NINE)
    game_id, last = play_as_bot(client, puzzle)
    game = {"id": game_id}
    assert last["completed"] is True
    shown = client.get(f"/api/v1/games/{game['id']}/").json()
    assert shown["status"] == "completed" and shown["score"] is not None  # the player sees it
    review = GameReview.objects.get(game_id=game["id"])
    assert review.verdict == Verdict.FLAGGED and review.flagged
    assert review.signals["fastest_ms"][0] == 50
    assert review.reasons
    assert game_is_flagged(Game.objects.get(pk=game["id"]))
    assert user.username not in board_names(puzzle)
    assert not leaderboard(size=9, difficulty="easy").filter(username=user.username).exists()


def test_staff_clearing_a_flagged_game_puts_it_on_the_boards(user):
    client = client_for(user)
    puzzle = puzzle_create(NINE)
    game_id, _ = play_as_bot(client, puzzle)
    review = GameReview.objects.get(game_id=game_id)
    review_decide(review_id=review.pk, staff=UserFactory(is_staff=True), cleared=True)
    assert not game_is_flagged(Game.objects.get(pk=game_id))
    assert board_names(puzzle) == [user.username]


def test_a_flagged_game_moves_no_rating_until_staff_clear_it(user):
    from ratings.models import PlayerRating, RatingChange

    client = client_for(user)
    puzzle = puzzle_create(NINE)
    game_id, _ = play_as_bot(client, puzzle)
    assert not RatingChange.objects.filter(game_id=game_id).exists()
    assert not PlayerRating.objects.filter(user=user).exists()
    review = GameReview.objects.get(game_id=game_id)
    review_decide(review_id=review.pk, staff=UserFactory(is_staff=True), cleared=True)
    change = RatingChange.objects.get(game_id=game_id)
    assert change.player_after != change.player_before
    # A second verdict rates nothing twice.
    review_decide(review_id=review.pk, staff=UserFactory(is_staff=True), cleared=True)
    assert RatingChange.objects.filter(game_id=game_id).count() == 1


def test_a_confirmed_flag_never_moves_a_rating(user):
    from ratings.models import RatingChange

    client = client_for(user)
    game_id, _ = play_as_bot(client, puzzle_create(NINE))
    review = GameReview.objects.get(game_id=game_id)
    review_decide(review_id=review.pk, staff=UserFactory(is_staff=True), cleared=False)
    assert not RatingChange.objects.filter(game_id=game_id).exists()


def test_the_review_of_a_plausible_completion_costs_two_queries(user, monkeypatch):
    """The move log's read and the review's insert: no permission lookup for a game that
    is not flagged."""
    from integrity import services

    client = client_for(user)
    game_id, _ = play_as_person(client, puzzle_create(NINE))
    game = Game.objects.select_related("puzzle").get(pk=game_id)
    GameReview.objects.filter(game=game).delete()
    with CaptureQueriesContext(connection) as captured:
        review = services.game_review(game=game)
    assert review is not None and not review.flagged
    queries = [q for q in captured.captured_queries if "SAVEPOINT" not in q["sql"].upper()]
    assert len(queries) == 2, [q["sql"][:80] for q in queries]


def test_a_human_like_game_with_pauses_a_mistake_and_notes_is_not_flagged(user):
    client = client_for(user)
    puzzle = puzzle_create(NINE)
    game_id, last = play_as_person(client, puzzle)
    game = {"id": game_id}
    assert last["completed"] is True
    review = GameReview.objects.get(game_id=game["id"])
    assert review.verdict == Verdict.PLAUSIBLE, review.reasons
    assert Game.objects.get(pk=game["id"]).mistakes == 1
    assert board_names(puzzle) == [user.username]


def test_a_player_flagged_repeatedly_is_kept_off_the_boards_until_reviewed(user):
    client = client_for(user)
    flagged_reviews = []
    for givens in load("qqwing_simple")[:REPEAT_FLAGS]:
        puzzle = puzzle_create(givens)
        game_id, _ = play_as_bot(client, puzzle)
        flagged_reviews.append(GameReview.objects.get(game_id=game_id))
    honest = puzzle_create(NINE)
    game_id, _ = play_as_person(client, honest)
    assert GameReview.objects.get(game_id=game_id).verdict == Verdict.PLAUSIBLE
    assert board_names(honest) == []  # even the plausible game stays off
    review_decide(review_id=flagged_reviews[0].pk, staff=UserFactory(is_staff=True), cleared=True)
    assert board_names(honest) == [user.username]


def test_a_player_staff_marked_as_scripted_is_not_reviewed():
    scripted = UserFactory()
    scripted.user_permissions.add(Permission.objects.get(codename="exempt_from_review"))
    client = client_for(scripted)
    puzzle = puzzle_create(NINE)
    game_id, _ = play_as_bot(client, puzzle)
    assert not GameReview.objects.filter(game_id=game_id).exists()


def test_guest_and_unranked_games_are_not_reviewed(user):
    client = client_for(user)
    puzzle = puzzle_create(NINE)
    first, _ = play_as_person(client, puzzle)
    again, _ = play_as_bot(client, puzzle)  # a replay is unranked
    assert not Game.objects.get(pk=again).ranked
    assert not GameReview.objects.filter(game_id=again).exists()
    assert GameReview.objects.filter(game_id=first).exists()
    guest, _ = play_as_bot(guest_browser(), puzzle)
    assert Game.objects.get(pk=guest).user is None
    assert not GameReview.objects.filter(game_id=guest).exists()


def test_an_ordinary_move_makes_no_query_for_the_review(user):
    client = client_for(user)
    puzzle = puzzle_create(NINE)
    game = start(client, puzzle)
    cell = puzzle.givens.index(".")
    with CaptureQueriesContext(connection) as queries:
        move(client, game["id"], cell, 1)
    assert not [q for q in queries.captured_queries if "integrity_" in q["sql"]]


def test_the_admin_review_list_shows_the_signals_and_links_to_the_moves(user, admin_client):
    client = client_for(user)
    puzzle = puzzle_create(NINE)
    game_id, _ = play_as_bot(client, puzzle)
    review = GameReview.objects.get(game_id=game_id)
    page = admin_client.get("/admin/integrity/gamereview/").content.decode()
    assert user.username in page and "50, 50, 50" in page
    moves_url = f"/admin/integrity/gamereview/{review.pk}/moves/"
    assert moves_url in page
    moves = admin_client.get(moves_url)
    assert moves.status_code == 200
    assert moves.content.decode().count("<tr><td>") == NINE.count(".")


def test_a_bot_at_the_browser_tests_pace_is_flagged_unless_declared_scripted(user):
    # The browser tests type the solution at about 140 ms a placement (measured): play no
    # threshold may let through, so their player is declared scripted instead.
    client = client_for(user)
    puzzle = puzzle_create(NINE)
    game_id, _ = play_as_bot(client, puzzle, every_ms=140)
    assert GameReview.objects.get(game_id=game_id).flagged


def test_a_game_solved_offline_and_sent_in_one_burst_is_flagged_not_ranked_by_its_short_clock(
    user,
):
    """Offline, the server hears nothing: the silence counts one clock gap at most, and the
    moves kept by the page arrive together. A player who solves most of a puzzle in
    airplane mode gets a short clock, so the burst must not reach the boards unreviewed."""
    from datetime import timedelta

    import time_machine
    from django.conf import settings

    from tests.integrity.players import START, logical_order
    from tests.play.factories import value_at

    client = client_for(user)
    puzzle = puzzle_create(NINE)
    order = logical_order(puzzle.givens)
    with time_machine.travel(START, tick=False) as clock:
        game_id = start(client, puzzle)["id"]
        for cell in order[:10]:  # online, at a person's pace
            clock.shift(timedelta(seconds=4))
            move(client, game_id, cell, value_at(puzzle, cell))
        clock.shift(timedelta(minutes=25))  # the rest solved with no network
        for cell in order[10:]:  # ... and sent as the network returns
            clock.shift(timedelta(milliseconds=30))
            last = move(client, game_id, cell, value_at(puzzle, cell)).json()
    assert last["completed"] is True
    gap_ms = settings.GAME_CLOCK_GAP_SECONDS * 1000
    burst_ms = 30 * (len(order[10:]) - 1)  # the first one's 30 ms are in the capped silence
    assert Game.objects.get(pk=game_id).elapsed_ms == 40_000 + gap_ms + burst_ms
    review = GameReview.objects.get(game_id=game_id)
    assert review.verdict == Verdict.FLAGGED
    assert any("under 250 ms" in reason for reason in review.reasons)
    assert user.username not in board_names(puzzle)
