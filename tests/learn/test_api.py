"""The techniques API, the lesson pages and practice games."""

from __future__ import annotations

import pytest
from django.utils import timezone

from play.models import Game, Status
from puzzles import practice as puzzles_practice
from puzzles.models import PuzzlePack, PuzzleTechnique
from solver.logic.techniques import ORDER

pytestmark = pytest.mark.django_db


def test_the_list_names_every_technique_with_its_level_and_lesson(api_client):
    answer = api_client.get("/api/v1/techniques/")
    assert answer.status_code == 200
    body = answer.json()
    assert [t["slug"] for t in body if t["variant"] == "classic"] == [t.slug for t in ORDER]
    x_wing = next(t for t in body if t["slug"] == "x_wing")
    assert x_wing["level"] == "medium"
    assert x_wing["sizes"] == [9]
    assert x_wing["lesson_url"] == "/learn/x_wing/"
    assert "rectangle" in x_wing["explanation"]
    pointing = next(t for t in body if t["slug"] == "pointing")
    assert pointing["sizes"] == [9, 6]


def test_the_detail_has_an_example_and_the_banks_frequency(api_client, practice_puzzle):
    practice_puzzle("x_wing")
    answer = api_client.get("/api/v1/techniques/x_wing/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["example"]["step"]["technique"] == "x_wing"
    assert body["example"]["step"]["eliminations"]
    assert {"size": 9, "level": "medium", "puzzles": 1, "using": 1, "share": 1.0} in body[
        "frequency"
    ]


def test_an_unknown_slug_is_a_400_naming_it(api_client):
    answer = api_client.get("/api/v1/techniques/y_wing_deluxe/")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "unknown_technique"
    assert "y_wing_deluxe" in error["message"]


def test_the_lesson_pages_render_and_an_unknown_one_is_a_404_naming_it(client):
    index = client.get("/learn/")
    assert index.status_code == 200
    assert b"X-Wing" in index.content and b"Expert" in index.content
    lesson = client.get("/learn/x_wing/")
    assert lesson.status_code == 200
    assert b'id="lesson-data"' in lesson.content
    missing = client.get("/learn/y_wing_deluxe/")
    assert missing.status_code == 404
    assert b"y_wing_deluxe" in missing.content


def test_a_practice_game_is_an_unplayed_puzzle_that_needs_the_technique(
    token_client, user, practice_puzzle
):
    first = practice_puzzle("x_wing", seed="a")
    second = practice_puzzle("x_wing", seed="b")
    practice_puzzle("xy_wing", seed="c")
    Game.objects.create(user=user, puzzle=first, entries=first.givens, status=Status.ABANDONED)
    answer = token_client.post("/api/v1/games/", {"technique": "x_wing", "size": 9}, format="json")
    assert answer.status_code == 201, answer.json()
    game = Game.objects.get(pk=answer.json()["id"])
    assert game.puzzle_id == second.pk
    assert game.practice_technique == "x_wing"


def test_todays_daily_is_never_a_practice_game(token_client, practice_puzzle):
    from django.utils import timezone

    from puzzles.models import DailyPuzzle

    daily = practice_puzzle("x_wing", seed="a")
    other = practice_puzzle("x_wing", seed="b")
    DailyPuzzle.objects.create(date=timezone.localdate(), size=9, puzzle=daily)
    answer = token_client.post("/api/v1/games/", {"technique": "x_wing", "size": 9}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["puzzle"]["id"] == other.pk


def needs(puzzle, slug: str) -> bool:
    """Whether the puzzle's logic solution uses ``slug`` and nothing above its level."""
    tech = next(t for t in ORDER if t.slug == slug)
    return slug in puzzle.techniques and puzzle.difficulty == tech.level


def test_an_empty_stock_still_answers_with_a_puzzle_within_the_budget(
    token_client, no_enqueue, settings
):
    settings.PRACTICE_MAKE_SECONDS = 0.8
    assert not PuzzleTechnique.objects.filter(technique="x_wing").exists()
    answer = token_client.post("/api/v1/games/", {"technique": "x_wing", "size": 9}, format="json")
    assert answer.status_code == 201, answer.json()
    game = Game.objects.select_related("puzzle").get(pk=answer.json()["id"])
    assert game.practice_technique == "x_wing"
    assert needs(game.puzzle, "x_wing")
    pack = PuzzlePack.objects.get(technique="x_wing")  # the stock is topped up behind it
    assert (pack.size, pack.difficulty) == (9, "medium")


def test_a_practice_request_the_maker_cannot_meet_falls_back_to_the_lessons_example(
    token_client, no_enqueue, settings
):
    settings.PRACTICE_MAKE_SECONDS = 0.0  # one attempt, and that one fails below
    from learn import services

    first = token_client.post("/api/v1/games/", {"technique": "swordfish"}, format="json")
    assert first.status_code == 201, first.json()
    game = Game.objects.select_related("puzzle").get(pk=first.json()["id"])
    assert needs(game.puzzle, "swordfish")
    assert PuzzlePack.objects.filter(technique="swordfish").count() == 1
    again = token_client.post("/api/v1/games/", {"technique": "swordfish"}, format="json")
    assert again.status_code in (200, 201)
    assert PuzzlePack.objects.filter(technique="swordfish").count() == 1  # one on its way
    assert services.practice_example_puzzle(technique="swordfish", size=6) is None


def test_the_lessons_example_is_the_last_resort_when_nothing_is_made(
    token_client, no_enqueue, monkeypatch
):
    from learn import services

    monkeypatch.setattr(services, "practice_puzzle_make", lambda **kw: None)
    answer = token_client.post("/api/v1/games/", {"technique": "jellyfish"}, format="json")
    assert answer.status_code == 201, answer.json()
    game = Game.objects.select_related("puzzle").get(pk=answer.json()["id"])
    example = services.example_of("jellyfish")
    assert game.puzzle.givens.replace("0", ".") == example["givens"].replace("0", ".")
    assert needs(game.puzzle, "jellyfish")


def test_a_player_who_played_the_whole_stock_replays_one_rather_than_wait(
    token_client, user, practice_puzzle, no_enqueue, monkeypatch
):
    from learn import services

    monkeypatch.setattr(services, "practice_puzzle_make", lambda **kw: None)
    only = practice_puzzle("x_wing", seed="only")
    Game.objects.create(user=user, puzzle=only, entries=only.solution, status=Status.COMPLETED)
    answer = token_client.post("/api/v1/games/", {"technique": "x_wing"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert Game.objects.get(pk=answer.json()["id"]).puzzle_id == only.pk


def test_no_practice_puzzle_is_a_404_only_when_even_the_fallbacks_have_none(
    token_client, no_enqueue, monkeypatch
):
    from learn import services

    monkeypatch.setattr(services, "practice_puzzle_make", lambda **kw: None)
    answer = token_client.post(
        "/api/v1/games/", {"technique": "hidden_single", "size": 6}, format="json"
    )
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "no_practice_puzzle"
    assert "Hidden Single" in answer.json()["error"]["message"]


@pytest.mark.parametrize(
    ("body", "code", "says"),
    [
        ({"technique": "y_wing_deluxe"}, "unknown_technique", "y_wing_deluxe"),
        ({"technique": "x_wing", "size": 6}, "technique_not_on_size", "not practised on 6x6"),
    ],
)
def test_a_bad_practice_request_is_a_400_saying_why(token_client, body, code, says):
    answer = token_client.post("/api/v1/games/", body, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == code
    assert says in error["message"]


def test_the_second_hint_stage_links_to_the_lesson(token_client, practice_puzzle):
    practice_puzzle("pointing", seed="hint")
    started = token_client.post("/api/v1/games/", {"technique": "pointing"}, format="json")
    gid = started.json()["id"]
    one = token_client.post(f"/api/v1/games/{gid}/hint/", {"level": 1}, format="json").json()
    assert "lesson_url" not in one["hint"]
    two = token_client.post(f"/api/v1/games/{gid}/hint/", {"level": 2}, format="json").json()
    assert two["hint"]["lesson_url"] == f"/learn/{two['hint']['technique']}/"


def test_progress_counts_practice_solved_and_solved_without_a_hint(
    token_client, user, practice_puzzle
):
    puzzles = [practice_puzzle("x_wing", seed=s) for s in ("p1", "p2")]
    Game.objects.create(
        user=user,
        puzzle=puzzles[0],
        entries=puzzles[0].solution,
        status=Status.COMPLETED,
        practice_technique="x_wing",
        finished=timezone.now(),
        hints_used=0,
    )
    Game.objects.create(
        user=user,
        puzzle=puzzles[1],
        entries=puzzles[1].solution,
        status=Status.COMPLETED,
        practice_technique="x_wing",
        finished=timezone.now(),
        hints_used=2,
    )
    stats = token_client.get("/api/v1/me/stats/").json()
    assert stats["practice"] == [{"technique": "x_wing", "solved": 2, "solved_without_hint": 1}]


def test_the_learn_page_shows_the_players_progress(client, user, practice_puzzle):
    puzzle = practice_puzzle("x_wing", seed="page")
    Game.objects.create(
        user=user,
        puzzle=puzzle,
        entries=puzzle.solution,
        status=Status.COMPLETED,
        practice_technique="x_wing",
        finished=timezone.now(),
        hints_used=0,
    )
    client.force_login(user)
    page = client.get("/learn/").content.decode()
    assert 'data-testid="progress-x_wing"' in page
    assert "Practice solved: 1" in page


def test_a_technique_the_packs_cannot_reach_queues_no_pack_but_is_answered(
    token_client, no_enqueue, monkeypatch
):
    monkeypatch.setattr(puzzles_practice, "generator_reaches", lambda slug: False)
    answer = token_client.post("/api/v1/games/", {"technique": "unique_rectangle_5"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert not PuzzlePack.objects.exists()


def test_a_practice_game_from_the_lesson_page_opens_the_game(client, practice_puzzle):
    puzzle = practice_puzzle("x_wing", seed="form")
    answer = client.post("/learn/x_wing/practise/", {"size": 9})
    assert answer.status_code == 302
    game = Game.objects.get()
    assert answer["Location"] == f"/play/{game.pk}/"
    assert (game.puzzle_id, game.practice_technique) == (puzzle.pk, "x_wing")


def test_practise_on_the_lesson_page_opens_a_game_with_an_empty_stock(client, no_enqueue):
    answer = client.post("/learn/x_wing/practise/", {"size": 9})
    assert answer.status_code == 302
    game = Game.objects.get()
    assert answer["Location"] == f"/play/{game.pk}/"
    assert game.practice_technique == "x_wing"


def test_a_practice_games_hint_leads_to_its_technique_when_the_board_has_it(
    token_client, no_enqueue
):
    from rest_framework.test import APIClient

    from accounts.factories import UserFactory
    from accounts.services import token_create
    from learn.examples import example_of
    from learn.services import practice_example_puzzle

    example = example_of("x_wing")
    puzzle_id = practice_example_puzzle(technique="x_wing", size=9)
    started = token_client.post("/api/v1/games/", {"technique": "x_wing"}, format="json").json()
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=UserFactory())[1]}")
    plain = other.post("/api/v1/games/", {"puzzle": puzzle_id}, format="json").json()
    assert started["puzzle"]["id"] == plain["puzzle"]["id"] == puzzle_id
    # Both at the lesson's position: one step before the X-Wing, and other steps too.
    Game.objects.filter(pk__in=[started["id"], plain["id"]]).update(
        entries=example["values"].replace("0", ".")
    )
    hints = {}
    for gid, client in ((started["id"], token_client), (plain["id"], other)):
        answer = client.post(f"/api/v1/games/{gid}/hint/", {"level": 2}, format="json")
        assert answer.status_code == 200, answer.json()
        hints[gid] = answer.json()["hint"]["technique"]
    assert hints[started["id"]] == "x_wing"
    assert hints[plain["id"]] != "x_wing"  # the engine's own order starts elsewhere


def test_past_the_solver_rate_a_practice_request_is_answered_without_making_one(
    token_client, no_enqueue, monkeypatch
):
    from learn import services
    from solving.api.throttles import AnalyseThrottle

    made: list[str] = []
    monkeypatch.setattr(services, "practice_puzzle_make", lambda **kw: made.append(kw) or None)
    monkeypatch.setattr(AnalyseThrottle, "allow_request", lambda self, request, view: False)
    answer = token_client.post("/api/v1/games/", {"technique": "x_wing"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert made == []
    game = Game.objects.select_related("puzzle").get(pk=answer.json()["id"])
    assert game.puzzle_id == services.practice_example_puzzle(technique="x_wing", size=9)


def test_within_the_solver_rate_a_practice_request_makes_one(token_client, no_enqueue, monkeypatch):
    from learn import services

    made: list[dict] = []
    monkeypatch.setattr(services, "practice_puzzle_make", lambda **kw: made.append(kw) or None)
    answer = token_client.post("/api/v1/games/", {"technique": "x_wing"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert made == [{"technique": "x_wing", "size": 9}]


def test_a_player_who_played_every_one_replays_the_one_played_longest_ago(
    token_client, user, practice_puzzle, no_enqueue, monkeypatch
):
    from datetime import timedelta

    from learn import services

    monkeypatch.setattr(services, "practice_puzzle_make", lambda **kw: None)
    first, second = practice_puzzle("x_wing", seed="p1"), practice_puzzle("x_wing", seed="p2")
    now = timezone.now()
    for puzzle, days_ago in ((first, 1), (second, 5)):
        game = Game.objects.create(
            user=user, puzzle=puzzle, entries=puzzle.solution, status=Status.COMPLETED
        )
        Game.objects.filter(pk=game.pk).update(created=now - timedelta(days=days_ago))
    answer = token_client.post("/api/v1/games/", {"technique": "x_wing"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert Game.objects.get(pk=answer.json()["id"]).puzzle_id == second.pk
