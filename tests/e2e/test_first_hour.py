"""The first hour in the browser: every lesson fits a small phone in both languages, the
end-of-game dialog keeps its buttons in view and says why a game is unranked, and axe-core
finds nothing serious in the game page's states."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import Page, expect

from accounts.factories import UserFactory
from play.models import Game, Status
from solver.logic.techniques import ORDER
from tests.e2e.boards import (
    ARTIFACTS_DIR,
    BoardDriver,
    easy_nine,
    empty_cells,
    four_by_four,
    make_puzzle,
)
from tests.e2e.test_axe import GUEST_PAGES, USER_PAGES
from tests.e2e.test_axe import violations as axe_violations
from tests.e2e.test_game import fill_rest
from tests.e2e.test_layout import finished_games

LANGUAGES = {"en": "en", "zh": "zh-Hans"}


@pytest.fixture
def new_page(browser) -> Iterator[Callable[..., Page]]:
    contexts = []

    def make(width: int, language: str = "en", scheme: str = "light", height: int = 800) -> Page:
        context = browser.new_context(
            viewport={"width": width, "height": height},
            color_scheme=scheme,
            extra_http_headers={"Accept-Language": LANGUAGES[language]},
            bypass_csp=True,  # axe-core is injected as a script
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        for page in context.pages:
            park_any(page)
        context.close()


def stocked_bank(per_group: int = 120) -> None:
    """Bank rows for every size and level, each using every technique, so that every
    lesson's frequency table is as long and its numbers as wide as a real bank's."""
    from puzzles.bank import BANK_SIZES, bank_levels
    from puzzles.models import Puzzle, PuzzleTechnique
    from solver.grid import Shape

    slugs = {t.slug: 1 for t in ORDER}
    rows = []
    for size in BANK_SIZES:
        shape = Shape.for_size(size)
        for level in bank_levels(size):
            for i in range(per_group):
                rows.append(
                    Puzzle(
                        size=size,
                        box_rows=shape.box_rows,
                        box_cols=shape.box_cols,
                        givens=f"{level[:2]}{i:04d}".ljust(size * size, "."),
                        solution="1" * size * size,
                        difficulty=level,
                        score=100,
                        techniques=slugs,
                        hardest_technique=ORDER[-1].slug,
                        clue_count=0,
                        canonical_key=f"layout:{size}:{level}:{i}",
                        source="generated",
                    )
                )
    stored = Puzzle.objects.bulk_create(rows)
    PuzzleTechnique.objects.bulk_create(
        PuzzleTechnique(puzzle=p, technique=slug, size=p.size, difficulty=p.difficulty, count=1)
        for p in stored
        for slug in slugs
    )


def overflow(page: Page) -> int:
    """How many pixels the page is wider than the screen (0 when it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def too_wide(page: Page) -> list[str]:
    """The elements whose right edge runs past the screen's, widest first (for a message)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
            .filter((el) => !el.closest('.visually-hidden'))
            .map((el) => `${el.tagName.toLowerCase()}.${el.className}`
                + ` ${Math.round(el.getBoundingClientRect().right)}`)
            .slice(0, 8)"""
    )


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("width", [320, 375])
def test_every_lesson_and_the_lesson_list_fit_a_small_phone(live_server, new_page, width, language):
    stocked_bank()
    page = new_page(width, language)
    wide = {}
    for path in ["/learn/"] + [f"/learn/{t.slug}/" for t in ORDER]:
        page.goto(live_server.url + path)
        if overflow(page) > 0:
            wide[path] = too_wide(page)
        if path == "/learn/x_wing/":
            page.screenshot(
                path=str(ARTIFACTS_DIR / f"lesson-x_wing-{width}-{language}.png"), full_page=True
            )
    assert wide == {}


# ---- The end-of-game dialog ------------------------------------------------------------


def park_any(page: Page) -> None:
    """Pause a running game before its page closes, whatever the page's language."""
    button = page.locator("#pause")
    if button.count() != 1 or not button.is_enabled():
        return
    if "is-paused" not in (button.get_attribute("class") or ""):
        button.click()
        expect(page.locator("body")).to_have_attribute("data-sync", "idle")


def sign_in(page: Page, url: str):
    """A signed-in player whose scripted play the fair-play review leaves alone."""
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="exempt_from_review"))
    page.goto(url + "/accounts/login/")
    page.locator("#id_username").fill(user.username)
    page.locator("#id_password").fill(user.raw_password)
    page.locator("form button[type=submit]").last.click()
    expect(page.get_by_test_id("nav-profile")).to_have_text(user.username)
    return user


def open_game(page: Page, url: str, puzzle_id: int) -> Game:
    """Start (or open) a game of ``puzzle_id`` from the lobby's form, as a player would."""
    page.goto(url + "/")
    page.evaluate(
        """(id) => {
            const form = document.querySelector('form[action="/play/new/"]');
            const input = Object.assign(document.createElement('input'),
                { type: 'hidden', name: 'puzzle', value: String(id) });
            form.appendChild(input);
            form.submit();
        }""",
        puzzle_id,
    )
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    return Game.objects.select_related("puzzle").get(pk=int(page.url.rstrip("/").split("/")[-1]))


def finish(page: Page, game: Game) -> None:
    board = BoardDriver(page, game.puzzle.size)
    board.focus()
    fill_rest(board, game)
    expect(page.get_by_test_id("result")).to_be_visible()


def lines(page: Page, test_id: str) -> float:
    """How many lines of text an element takes (its height over its line height)."""
    return page.get_by_test_id(test_id).evaluate(
        """(el) => {
            const style = getComputedStyle(el);
            const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
            return el.getBoundingClientRect().height / line;
        }"""
    )


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_ranked_finish_on_a_phone_keeps_the_dialog_short(live_server, new_page, language):
    puzzle = make_puzzle(four_by_four(0))
    page = new_page(375, language, "dark", height=667)
    sign_in(page, live_server.url)
    game = open_game(page, live_server.url, puzzle.pk)
    assert game.ranked
    finish(page, game)
    rating = page.get_by_test_id("result-rating")
    expect(rating).to_contain_text("1500 → ")
    expect(page.get_by_test_id("result-rank")).to_contain_text("1")
    # The player's change on one line, the puzzle's on a second: never five.
    assert page.locator(".rating-mine").evaluate("(el) => el.getClientRects().length") == 1
    assert rating.evaluate("(el) => el.getBoundingClientRect().height") < 2.6 * float(
        rating.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize) * 1.3")
    )
    expect(page.locator("#result-close")).to_be_in_viewport(ratio=1)
    expect(page.get_by_test_id("result-note")).to_be_hidden()
    assert overflow(page) == 0
    page.screenshot(path=str(ARTIFACTS_DIR / f"result-375-{language}.png"))
    park_any(page)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_replayed_puzzle_says_in_one_line_why_it_is_unranked(live_server, new_page, language):
    puzzle = make_puzzle(four_by_four(1))
    page = new_page(375, language, height=667)
    user = sign_in(page, live_server.url)
    Game.objects.create(
        user=user, puzzle=puzzle, entries=puzzle.givens, status=Status.ABANDONED, ranked=True
    )
    game = open_game(page, live_server.url, puzzle.pk)
    assert not game.ranked
    finish(page, game)
    note = page.get_by_test_id("result-note")
    # The server's reason (integrity.gate), in the reader's language.
    expect(note).to_have_text(
        "You had played this puzzle before" if language == "en" else "你之前玩过这道题"
    )
    assert lines(page, "result-note") < 1.5
    assert note.evaluate("(el) => el.scrollWidth <= el.clientWidth")  # not cut either
    expect(page.get_by_test_id("result-rank")).to_have_text(
        "Unranked" if language == "en" else "未排名"
    )
    expect(page.locator("#result-close")).to_be_in_viewport(ratio=1)
    page.screenshot(path=str(ARTIFACTS_DIR / f"result-unranked-375-{language}.png"))


def test_a_guest_game_says_why_it_is_unranked(live_server, new_page):
    puzzle = make_puzzle(four_by_four(2))
    page = new_page(375, height=667)
    game = open_game(page, live_server.url, puzzle.pk)
    finish(page, game)
    expect(page.get_by_test_id("result-note")).to_have_text("Played as a guest")
    expect(page.get_by_test_id("result-rank")).to_have_text("Log in to rank")


def test_the_servers_unranked_reason_is_shown_when_the_game_carries_one(live_server, new_page):
    puzzle = make_puzzle(four_by_four(3))
    page = new_page(375, height=667)
    sign_in(page, live_server.url)
    reason = {"code": "too_fast", "message": "Too fast to be reviewed."}

    def with_reason(route):
        response = route.fetch()
        body = response.json()
        game = body.get("game", body)
        if game.get("status") == "completed":
            game["unranked_reason"] = reason
            game["counts"] = False
        route.fulfill(response=response, json=body)

    page.route(re.compile(r"/api/v1/games/\d+/moves/$"), with_reason)
    game = open_game(page, live_server.url, puzzle.pk)
    finish(page, game)
    expect(page.get_by_test_id("result-note")).to_have_text("Too fast to be reviewed.")
    expect(page.get_by_test_id("result-rank")).to_have_text("Unranked")


# ---- Every page, both languages: fits a phone, nothing serious for axe-core ---------------


def violations(page: Page) -> list[str]:
    return axe_violations(page)


def played_nine(page: Page, url: str) -> None:
    """A 9x9 game with notes, corner marks and colours in cells and a hint shown (both
    stages)."""
    puzzle = make_puzzle(easy_nine(5))
    game = open_game(page, url, puzzle.pk)
    board = BoardDriver(page, 9)
    board.focus()
    first, second = empty_cells(game.puzzle.givens)[:2]
    board.go(first)
    for digit in "258":
        page.keyboard.press(f"Control+{digit}")
    board.go(second)
    page.keyboard.press("Shift+3")  # a corner mark
    page.keyboard.press("v")  # colours: two in the cell, one on a given
    for digit in "14":
        page.keyboard.press(digit)
    board.go(next(i for i, ch in enumerate(game.puzzle.givens) if ch != "."))
    page.keyboard.press("5")
    page.keyboard.press("z")
    board.wait_synced()
    expect(page.locator(".cell .notes span:not(:empty)").first).to_be_visible()


def every_page(page: Page, url: str, check: Callable[[str], None], *, signed_in: bool) -> None:
    """Visit every page (and the game page's states), calling ``check(name)`` on each."""
    if not signed_in:
        for path in [*GUEST_PAGES, "/learn/", "/learn/x_wing/", "/games/"]:
            page.goto(url + path)
            check(path)
        return
    for path in [*USER_PAGES, "/learn/", "/learn/x_wing/"]:
        page.goto(url + path)
        check(path)
    played_nine(page, url)
    check("game with notes")
    page.keyboard.press("h")
    expect(page.locator("#hint-panel")).to_be_visible()
    check("game with a hint")
    page.locator("#hint-next").click()
    expect(page.get_by_test_id("hint-lesson")).to_be_visible()
    check("game with the hint's technique")
    park_any(page)
    finished = open_game(page, url, make_puzzle(four_by_four(6)).pk)  # not one finished_games uses
    finish(page, finished)
    check("game with the end-of-game dialog")
    page.goto(f"{url}/play/{finished.pk}/replay/")
    check("replay")
    page.goto(url + "/games/")
    check("/games/ with games in progress")
    page.goto(url + "/learn/x_wing/")
    page.get_by_test_id("practise").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.get_by_test_id("practice-note")).to_be_visible()
    check("practice game")
    park_any(page)


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (375, "dark")])
def test_no_page_in_either_language_has_a_serious_violation_or_scrolls_sideways(
    live_server, new_page, width, scheme, language
):
    for i in range(3):
        make_puzzle(easy_nine(i))
    found: dict[str, list[str]] = {}
    wide: dict[str, list[str]] = {}

    def check(name: str) -> None:
        found[name] = violations(page)
        if overflow(page) > 0:
            wide[name] = too_wide(page)

    page = new_page(width, language, scheme, height=900)
    every_page(page, live_server.url, check, signed_in=False)
    sign_in(page, live_server.url)
    finished_games(UserFactory._meta.model.objects.latest("id"), [95, 80])
    found = {f"guest {k}": v for k, v in found.items()}
    every_page(page, live_server.url, check, signed_in=True)
    page.screenshot(path=str(ARTIFACTS_DIR / f"practice-{width}-{language}.png"), full_page=True)
    assert {name: v for name, v in found.items() if v} == {}
    assert wide == {}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_page_fits_a_320_px_phone(live_server, new_page, language):
    for i in range(3):
        make_puzzle(easy_nine(i))
    wide: dict[str, list[str]] = {}

    def check(name: str) -> None:
        if overflow(page) > 0:
            wide[name] = too_wide(page)

    page = new_page(320, language, height=640)
    every_page(page, live_server.url, check, signed_in=False)
    sign_in(page, live_server.url)
    finished_games(UserFactory._meta.model.objects.latest("id"), [95, 80])
    every_page(page, live_server.url, check, signed_in=True)
    assert wide == {}
