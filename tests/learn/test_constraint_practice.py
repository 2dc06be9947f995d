"""Practice games for the constraint lessons made at levels (learn.constraint_practice):
each starts a game on a puzzle whose logic uses the lesson's step, an empty stock is made
on demand or answered 503 with Retry-After, the puzzles stay out of every pool of the bank,
and their games never count."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from learn import constraint_practice
from learn.constraint_lessons import BY_SLUG, LESSONS
from learn.constraint_practice import lesson_sentences, practice_rows, practised_lessons
from play.models import Game
from puzzles.models import DailyPuzzle, Puzzle, Source
from puzzles.selectors import puzzle_pick
from puzzles.stock import bank_stock_all
from puzzles.variant_bank import variant_puzzle_store
from puzzles.variants import rules_of
from ratings.models import RatingChange
from solver import Grid, Shape, count_solutions
from solver.generation.constrained import GENERATED
from solver.generation.constrained_practice import (
    ConstrainedPractice,
    make_constrained_practice,
    sentence_counts,
)
from solver.logic.general import variant_logic_solve
from sudokusite import queueing
from tests.play.helpers import move

SEEDS = {
    "antiking": "t0",
    "antiknight": "t4",
    "arrow": "t4",
    "kropki": "t1",
    "little_killer": "t1",
    "nonconsecutive": "t2",
    "thermometer": "t0",
    "xv": "t2",
}
"""A seed per kind whose first attempt makes a puzzle (a third of a second of CPU each)."""

PRACTISED = [lesson.slug for lesson in practised_lessons()]


@pytest.fixture(scope="module")
def made() -> dict[str, ConstrainedPractice]:
    """One practice puzzle per kind, made once for the module (no database)."""
    out = {}
    for kind in GENERATED:
        lessons = [lesson for lesson in LESSONS if lesson.drawn == kind]
        sentences = tuple(s for lesson in lessons for s in lesson_sentences(lesson))
        found = make_constrained_practice(kind, Shape(3, 3), sentences, seed=SEEDS[kind])
        assert found is not None, kind
        out[kind] = found
    return out


def _stock(practice: ConstrainedPractice) -> Puzzle:
    return constraint_practice._store(practice)[0]


def _post(client: Any, slug: str) -> Any:
    return client.post("/api/v1/games/", {"technique": slug}, format="json")


def test_every_generated_kind_has_practised_lessons_and_no_other_does() -> None:
    assert {lesson.drawn for lesson in practised_lessons()} == set(GENERATED)
    assert "sandwich" not in PRACTISED and "xv_negative" not in PRACTISED
    assert {"kropki_white", "kropki_black", "antiknight"} <= set(PRACTISED)


@pytest.mark.parametrize("kind", GENERATED)
def test_a_practice_puzzle_is_finished_by_the_logic_and_unique(made, kind) -> None:
    practice = made[kind]
    puzzle, rules = practice.made.puzzle, practice.made.rules
    logic = variant_logic_solve(rules, puzzle)
    assert logic.solved and logic.grid == practice.made.solution
    assert count_solutions(puzzle, limit=2, rules=rules) == 1
    assert practice.level in ("easy", "medium")
    assert sentence_counts(rules, puzzle, logic.steps) == practice.sentences


@pytest.mark.django_db
@pytest.mark.parametrize("slug", PRACTISED)
def test_the_api_starts_a_practice_game_whose_puzzle_uses_the_lessons_step(
    made, token_client, slug
) -> None:
    lesson = BY_SLUG[slug]
    stored = _stock(made[lesson.drawn])
    answer = _post(token_client, slug)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["puzzle"]["id"] == stored.pk
    assert "solution" not in body["puzzle"]
    game = Game.objects.select_related("puzzle").get(pk=body["id"])
    assert game.practice_technique == slug and game.ranked is False
    puzzle = game.puzzle
    assert puzzle.source == Source.PRACTICE and puzzle.size == 9
    rules = rules_of(puzzle)
    kinds = {con.kind for con in rules.constraints}
    assert kinds == {lesson.drawn}
    steps = variant_logic_solve(rules, puzzle.grid()).steps
    assert set(lesson_sentences(lesson)) & set(sentence_counts(rules, puzzle.grid(), steps))
    assert body["puzzle"]["constraints"]  # the page draws them


@pytest.mark.django_db
def test_a_kind_not_generated_keeps_its_lesson_only_message(token_client) -> None:
    answer = _post(token_client, "sandwich")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "unknown_technique"
    assert "taught by its lesson only" in answer.json()["error"]["message"]


@pytest.mark.django_db
def test_a_constraint_practice_is_on_9x9_only(token_client) -> None:
    answer = token_client.post(
        "/api/v1/games/", {"technique": "thermometer", "size": 6}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "technique_not_on_size"
    answer = token_client.post(
        "/api/v1/games/", {"technique": "thermometer", "variant": "killer"}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "technique_not_on_variant"


@pytest.mark.django_db
def test_an_empty_stock_of_a_quick_kind_is_made_on_demand(token_client, settings) -> None:
    settings.CONSTRAINT_PRACTICE_MAKE_SECONDS = 60  # the test says what, not how fast
    assert not practice_rows(BY_SLUG["kropki_white"]).exists()
    answer = _post(token_client, "kropki_white")
    assert answer.status_code == 201, answer.content
    puzzle = Puzzle.objects.get(pk=answer.json()["puzzle"]["id"])
    assert puzzle.source == Source.PRACTICE
    assert "constraint:kropki_white" in puzzle.techniques
    assert list(practice_rows(BY_SLUG["kropki_white"])) == [puzzle]  # kept for the next


@pytest.mark.django_db
def test_an_empty_stock_of_a_slow_kind_answers_503_with_retry_after(token_client) -> None:
    assert "antiknight" in constraint_practice.SLOW_KINDS
    answer = _post(token_client, "antiknight")
    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == "practice_puzzle_not_ready"
    assert "try again in a moment" in answer.json()["error"]["message"]
    assert answer["Retry-After"] == str(constraint_practice.RETRY_AFTER)
    assert not Game.objects.exists()
    chinese = token_client.post(
        "/api/v1/games/", {"technique": "antiknight"}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert chinese.status_code == 503 and "请稍后再试" in chinese.json()["error"]["message"]
    page = Client().post("/learn/antiknight/practise/", {"size": 9})  # the lesson, saying so
    assert page.status_code == 302 and page["Location"] == "/learn/antiknight/"


@pytest.mark.django_db
def test_past_the_rate_an_empty_stock_answers_503_instead_of_making_one(
    token_client, monkeypatch
) -> None:
    monkeypatch.setattr("solving.api.throttles.AnalyseThrottle.allow_request", lambda *a: False)
    answer = _post(token_client, "thermometer")
    assert answer.status_code == 503 and answer.has_header("Retry-After")
    assert not Puzzle.objects.exists()


@pytest.mark.django_db
def test_a_player_who_played_the_whole_stock_replays_the_oldest(made, token_client) -> None:
    stored = _stock(made["antiknight"])
    first = _post(token_client, "antiknight").json()
    token_client.post(f"/api/v1/games/{first['id']}/abandon/", {}, format="json")
    again = _post(token_client, "antiknight")  # slow to make here: the one they played
    assert again.status_code == 201 and again.json()["puzzle"]["id"] == stored.pk


@pytest.mark.django_db
def test_the_top_up_stocks_each_lesson_once(made, monkeypatch) -> None:
    calls: list[str] = []

    def fake(kind: str, shape: Shape, sentences: tuple[str, ...], **kw: Any) -> Any:
        calls.append(kw["seed"])
        return made[kind]  # the same puzzle: stored once

    monkeypatch.setattr(constraint_practice, "make_constrained_practice", fake)
    lesson = BY_SLUG["xv"]
    assert constraint_practice.constraint_practice_top_up(minimum=2, lessons=(lesson,)) == 1
    assert calls == ["stock:xv:0", "stock:xv:1"]
    assert practice_rows(lesson).count() == 1
    from learn.tasks import constraint_practice_top_up as task

    assert task.name == constraint_practice.TOP_UP_TASK
    assert task.acks_late is True and task.reject_on_worker_lost is True


def _almost_solved(practice: ConstrainedPractice) -> tuple[Puzzle, int]:
    """The practice puzzle's solution with one cell open, stored as a thermometer practice
    puzzle, and that cell."""
    solution = practice.made.solution
    cells = (0, *solution.cells[1:])
    puzzle, _ = variant_puzzle_store(
        grid=Grid(solution.shape, cells),
        rules=practice.made.rules,
        solution=solution,
        source=Source.PRACTICE,
    )
    Puzzle.objects.filter(pk=puzzle.pk).update(techniques={"constraint:thermometer": 1})
    return puzzle, 0


@pytest.mark.django_db
def test_practice_puzzles_are_never_drawn_by_a_level_the_daily_or_at_my_level(
    made, token_client, monkeypatch
) -> None:
    monkeypatch.setattr("puzzles.stock.bank_puzzle_make", lambda **kwargs: None)
    stored = _stock(made["thermometer"])
    assert (stored.variant, stored.size) == ("classic", 9)
    level = {"size": 9, "difficulty": stored.difficulty}
    assert puzzle_pick(**level) is None and puzzle_pick(size=9, difficulty=None) is None
    answer = token_client.post("/api/v1/games/", level, format="json")
    assert answer.status_code == 404
    assert token_client.post("/api/v1/games/", {"level": "mine"}, format="json").status_code == 404
    from puzzles.daily import daily_puzzles_pick

    daily_puzzles_pick()
    assert not DailyPuzzle.objects.filter(puzzle=stored).exists()
    assert token_client.get("/api/v1/puzzles/", {"size": 9}).json()["count"] == 0
    assert bank_stock_all() == {}


@pytest.mark.django_db
def test_a_constraint_practice_game_never_counts_nor_moves_a_rating(made, user) -> None:
    from tests.integrity.test_gate import client_for, on_any_board

    puzzle, cell = _almost_solved(made["thermometer"])
    client = client_for(user)
    game = _post(client, "thermometer").json()
    assert game["puzzle"]["id"] == puzzle.pk
    last = move(client, game["id"], cell, puzzle.solution_grid().cells[cell]).json()
    assert last["completed"] is True
    assert last["game"]["counts"] is False
    assert last["game"]["unranked_reason"]["code"] == "practice_only"
    stored = Game.objects.select_related("puzzle", "user").get(pk=game["id"])
    assert stored.ranked is False and not on_any_board(stored)
    assert not RatingChange.objects.filter(user=user).exists()


@pytest.mark.django_db
def test_a_solved_constraint_practice_shows_on_the_lessons_index(made, user) -> None:
    from tests.integrity.test_gate import client_for

    puzzle, cell = _almost_solved(made["thermometer"])
    client = client_for(user)
    game = _post(client, "thermometer").json()
    move(client, game["id"], cell, puzzle.solution_grid().cells[cell])
    web = Client()
    web.force_login(user)
    page = web.get("/learn/").content.decode()
    group = page[page.index('data-testid="variant-constraints"') :]
    assert 'data-testid="progress-thermometer"' in group
    assert "Practice solved: 1" in group


@pytest.mark.django_db
def test_an_unreachable_broker_still_answers_the_503(token_client, monkeypatch) -> None:
    from kombu.exceptions import OperationalError

    sent: list[str] = []

    def down(name: str, *args: Any, **kwargs: Any) -> None:
        sent.append(name)
        raise OperationalError("connection refused")

    monkeypatch.setattr(queueing.current_app, "send_task", down)
    monkeypatch.setattr("django.db.transaction.on_commit", lambda fn, *a, **k: fn())
    answer = _post(token_client, "nonconsecutive")
    assert answer.status_code == 503
    assert sent == [constraint_practice.TOP_UP_TASK]
    assert _post(token_client, "nonconsecutive").status_code == 503
    assert sent == [constraint_practice.TOP_UP_TASK]  # once a minute at most
