"""A lesson in the browser: step through its example, practise, and come back from a hint."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from play.models import Game
from puzzles import bank
from puzzles.models import Source
from solver.generate import generate
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
