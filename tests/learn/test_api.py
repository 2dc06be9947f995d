"""The techniques API, the lesson pages and practice games."""

from __future__ import annotations

import pytest
from django.utils import timezone

from play.models import Game, Status
from puzzles import practice as puzzles_practice
from puzzles.models import PuzzlePack
from solver.techniques import ORDER

pytestmark = pytest.mark.django_db


def test_the_list_names_every_technique_with_its_level_and_lesson(api_client):
    answer = api_client.get("/api/v1/techniques/")
    assert answer.status_code == 200
    body = answer.json()
    assert [t["slug"] for t in body] == [t.slug for t in ORDER]
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


def test_no_practice_puzzle_is_a_404_with_a_code_and_queues_a_pack(token_client, no_enqueue):
    answer = token_client.post(
        "/api/v1/games/", {"technique": "swordfish", "size": 9}, format="json"
    )
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "no_practice_puzzle"
    pack = PuzzlePack.objects.get(technique="swordfish")
    assert (pack.size, pack.difficulty) == (9, "hard")
    again = token_client.post("/api/v1/games/", {"technique": "swordfish"}, format="json")
    assert again.status_code == 404
    assert PuzzlePack.objects.filter(technique="swordfish").count() == 1  # one on its way


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


def test_no_practice_puzzle_the_generator_cannot_make_queues_no_pack(
    token_client, no_enqueue, monkeypatch
):
    monkeypatch.setattr(puzzles_practice, "generator_reaches", lambda slug: False)
    answer = token_client.post("/api/v1/games/", {"technique": "unique_rectangle_5"}, format="json")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "no_practice_puzzle"
    assert "try another technique" in answer.json()["error"]["message"]
    assert not PuzzlePack.objects.exists()


def test_a_practice_game_from_the_lesson_page_opens_the_game(client, practice_puzzle):
    puzzle = practice_puzzle("x_wing", seed="form")
    answer = client.post("/learn/x_wing/practise/", {"size": 9})
    assert answer.status_code == 302
    game = Game.objects.get()
    assert answer["Location"] == f"/play/{game.pk}/"
    assert (game.puzzle_id, game.practice_technique) == (puzzle.pk, "x_wing")


def test_the_lesson_page_says_when_there_is_no_practice_puzzle(client, no_enqueue):
    answer = client.post("/learn/swordfish/practise/", {"size": 9}, follow=True)
    assert answer.redirect_chain[-1][0] == "/learn/swordfish/"
    assert "no 9x9 puzzle needing Swordfish" in answer.content.decode()
