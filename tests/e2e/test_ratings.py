"""A ranked game in the browser moves the player's rating; the stats chart shows it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from play.models import Game
from ratings.models import PlayerRating
from tests.e2e.boards import BoardDriver, four_by_four, make_puzzle, park
from tests.e2e.test_game import fill_rest, login


@pytest.fixture(autouse=True)
def _park_running_games(page: Page) -> Iterator[None]:
    yield
    park(page)


def test_a_ranked_finish_shows_the_rating_change_and_the_stats_chart(live_server, page):
    puzzle = make_puzzle(four_by_four(0))
    login(page, live_server.url)
    page.goto(live_server.url + "/")
    page.locator("label.choice", has_text="4×4").click()
    page.get_by_test_id("start-mine").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    game = Game.objects.select_related("puzzle").get(pk=int(page.url.rstrip("/").split("/")[-1]))
    assert game.puzzle_id == puzzle.pk and game.ranked
    expect(page.get_by_test_id("puzzle-rating")).to_contain_text("rated ")

    board = BoardDriver(page, 4)
    board.focus()
    board.at = int(page.locator(".cell.selected").get_attribute("data-cell"))
    fill_rest(board, game)

    expect(page.get_by_test_id("result")).to_be_visible()
    rating = PlayerRating.objects.get(user=game.user, size=4)
    after = round(rating.rating)
    assert after > 1500  # a 4x4 solved in seconds beats its even-match time
    expect(page.get_by_test_id("result-rating")).to_contain_text(
        f"1500 → {after} (+{after - 1500})"
    )

    page.goto(live_server.url + "/stats/")
    card = page.get_by_test_id("rating-4")
    expect(card.get_by_test_id("rating-value")).to_have_text(str(after))
    chart = card.get_by_test_id("rating-chart")
    expect(chart).to_be_visible()
    # The line runs from the starting rating to the one this game gave.
    expect(chart.locator("circle.dot title")).to_have_text(["1500", str(after)])


def test_a_killer_game_at_my_level_moves_the_killer_rating_shown_apart(live_server, page):
    from tests.variants.conftest import variant_puzzle

    puzzle = variant_puzzle("killer", size=6, level="easy", seed="e2e-rating")
    login(page, live_server.url)
    page.goto(live_server.url + "/")
    page.locator("label.choice", has_text="Killer").click()
    page.locator("label.choice", has_text="6×6").click()
    page.get_by_test_id("start-mine").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    game = Game.objects.select_related("puzzle").get(pk=int(page.url.rstrip("/").split("/")[-1]))
    assert game.puzzle_id == puzzle.pk

    board = BoardDriver(page, 6)
    board.focus()
    board.at = int(page.locator(".cell.selected").get_attribute("data-cell"))
    fill_rest(board, game)

    expect(page.get_by_test_id("result")).to_be_visible()
    (rating,) = PlayerRating.objects.filter(user=game.user)
    assert (rating.variant, rating.size) == ("killer", 6)
    after = round(rating.rating)
    expect(page.get_by_test_id("result-rating")).to_contain_text(f"1500 → {after}")

    page.goto(live_server.url + "/stats/")
    expect(page.get_by_test_id("rating-6")).to_have_count(0)  # no classic 6x6 rating
    card = page.get_by_test_id("rating-killer-6")
    expect(card.get_by_test_id("rating-value")).to_have_text(str(after))
    card.get_by_test_id("rating-board-link").click()
    expect(page).to_have_url(re.compile(r"board=rating&variant=killer&size=6"))
    expect(page.locator("#lb-variant")).to_have_value("killer")
