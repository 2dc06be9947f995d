"""Killer lessons: the index's own group, the lesson page and API in English and Chinese,
and practice games on Killer puzzles that need the technique."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import timezone

from integrity.gate import game_standing
from learn import services
from learn.examples import example_of
from play.models import Game, Status
from puzzles.models import Puzzle
from puzzles.variants import rules_of
from solver.logic.general import variant_logic_solve

pytestmark = pytest.mark.django_db

KILLER = ("cage_combination", "innies_outies", "cage_house")
"""The Killer techniques most puzzles use: practised and stocked in these tests."""
ALL_KILLER = (
    "cage_combination",
    "innies_outies",
    "cage_house",
    "killer_pair",
    "innies_outies_large",
    "cage_split",
    "hidden_cage",
    "killer_triple",
    "house_combination",
)


def test_the_api_lists_the_killer_techniques_after_the_classic_ones(api_client):
    body = api_client.get("/api/v1/techniques/").json()
    killer = [t for t in body if t["variant"] == "killer"]
    assert [t["slug"] for t in killer] == list(ALL_KILLER)
    assert body[-len(killer) :] == killer
    innies = next(t for t in killer if t["slug"] == "innies_outies")
    assert (innies["name"], innies["level"], innies["sizes"]) == ("45 Rule", "medium", [9])
    assert innies["lesson_url"] == "/learn/innies_outies/"
    assert "45" in innies["explanation"]


@pytest.mark.parametrize("slug", KILLER)
def test_a_killer_lesson_has_its_example_with_the_cages(api_client, slug):
    answer = api_client.get(f"/api/v1/techniques/{slug}/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["variant"] == "killer"
    example = body["example"]
    assert example["variant"] == "killer" and example["cages"]
    assert len(example["regions"]) == 81
    assert example["step"]["technique"] == slug
    assert example["step"]["sentence"]


def test_a_killer_lesson_reads_in_chinese(api_client):
    body = api_client.get(
        "/api/v1/techniques/innies_outies/", HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).json()
    assert body["name"] == "45法则"
    assert "45法则" in body["explanation"]
    assert "是" in body["example"]["step"]["sentence"]  # the step's sentence too


def test_the_index_shows_the_killer_techniques_as_their_own_group(client):
    page = client.get("/learn/").content.decode()
    assert 'data-testid="variant-killer"' in page
    assert "Killer Sudoku" in page
    group = page[page.index('data-testid="variant-killer"') :]
    for slug in KILLER:
        assert f'data-testid="lesson-link-{slug}"' in group
    assert 'data-testid="lesson-link-x_wing"' not in group
    zh = Client(HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").get("/learn/").content.decode()
    assert "杀手数独" in zh and "笼子" in zh


def test_the_killer_lesson_page_loads_the_variant_styles_and_rules(client):
    page = client.get("/learn/cage_combination/").content.decode()
    assert "css/variants.css" in page
    data = page[page.index('id="lesson-data"') :]
    data = data[data.index(">") + 1 : data.index("</script>")]
    example = json.loads(data)
    assert example["cages"] == example_of("cage_combination")["cages"]
    assert "Killer Sudoku" in page
    assert "css/variants.css" not in client.get("/learn/x_wing/").content.decode()


def _needs(puzzle: Puzzle, slug: str) -> bool:
    rules = rules_of(puzzle)
    return bool(rules.cages) and slug in variant_logic_solve(rules, puzzle.grid()).techniques


@pytest.mark.parametrize("slug", KILLER)
def test_practice_starts_a_killer_game_whose_puzzle_needs_the_technique(token_client, slug):
    answer = token_client.post("/api/v1/games/", {"technique": slug}, format="json")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["puzzle"]["variant"] == "killer"
    assert body["puzzle"]["cages"]
    assert "solution" not in body["puzzle"]
    game = Game.objects.select_related("puzzle").get(pk=body["id"])
    assert game.practice_technique == slug
    assert _needs(game.puzzle, slug)
    assert slug in game.puzzle.techniques  # recorded, so the next player can pick it


def test_a_second_killer_practice_game_is_another_puzzle(token_client):
    first = token_client.post("/api/v1/games/", {"technique": "innies_outies"}, format="json")
    second = token_client.post(
        "/api/v1/games/", {"technique": "innies_outies", "variant": "killer"}, format="json"
    )
    assert second.status_code == 201, second.json()
    assert first.json()["puzzle"]["id"] != second.json()["puzzle"]["id"]
    assert _needs(Puzzle.objects.get(pk=second.json()["puzzle"]["id"]), "innies_outies")


def test_a_killer_puzzle_made_for_one_player_is_picked_for_the_next(token_client, monkeypatch):
    from rest_framework.test import APIClient

    from accounts.factories import UserFactory
    from accounts.services import token_create
    from learn import variant_practice

    made = token_client.post("/api/v1/games/", {"technique": "cage_combination"}, format="json")
    monkeypatch.setattr(variant_practice, "variant_practice_make", lambda **kw: None)
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=UserFactory())[1]}")
    answer = other.post("/api/v1/games/", {"technique": "cage_combination"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["puzzle"]["id"] == made.json()["puzzle"]["id"]


def test_with_nothing_made_a_killer_practice_game_is_the_lessons_example(token_client, monkeypatch):
    from learn import variant_practice

    monkeypatch.setattr(variant_practice, "variant_practice_make", lambda **kw: None)
    answer = token_client.post("/api/v1/games/", {"technique": "cage_house"}, format="json")
    assert answer.status_code == 201, answer.json()
    puzzle = Puzzle.objects.get(pk=answer.json()["puzzle"]["id"])
    example = example_of("cage_house")
    assert puzzle.givens.replace("0", ".") == example["givens"].replace("0", ".")
    assert [{"cells": c["cells"], "sum": c["sum"]} for c in answer.json()["puzzle"]["cages"]] == (
        example["cages"]
    )
    assert _needs(puzzle, "cage_house")


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"technique": "cage_house", "variant": "classic"}, "technique_not_on_variant"),
        ({"technique": "x_wing", "variant": "killer"}, "technique_not_on_variant"),
        ({"technique": "cage_house", "size": 6}, "technique_not_on_size"),
    ],
)
def test_a_killer_technique_on_another_variant_or_size_is_a_400(token_client, payload, code):
    answer = token_client.post("/api/v1/games/", payload, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == code
    assert not Game.objects.exists()


def test_practise_on_the_killer_lesson_page_opens_a_killer_game(client):
    answer = client.post("/learn/cage_combination/practise/", {"size": 9})
    assert answer.status_code == 302
    game = Game.objects.select_related("puzzle").get()
    assert answer["Location"] == f"/play/{game.pk}/"
    assert game.puzzle.variant == "killer"
    page = client.get(answer["Location"]).content.decode()
    assert "/learn/cage_combination/" in page  # the game links back to its lesson
    assert "css/variants.css" in page


def test_a_killer_practice_game_counts_like_a_classic_practice_game(token_client, user):
    games = []
    for slug in ("x_wing", "cage_combination"):
        body = token_client.post("/api/v1/games/", {"technique": slug}, format="json").json()
        game = Game.objects.select_related("puzzle").get(pk=body["id"])
        game.status, game.finished = Status.ABANDONED, timezone.now()
        games.append(game_standing(game, review=None))
    assert games[0] == games[1]
    assert games[1] is not None and games[1].counts


def test_practice_progress_counts_killer_practice_games(token_client, user):
    body = token_client.post("/api/v1/games/", {"technique": "cage_combination"}, format="json")
    Game.objects.filter(pk=body.json()["id"]).update(
        status=Status.COMPLETED, finished=timezone.now(), hints_used=0
    )
    stats = token_client.get("/api/v1/me/stats/").json()
    assert {"technique": "cage_combination", "solved": 1, "solved_without_hint": 1} in stats[
        "practice"
    ]


def test_the_services_example_puzzle_is_only_for_its_variant_and_size():
    from learn.variant_practice import variant_practice_example_puzzle

    assert variant_practice_example_puzzle(technique="cage_house", variant="killer", size=6) is None
    assert services.practice_example_puzzle(technique="x_wing", size=9) is not None


def test_a_killer_lessons_frequency_counts_the_killer_puzzles_graded_for_practice(token_client):
    token_client.post("/api/v1/games/", {"technique": "cage_combination"}, format="json")
    rows = token_client.get("/api/v1/techniques/cage_combination/").json()["frequency"]
    assert len(rows) == 1
    row = rows[0]
    assert (row["size"], row["puzzles"], row["using"], row["share"]) == (9, 1, 1, 1.0)
    other = token_client.get("/api/v1/techniques/cage_house/").json()["frequency"]
    assert [(r["puzzles"], r["using"]) for r in other] == [(1, 0)]


def test_a_killer_practice_games_hint_leads_to_its_technique_and_lesson(token_client, monkeypatch):
    from rest_framework.test import APIClient

    from accounts.factories import UserFactory
    from accounts.services import token_create
    from learn import variant_practice

    monkeypatch.setattr(variant_practice, "variant_practice_make", lambda **kw: None)
    started = token_client.post("/api/v1/games/", {"technique": "cage_house"}, format="json")
    puzzle_id = started.json()["puzzle"]["id"]
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=UserFactory())[1]}")
    plain = other.post("/api/v1/games/", {"puzzle": puzzle_id}, format="json")
    hints = {}
    for answer, client in ((started, token_client), (plain, other)):
        gid = answer.json()["id"]
        hint = client.post(f"/api/v1/games/{gid}/hint/", {"level": 2}, format="json")
        assert hint.status_code == 200, hint.json()
        hints[client] = hint.json()["hint"]
    assert hints[token_client]["technique"] == "cage_house"
    assert hints[token_client]["lesson_url"] == "/learn/cage_house/"
    assert hints[other]["technique"] == "cage_combination"  # the engine's own order
    assert hints[other]["lesson_url"] == "/learn/cage_combination/"


def test_the_top_up_keeps_killer_practice_puzzles_for_each_technique_once(monkeypatch):
    from django.conf import settings

    from learn import tasks, variant_practice
    from learn.variant_practice import variant_practice_top_up
    from solver.logic.general import BY_SLUG
    from sudokusite.celery import app

    # the common three: the rare ones (a hidden cage) take a minute to find
    monkeypatch.setattr(
        variant_practice, "variant_techniques", lambda: tuple(BY_SLUG[s] for s in KILLER)
    )
    # one puzzle may serve two techniques (a 45 rule and a cage combination)
    assert 1 <= variant_practice_top_up(minimum=1) <= len(KILLER)
    for slug in KILLER:
        puzzles = Puzzle.objects.filter(variant="killer", techniques__has_key=slug)
        assert puzzles.exists(), slug
        assert all(_needs(p, slug) for p in puzzles)
    assert variant_practice_top_up(minimum=1) == 0  # stocked: nothing more
    app.loader.import_default_modules()
    names = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert tasks.variant_practice_top_up.name in names & set(app.tasks)
    assert tasks.variant_practice_top_up.acks_late is True


def test_a_killer_technique_added_to_the_engine_later_gets_a_lesson_without_code(
    client, monkeypatch
):
    from learn.lessons import FALLBACK
    from solver.generation import general_practice
    from solver.logic import general
    from solver.logic.general import VariantTechnique

    added = VariantTechnique("killer_quad", "Killer Quad", "hard", lambda board: iter(()))
    order = (*general.ORDER, added)

    def techniques_for(rules, max_level=None):
        plain = general.techniques_for(rules, max_level)
        return (*plain, added) if rules.cages else plain

    monkeypatch.setattr(general_practice, "ORDER", order)
    monkeypatch.setattr(general_practice, "BY_SLUG", {t.slug: t for t in order})
    monkeypatch.setattr(general_practice, "techniques_for", techniques_for)
    general_practice.variant_techniques.cache_clear()
    general_practice.technique_variant.cache_clear()
    try:
        index = client.get("/learn/").content.decode()
        group = index[index.index('data-testid="variant-killer"') :]
        assert 'data-testid="lesson-link-killer_quad"' in group
        lesson = client.get("/learn/killer_quad/")
        assert lesson.status_code == 200
        assert str(FALLBACK)[:40] in lesson.content.decode()
        assert b"No example yet" in lesson.content
    finally:
        general_practice.variant_techniques.cache_clear()
        general_practice.technique_variant.cache_clear()


def test_todays_killer_daily_is_never_a_practice_game(token_client, monkeypatch):
    from rest_framework.test import APIClient

    from accounts.factories import UserFactory
    from accounts.services import token_create
    from learn import variant_practice
    from puzzles.models import DailyPuzzle

    made = token_client.post("/api/v1/games/", {"technique": "cage_combination"}, format="json")
    stocked = Puzzle.objects.get(pk=made.json()["puzzle"]["id"])
    DailyPuzzle.objects.create(date=timezone.localdate(), size=9, variant="killer", puzzle=stocked)
    monkeypatch.setattr(variant_practice, "variant_practice_make", lambda **kw: None)
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=UserFactory())[1]}")
    answer = other.post("/api/v1/games/", {"technique": "cage_combination"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["puzzle"]["id"] != stocked.pk
