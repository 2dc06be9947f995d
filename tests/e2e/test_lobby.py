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


def test_the_daily_with_constraints_is_played_from_the_lobby_and_says_it_is_not_rated(
    live_server, page
):
    from django.utils import timezone

    from puzzles.constraint_daily import constraint_daily_make
    from puzzles.models import DailyPuzzle
    from tests.puzzles.test_constraint_daily import THERMO_DAY

    puzzle = constraint_daily_make(day=THERMO_DAY, seconds=10)  # a thermometer puzzle
    assert puzzle is not None
    DailyPuzzle.objects.create(date=timezone.localdate(), size=9, puzzle=puzzle, constrained=True)
    page.goto(live_server.url + "/")
    entry = page.locator('li[data-variant="constrained"]')
    expect(entry).to_contain_text("With constraints: Thermometer")
    expect(entry.get_by_test_id("daily-level")).to_have_text(f"· {puzzle.get_difficulty_display()}")
    expect(entry.get_by_test_id("daily-not-rated")).to_have_text("· not rated")

    page.get_by_test_id("daily-constrained").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.locator("#game-heading")).to_contain_text("Daily puzzle with constraints")
    expect(page.get_by_test_id("not-rated-note")).to_have_text(
        "Not rated: no board or rating is kept for puzzles with constraints."
    )
    game = Game.objects.select_related("puzzle").get()
    assert game.puzzle_id == puzzle.pk
