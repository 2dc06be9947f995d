"""The constraint lessons: each one's example is the engine's step on its shipped board, sound
against the puzzle's one solution; the pages draw the constraints and read in English and
Chinese; the lesson index lists them under their own heading."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from learn.constraint_examples import peer_step
from learn.constraint_lessons import BY_SLUG, LESSONS
from learn.constraint_practice import practised_lesson
from learn.examples import examples
from learn.lessons import FALLBACK, lesson_text
from solver import Shape, parse
from solver.logic.constraint_steps import constraint_steps
from solver.logic.houses import VBoard, full_houses, hidden_singles, naked_singles
from solver.rules.ruleset import Rules
from solver.search.exact import solutions

SLUGS = [lesson.slug for lesson in LESSONS]
EXAMPLES = examples()
TYPES = {"kropki_white": "kropki", "kropki_black": "kropki", "parity": "even"}
"""The constraint type each lesson's example draws, where it is not the lesson's slug."""


def _rules(ex: dict) -> Rules:
    return Rules.from_dict(ex, Shape(ex["box_rows"], ex["box_cols"]))


def _position(ex: dict, rules: Rules) -> VBoard:
    values = [int(ch) if ch.isdigit() else 0 for ch in ex["values"]]
    cand = [sum(1 << (v - 1) for v in cs) for cs in ex["candidates"]]
    return VBoard(rules, values, cand)


def test_the_generated_types_and_the_imported_lines_all_have_lessons() -> None:
    wanted = {"thermometer", "arrow", "kropki_white", "kropki_black", "xv", "little_killer"}
    wanted |= {"antiknight", "antiking", "nonconsecutive", "sandwich", "whispers", "renban"}
    wanted |= {"palindrome", "between", "region_sum"}
    assert wanted <= set(SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_constraint_lesson_has_an_example_with_its_constraints(slug: str) -> None:
    ex = EXAMPLES[slug]
    assert ex["technique"] == slug
    assert ex["variant"] == "classic" and ex["size"] == 9
    types = {con["type"] for con in ex["constraints"]}
    assert TYPES.get(slug, slug) in types | {"odd"}
    step = ex["step"]
    assert step["technique"] == "constraint" and step["eliminations"]
    assert step["sentence"] and set(step["cells"]) <= set(range(81))


@pytest.mark.parametrize("slug", SLUGS)
def test_the_constraint_example_is_the_engines_step_on_its_board(slug: str) -> None:
    ex = EXAMPLES[slug]
    board = _position(ex, _rules(ex))
    if BY_SLUG[slug].peers:
        singles = [*full_houses(board), *naked_singles(board), *hidden_singles(board)]
        single = next(s for s in singles if s.to_dict() == ex["single"])  # the engine's single
        shown = peer_step(board, single)
        assert shown is not None and shown[0].to_dict() == ex["step"]
    else:
        assert ex["step"]["params"]["variant"] in BY_SLUG[slug].steps
        assert ex["step"] in [s.to_dict() for s in constraint_steps(board)]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_constraint_example_keeps_the_one_solution(slug: str) -> None:
    ex = EXAMPLES[slug]
    rules = _rules(ex)
    grid = parse(ex["givens"], box_rows=ex["box_rows"], box_cols=ex["box_cols"])
    found = solutions(grid, limit=2, rules=rules)
    assert len(found) == 1
    solution = found[0].cells
    assert all(not con.clashes(rules, list(solution)) for con in rules.constraints)
    for c, v in enumerate(ex["values"]):
        assert v == "." or int(v) == solution[c]
    for c, cands in enumerate(ex["candidates"]):
        assert not cands or solution[c] in cands
    for e in ex["step"]["eliminations"]:
        assert solution[e["cell"]] != e["value"]
        assert e["value"] in ex["candidates"][e["cell"]]
    for p in ex["step"]["placements"] + ex.get("single", {}).get("placements", []):
        assert solution[p["cell"]] == p["value"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_constraint_lesson_has_a_text_in_english_and_chinese(slug: str) -> None:
    with translation.override("en"):
        english = str(lesson_text(slug))
    with translation.override("zh-hans"):
        chinese = str(lesson_text(slug))
        name = str(BY_SLUG[slug].name)
    assert english != str(FALLBACK) and chinese != english
    assert any("\u4e00" <= ch <= "\u9fff" for ch in chinese)
    assert slug == "xv" or any("\u4e00" <= ch <= "\u9fff" for ch in name)  # XV stays XV


def _lesson_data(page: str) -> dict:
    data = page[page.index('id="lesson-data"') :]
    return json.loads(data[data.index(">") + 1 : data.index("</script>")])


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_every_constraint_lesson_page_draws_its_example_in_both_languages(slug: str) -> None:
    english = Client().get(f"/learn/{slug}/")
    assert english.status_code == 200
    page = english.content.decode()
    assert "css/variants.css" in page and 'data-testid="lesson-board"' in page
    # Practised when its kind is made at levels (learn.constraint_practice), else not.
    assert ('data-testid="practise"' in page) == (practised_lesson(slug) is not None)
    assert escape(str(BY_SLUG[slug].text)[:40]) in page
    data = _lesson_data(page)
    assert data["constraints"] == EXAMPLES[slug]["constraints"]
    assert data["step"]["sentence"] == EXAMPLES[slug]["step"]["sentence"]
    assert "palindrome line" in data["constraint_words"]
    assert ("single" in data) == BY_SLUG[slug].peers
    chinese = Client(HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").get(f"/learn/{slug}/")
    assert chinese.status_code == 200
    zh = _lesson_data(chinese.content.decode())
    assert zh["constraints"] == data["constraints"]
    assert zh["step"]["sentence"] != data["step"]["sentence"]
    assert "删去" in zh["step"]["sentence"]
    assert zh["constraint_words"]["palindrome line"] == "回文线"
    assert "约束" in chinese.content.decode()  # the breadcrumb's heading


@pytest.mark.django_db
def test_the_index_lists_the_constraint_lessons_under_their_own_heading() -> None:
    page = Client().get("/learn/").content.decode()
    group = page[page.index('data-testid="variant-constraints"') :]
    assert "Constraints" in group
    for slug in SLUGS:
        assert f'data-testid="lesson-link-{slug}"' in group
    assert 'data-testid="lesson-link-x_wing"' not in group
    zh = Client(HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").get("/learn/").content.decode()
    assert "约束" in zh and "温度计" in zh


@pytest.mark.django_db
def test_the_api_serves_a_constraint_lesson(api_client) -> None:
    body = api_client.get("/api/v1/techniques/thermometer/").json()
    assert body["variant"] == "constraints" and body["sizes"] == [9]
    assert body["example"]["constraints"][0]["type"] == "thermometer"
    assert body["lesson_url"] == "/learn/thermometer/"
    assert api_client.get("/api/v1/techniques/sandwich/").json()["sizes"] == []


@pytest.mark.django_db
def test_practising_a_lesson_only_constraint_is_a_404_not_a_500() -> None:
    answer = Client().post("/learn/sandwich/practise/", {"size": 9})
    assert answer.status_code == 404


@pytest.mark.parametrize("slug", [s for s in SLUGS if not BY_SLUG[s].peers])
def test_a_constraint_steps_hint_links_to_its_lesson(slug: str) -> None:
    from play.hints import hint_reveal

    hint = hint_reveal(EXAMPLES[slug]["step"], 2)
    assert hint["technique"] == "constraint"
    assert hint["lesson_url"] == f"/learn/{slug}/"


@pytest.mark.django_db
def test_asking_a_practice_game_of_a_constraint_says_it_has_a_lesson_only(token_client) -> None:
    # A kind not made at levels (solver.generation.constrained.GENERATED): lesson only.
    answer = token_client.post(
        "/api/v1/games/", {"technique": "sandwich"}, content_type="application/json"
    )
    assert answer.status_code == 400
    assert "taught by its lesson only" in answer.content.decode()
