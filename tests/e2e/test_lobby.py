"""The lobby's start form: a size and a level the bank has puzzles of, nothing else."""

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
    # The bank has no hard 4x4: the closest level it has is chosen, and the page says so.
    expect(level(page, "Medium")).to_be_checked()
    expect(level(page, "Hard")).to_be_disabled()
    expect(level(page, "Master")).to_be_disabled()
    expect(page.locator("#level-note")).to_have_text("No Hard 4×4 puzzles yet: Medium instead.")
    # A level the size lacks cannot be picked again.
    page.locator("label.choice", has_text="Hard").click(force=True)
    expect(level(page, "Medium")).to_be_checked()

    page.get_by_test_id("start").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    game = Game.objects.select_related("puzzle").get()
    assert (game.puzzle.size, game.puzzle.difficulty) == (4, "medium")


def test_a_size_with_no_puzzle_at_all_cannot_be_started(live_server, page):
    make_puzzle(four_by_four(0), difficulty="easy")
    page.goto(live_server.url + "/")
    page.locator("label.choice", has_text="16×16").click()
    expect(page.get_by_test_id("start")).to_be_disabled()
    expect(page.locator("#level-note")).to_have_text("No 16×16 puzzles yet: pick another size.")
    page.locator("label.choice", has_text="4×4").click()
    expect(page.get_by_test_id("start")).to_be_enabled()
    expect(level(page, "Easy")).to_be_checked()
    expect(page.locator("#level-note")).to_be_hidden()
