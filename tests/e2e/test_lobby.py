"""The lobby's start form: a size and a level that can be served, nothing else."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from play.models import Game
from tests.e2e.boards import easy_nine, four_by_four, make_puzzle


def level(page: Page, name: str):
    return page.get_by_role("radio", name=name, exact=True)


def test_a_size_without_the_chosen_level_falls_back_to_the_nearest_it_has(live_server, page):
    make_puzzle(four_by_four(0), difficulty="easy")
    make_puzzle(four_by_four(1), difficulty="medium")
    make_puzzle(easy_nine(0), difficulty="hard")
    page.goto(live_server.url + "/?size=9&difficulty=hard")
    expect(level(page, "Hard")).to_be_checked()

    page.locator("label.choice", has_text="4×4").click()
    # No hard 4x4 is made: the closest level made is chosen, and the page says why.
    expect(level(page, "Medium")).to_be_checked()
    expect(level(page, "Hard")).to_be_disabled()
    expect(level(page, "Master")).to_be_disabled()
    expect(page.locator("#level-note")).to_have_text("Hard is not made at 4×4: Medium instead.")
    # A level the size lacks cannot be picked again.
    page.locator("label.choice", has_text="Hard").click(force=True)
    expect(level(page, "Medium")).to_be_checked()

    page.get_by_test_id("start").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    game = Game.objects.select_related("puzzle").get()
    assert (game.puzzle.size, game.puzzle.difficulty) == (4, "medium")


def test_a_giant_level_not_made_yet_cannot_be_started_and_says_why(live_server, page):
    make_puzzle(four_by_four(0), difficulty="easy")
    page.goto(live_server.url + "/?difficulty=easy")
    page.locator("label.choice", has_text="16×16").click()
    # No 16x16 in stock and too big to make in a request: every level waits for the workers.
    expect(page.get_by_test_id("start")).to_be_disabled()
    expect(page.locator("#level-note")).to_have_text("No 16×16 puzzles yet: pick another size.")
    page.locator("label.choice", has_text="4×4").click()
    expect(page.get_by_test_id("start")).to_be_enabled()
    expect(level(page, "Easy")).to_be_checked()
    expect(page.locator("#level-note")).to_be_hidden()
