"""A lesson in the browser: step through its example, practise, and come back from a hint."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from play.models import Game
from puzzles import bank
from puzzles.models import Source
from solver.generation.classic import generate
from tests.e2e.boards import park


@pytest.fixture(autouse=True)
def _park_running_games(page: Page) -> Iterator[None]:
    yield
    park(page)


def test_a_lesson_steps_through_its_example_and_starts_a_practice_game(live_server, page):
    made = generate(9, require="pointing", seed="e2e")
    puzzle, _ = bank.puzzle_get_or_create_from_grid(
        grid=made.puzzle, source=Source.GENERATED, solution=made.solution
    )
    page.goto(live_server.url + "/learn/")
    page.get_by_test_id("lesson-link-pointing").click()
    expect(page).to_have_url(re.compile(r"/learn/pointing/$"))
    stage = page.get_by_test_id("lesson-stage")
    expect(stage).to_contain_text("1/5")
    board = page.get_by_test_id("lesson-board")
    expect(board.locator(".cell.hint-unit")).to_have_count(0)
    page.get_by_test_id("lesson-next").click()
    expect(stage).to_contain_text("2/5. Look at")
    assert board.locator(".cell.hint-unit").count() > 0
    page.get_by_test_id("lesson-next").click()
    expect(stage).to_contain_text("3/5. The pattern")
    assert board.locator(".cell.hint").count() >= 2
    page.get_by_test_id("lesson-next").click()
    expect(stage).to_contain_text("4/5")
    struck = board.locator(".notes span.elim")
    assert struck.count() >= 1
    page.get_by_test_id("lesson-next").click()
    expect(stage).to_contain_text("5/5. After the step")
    expect(board.locator(".notes span.elim")).to_have_count(0)
    # The last stage offers to practise where "Next" was.
    expect(page.get_by_test_id("lesson-next")).to_be_hidden()
    expect(page.get_by_test_id("lesson-practise")).to_have_text("Practise Pointing")

    page.get_by_test_id("lesson-practise").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    game = Game.objects.get(pk=int(re.search(r"/play/(\d+)/$", page.url).group(1)))
    assert (game.puzzle_id, game.practice_technique) == (puzzle.pk, "pointing")
    expect(page.get_by_test_id("practice-note")).to_contain_text("Practice: Pointing")

    page.locator("#hint").click()
    expect(page.get_by_test_id("hint-panel")).to_be_visible()
    expect(page.get_by_test_id("hint-lesson")).to_be_hidden()
    page.locator("#hint-next").click()
    link = page.get_by_test_id("hint-lesson")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert re.fullmatch(r"/learn/[a-z_0-9]+/", href or "")
    with page.context.expect_page() as opened:
        link.click()
    lesson = opened.value
    lesson.wait_for_load_state()
    assert lesson.url.endswith(href)
    expect(lesson.get_by_test_id("explanation")).to_be_visible()
    lesson.close()


def test_a_killer_lesson_draws_its_cages_on_a_phone_and_practises_a_killer(live_server, browser):
    from learn.examples import example_of
    from tests.e2e.test_axe import violations

    example = example_of("innies_outies")
    assert example is not None
    context = browser.new_context(viewport={"width": 375, "height": 800}, bypass_csp=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/learn/")
        expect(page.get_by_test_id("variant-killer")).to_contain_text("Killer Sudoku")
        page.get_by_test_id("lesson-link-innies_outies").click()
        expect(page).to_have_url(re.compile(r"/learn/innies_outies/$"))
        board = page.get_by_test_id("lesson-board")
        caged = sum(len(c["cells"]) for c in example["cages"])
        expect(board.locator(".cell.cage")).to_have_count(caged)
        expect(board.locator(".cell[data-sum]")).to_have_count(len(example["cages"]))
        # The first cage's sum sits in its first cell, and screen readers hear the cage.
        cage = max(example["cages"], key=lambda c: len(c["cells"]))
        first = board.locator(f'.cell[data-cell="{min(cage["cells"])}"]')
        expect(first).to_have_attribute("data-sum", str(cage["sum"]))
        expect(first.locator(".visually-hidden")).to_contain_text(
            f"cage of {len(cage['cells'])} cells, sum {cage['sum']}"
        )
        box = board.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
        stage = page.get_by_test_id("lesson-stage")
        for _ in range(3):
            page.get_by_test_id("lesson-next").click()
        expect(stage).to_contain_text("4/5. The values in")
        assert board.locator(".cell.hint").count() >= 1
        assert violations(page) == []
        page.get_by_test_id("lesson-next").click()
        page.get_by_test_id("lesson-practise").click()
        expect(page).to_have_url(re.compile(r"/play/\d+/$"))
        expect(page.locator("body")).to_have_attribute("data-ready", "1")
        game = Game.objects.select_related("puzzle").get(
            pk=int(re.search(r"/play/(\d+)/$", page.url).group(1))
        )
        assert (game.puzzle.variant, game.practice_technique) == ("killer", "innies_outies")
        assert page.locator("#board .cell[data-sum]").count() == len(game.puzzle.rules["cages"])
        expect(page.get_by_test_id("practice-note")).to_contain_text("Practice: 45 Rule")
        park(page)
    finally:
        context.close()


def test_a_constraint_lesson_draws_its_constraints_and_steps_to_the_end(live_server, browser):
    from learn.constraint_lessons import BY_SLUG
    from learn.constraint_practice import constraint_practice_top_up
    from learn.examples import example_of
    from tests.e2e.test_axe import violations

    example = example_of("thermometer")
    assert example is not None
    constraint_practice_top_up(minimum=1, lessons=(BY_SLUG["thermometer"],))
    context = browser.new_context(bypass_csp=True)  # axe is injected inline
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/learn/")
        section = page.get_by_test_id("variant-constraints")
        expect(section).to_contain_text("Constraints")
        section.get_by_test_id("lesson-link-thermometer").click()
        expect(page).to_have_url(re.compile(r"/learn/thermometer/$"))
        thermos = [c for c in example["constraints"] if c["type"] == "thermometer"]
        expect(page.locator("svg.constraints polyline.c-thermo")).to_have_count(len(thermos))
        bulb = page.locator(f'.cell[data-cell="{thermos[0]["cells"][0]}"] .visually-hidden')
        expect(bulb).to_contain_text("on a thermometer, 1 of")
        board = page.get_by_test_id("lesson-board")
        expect(board).to_have_attribute("aria-label", "Thermometer example, 9 by 9")
        stage = page.get_by_test_id("lesson-stage")
        page.get_by_test_id("lesson-next").click()
        expect(stage).to_contain_text("2/5. Look at the highlighted cells.")
        expect(board.locator(".cell.hint-unit")).to_have_count(len(example["step"]["cells"]))
        page.get_by_test_id("lesson-next").click()
        page.get_by_test_id("lesson-next").click()
        expect(stage).to_contain_text("4/5. Values rise along the thermometer")
        expect(board.locator(".notes span.elim")).to_have_count(
            len(example["step"]["eliminations"])
        )
        assert violations(page) == []
        page.get_by_test_id("lesson-next").click()
        expect(stage).to_contain_text("5/5. After the step")
        # Thermometers are made at levels: the last stage offers their practice, a 9x9
        # practice-only puzzle with thermometers (one in the stock, from a fixed seed).
        expect(page.get_by_test_id("lesson-next")).to_be_hidden()
        expect(page.get_by_test_id("lesson-practise")).to_have_text("Practise Thermometer")
        page.get_by_test_id("lesson-practise").click()
        expect(page).to_have_url(re.compile(r"/play/\d+/$"))
        expect(page.locator("body")).to_have_attribute("data-ready", "1")
        game = Game.objects.select_related("puzzle").get(
            pk=int(re.search(r"/play/(\d+)/$", page.url).group(1))
        )
        assert game.practice_technique == "thermometer"
        assert game.puzzle.source == Source.PRACTICE
        assert page.locator("svg.constraints polyline.c-thermo").count() >= 1
    finally:
        context.close()
