"""A Chinese reader in the browser: the page follows Accept-Language, the game and its
hints speak Chinese, the switcher changes the language in place, and the choice sticks
after signing in."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from accounts.factories import UserFactory
from accounts.models import LanguagePreference
from play.models import Game
from tests.e2e.boards import (
    ARTIFACTS_DIR,
    BoardDriver,
    easy_nine,
    empty_cells,
    make_puzzle,
    park,
    value_of,
)

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def zh_page(browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 375, "height": 740}, locale="zh-CN")
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    yield page
    park(page)
    context.close()


def switch_to(page: Page, language: str) -> None:
    with page.expect_navigation():
        page.get_by_test_id("language-select").first.select_option(language)


def test_a_chinese_reader_plays_asks_for_a_hint_and_switches_languages(live_server, zh_page):
    page = zh_page
    make_puzzle(easy_nine(0), difficulty="easy")
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.get_by_role("heading", level=1)).to_have_text("玩数独")

    page.locator("label.choice", has_text="9×9").click()
    page.locator("label.choice", has_text="简单").click()
    page.get_by_test_id("start").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    game = Game.objects.select_related("puzzle").get(pk=int(page.url.split("/")[-2]))

    # A move, then a hint: the cells and the hint panel speak Chinese.
    board = BoardDriver(page, 9)
    board.focus()
    cell = empty_cells(game.puzzle.givens)[0]
    board.put(cell, value_of(game.puzzle.solution[cell]))
    board.wait_synced()
    expect(board.cell(cell)).to_have_attribute("aria-label", re.compile(r"^第\d+行第\d+列，"))
    page.locator("#hint").click()
    expect(page.get_by_test_id("hint-panel")).to_be_visible()
    expect(page.locator("#hint-title")).to_have_text("看哪里")
    expect(page.locator("#hint-text")).to_have_text(re.compile(r"^看看第\d+[行列宫]"))
    page.locator("#hint-next").click()
    expect(page.locator("#hint-text")).to_have_text(CJK)
    expect(page.locator("#hint-text")).not_to_have_text(re.compile(r"\b(fits|only|In)\b"))
    # The layout holds on a phone: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS_DIR / "zh-game-375.png"), full_page=True)

    # English and back, on the same page.
    game_url = page.url
    switch_to(page, "en")
    assert page.url == game_url
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#hint")).to_contain_text("Hint")
    switch_to(page, "zh-hans")
    assert page.url == game_url
    expect(page.locator("#hint")).to_contain_text("提示")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_choice_sticks_after_signing_in(live_server, zh_page):
    page = zh_page
    user = UserFactory()
    page.goto(live_server.url + "/accounts/login/")
    expect(page.get_by_role("heading", level=1)).to_have_text("欢迎回来")
    switch_to(page, "en")
    expect(page.get_by_role("heading", level=1)).to_have_text("Welcome back")
    switch_to(page, "zh-hans")
    page.get_by_label("用户名").fill(user.username)
    page.get_by_label("密码").fill(user.raw_password)
    page.get_by_role("button", name="登录").click()
    expect(page.get_by_test_id("nav-profile")).to_have_text(user.username)
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    assert LanguagePreference.objects.get(user=user).language == "zh-hans"

    # On another device whose browser asks for English, the account's choice wins.
    other = page.context.browser.new_context(locale="en-US")
    try:
        laptop = other.new_page()
        laptop.goto(live_server.url + "/accounts/login/")
        laptop.get_by_label("Username").fill(user.username)
        laptop.get_by_label("Password").fill(user.raw_password)
        laptop.get_by_role("button", name="Log in").click()
        expect(laptop.locator("html")).to_have_attribute("lang", "zh-Hans")
        expect(laptop.get_by_role("link", name="统计", exact=True)).to_be_visible()
    finally:
        other.close()
