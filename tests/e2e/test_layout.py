"""How the pages look: screenshots at desktop and phone widths, light and dark, saved to
test-artifacts/ for review, and a check that nothing overflows a 375 px wide screen."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from accounts.factories import UserFactory
from play.lifecycle import Player, game_start
from play.models import Game, Status
from tests.e2e.boards import (
    ARTIFACTS_DIR,
    BoardDriver,
    easy_nine,
    empty_cells,
    make_puzzle,
    park,
    sixteen_by_sixteen,
    value_of,
)


@pytest.fixture
def new_page(browser) -> Iterator:
    contexts = []

    def make(width: int, height: int, scheme: str = "light") -> Page:
        context = browser.new_context(
            viewport={"width": width, "height": height}, color_scheme=scheme
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        for page in context.pages:
            park(page)
        context.close()


def overflow(page: Page) -> int:
    """How many pixels the page is wider than the screen (0 when it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def play_a_little(page: Page, url: str, size_label: str, size: int) -> None:
    """Start a game from the lobby and make it look played: entries, a mistake, notes."""
    page.goto(url + "/")
    page.locator("label.choice", has_text=size_label).click()
    page.locator("label.choice", has_text="Easy").click()
    page.get_by_test_id("start").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    game = Game.objects.select_related("puzzle").get(
        pk=int(re.search(r"/play/(\d+)/$", page.url).group(1))
    )
    solution = game.puzzle.solution
    board = BoardDriver(page, size)
    board.focus()
    blanks = empty_cells(game.puzzle.givens)
    for cell in blanks[:4]:
        board.put(cell, value_of(solution[cell]))
    wrong_cell = blanks[4]
    right = value_of(solution[wrong_cell])
    board.put(wrong_cell, 1 if right != 1 else 2)
    board.go(blanks[5])
    for digit in "2589"[: 3 if size > 4 else 2]:
        page.keyboard.press(f"Control+{digit if int(digit) <= size else 1}")
    board.go(blanks[0])
    board.wait_synced()
    expect(page.locator(".cell.wrong")).to_have_count(1)


@pytest.mark.parametrize(
    ("width", "height", "scheme"),
    [(1280, 860, "light"), (375, 812, "light"), (1280, 860, "dark"), (375, 812, "dark")],
)
def test_the_9x9_board_fits_and_is_saved_as_a_screenshot(
    live_server, new_page, width, height, scheme
):
    make_puzzle(easy_nine(3), difficulty="easy")
    page = new_page(width, height, scheme)
    play_a_little(page, live_server.url, "9×9", 9)
    board = page.get_by_test_id("board").bounding_box()
    assert board is not None
    assert board["width"] <= width
    assert overflow(page) == 0
    suffix = "" if scheme == "light" else "-dark"
    page.screenshot(path=str(ARTIFACTS_DIR / f"board-{width}{suffix}.png"), full_page=True)
    # The lobby now offers to continue that game.
    page.goto(live_server.url + "/")
    expect(page.get_by_test_id("continue")).to_contain_text("Easy 9×9")
    assert overflow(page) == 0
    page.screenshot(path=str(ARTIFACTS_DIR / f"lobby-{width}{suffix}.png"), full_page=True)


def test_the_16x16_board_fits_a_phone_and_shows_letters_or_numbers(live_server, new_page):
    make_puzzle(sixteen_by_sixteen(0), difficulty="easy")
    page = new_page(375, 812)
    play_a_little(page, live_server.url, "16×16", 16)
    assert overflow(page) == 0
    page.screenshot(path=str(ARTIFACTS_DIR / "board-16x16-375.png"), full_page=True)
    letters = page.locator(".cell.given .v").all_inner_texts()
    assert any(text in "ABCDEFG" for text in letters)
    page.get_by_label(re.compile("Show values as numbers")).check()
    numbers = page.locator(".cell.given .v").all_inner_texts()
    assert all(text.isdigit() for text in numbers)
    assert any(int(text) >= 10 for text in numbers)
    wide = new_page(1280, 1000, "dark")
    play_a_little(wide, live_server.url, "16×16", 16)
    wide.screenshot(path=str(ARTIFACTS_DIR / "board-16x16-1280-dark.png"), full_page=True)


CONTRAST = """(el) => {
    // WCAG contrast between an element's text colour and its cell's background.
    const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => {
        const f = (c) => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const fg = lum(rgb(getComputedStyle(el).color));
    const bg = lum(rgb(getComputedStyle(el.closest(".cell")).backgroundColor));
    return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_notes_on_the_selected_cell_keep_enough_contrast(live_server, new_page, scheme):
    make_puzzle(easy_nine(4), difficulty="easy")
    page = new_page(1280, 900, scheme)
    play_a_little(page, live_server.url, "9×9", 9)
    noted = page.locator(".cell:has(.notes span:not(:empty))").first
    noted.click()
    expect(noted).to_have_class(re.compile(r"\bselected\b"))
    page.wait_for_timeout(200)  # the background's transition
    notes = noted.locator(".notes")
    assert notes.evaluate(CONTRAST) >= 4.5  # WCAG AA for text this small


def test_a_hint_asked_for_on_a_phone_comes_into_view(live_server, new_page):
    make_puzzle(easy_nine(0), difficulty="easy")
    page = new_page(390, 844)
    page.goto(live_server.url + "/")
    page.locator("label.choice", has_text="9×9").click()
    page.locator("label.choice", has_text="Easy").click()
    page.get_by_test_id("start").click()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    board = BoardDriver(page, 9)
    board.focus()
    assert page.evaluate("window.scrollY") == 0
    page.keyboard.press("h")  # a key, so nothing but the page itself scrolls
    panel = page.locator("#hint-panel")
    expect(panel).to_be_visible()
    expect(panel).to_be_in_viewport(ratio=1)
    page.screenshot(path=str(ARTIFACTS_DIR / "hint-390.png"))


@pytest.mark.parametrize("path", ["/", "/solve/", "/stats/", "/leaderboards/"])
def test_the_other_pages_fit_a_phone(live_server, new_page, path):
    page = new_page(375, 812)
    page.goto(live_server.url + path)
    expect(page.locator("main h1").first).to_be_visible()
    assert overflow(page) == 0
    name = path.strip("/") or "lobby"
    page.screenshot(path=str(ARTIFACTS_DIR / f"{name}-375.png"), full_page=True)


def test_the_drawing_bench_fits_a_phone_in_the_dark_at_16x16(live_server, new_page):
    page = new_page(375, 812, "dark")
    page.goto(live_server.url + "/solve/")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    page.get_by_test_id("mode-draw").click()
    page.locator("#bench label.choice", has_text="16×16").click()
    expect(page.locator("#bench-board .cell")).to_have_count(256)
    assert overflow(page) == 0
    page.screenshot(path=str(ARTIFACTS_DIR / "bench-375-dark.png"), full_page=True)


@pytest.mark.parametrize("width", [320, 375])
@pytest.mark.parametrize("signed_in", [False, True])
def test_every_navigation_link_shows_whole_on_a_small_phone(
    live_server, new_page, width, signed_in
):
    page = new_page(width, 640)
    if signed_in:
        user = UserFactory(username="a-rather-long-name")
        page.goto(live_server.url + "/accounts/login/")
        page.fill("#id_username", user.username)
        page.fill("#id_password", user.raw_password)
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_test_id("nav-profile")).to_be_visible()
    page.goto(live_server.url + "/")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.nav a, .nav button')].filter((el) => {
            const box = el.getBoundingClientRect();
            const list = el.closest('ul') || document.body;
            const room = list.getBoundingClientRect();
            return box.left < Math.max(0, room.left) - 0.5
                || box.right > Math.min(window.innerWidth, room.right) + 0.5;
        }).map((el) => el.textContent.trim())"""
    )
    assert cut == []
    assert overflow(page) == 0
    page.screenshot(path=str(ARTIFACTS_DIR / f"nav-{width}-{int(signed_in)}.png"))


def finished_games(user, times_s: list[int]) -> None:
    """Completed games of the shared 4x4 set, one a day back from today."""
    from datetime import timedelta

    from django.utils import timezone

    from tests.e2e.boards import four_by_four

    for i, seconds in enumerate(times_s):
        puzzle = make_puzzle(four_by_four(20 + i), difficulty="easy")
        game, _ = game_start(player=Player(user=user), puzzle_id=puzzle.pk)
        game.status = Status.COMPLETED
        game.elapsed_ms = seconds * 1000
        game.score = 300 - seconds
        game.running_since = None
        game.finished = timezone.now() - timedelta(days=len(times_s) - 1 - i)
        game.save()


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (375, "dark")])
def test_stats_with_solves_draw_a_chart_and_fit(live_server, new_page, width, scheme):
    user = UserFactory()
    finished_games(user, [95, 80, 120, 70, 64, 58])
    page = new_page(width, 900, scheme)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(user.raw_password)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + "/stats/")
    expect(page.locator("svg.chart circle.dot")).to_have_count(6)
    expect(page.get_by_test_id("stats-table")).to_contain_text("Easy 4×4")
    assert overflow(page) == 0
    # The chart's labels stay readable when the chart shrinks to a phone, and none is cut
    # off at the chart's edge.
    labels = page.evaluate(
        """() => {
            const chart = document.querySelector('svg.chart').getBoundingClientRect();
            return [...document.querySelectorAll('svg.chart text')].map((t) => {
                const box = t.getBoundingClientRect();
                const scale = chart.width / t.ownerSVGElement.viewBox.baseVal.width;
                return {
                    text: t.textContent,
                    px: parseFloat(getComputedStyle(t).fontSize) * scale,
                    inside: box.left >= chart.left - 0.5 && box.right <= chart.right + 0.5,
                };
            });
        }"""
    )
    assert labels and all(label["inside"] for label in labels), labels
    assert min(label["px"] for label in labels) >= 11, labels
    page.screenshot(path=str(ARTIFACTS_DIR / f"stats-{width}-{scheme}.png"), full_page=True)


EDGE_SHADE = """async (png) => {
    // How dark the table's left and right edges are (0 white .. 255 black), a strip just
    // inside the border, read from a screenshot of it.
    const bytes = Uint8Array.from(atob(png), (ch) => ch.charCodeAt(0));
    const image = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const shade = (x0) => {
        const { data } = context.getImageData(x0, 4, 6, image.height - 8);
        let sum = 0;
        for (let i = 0; i < data.length; i += 4) {
            sum += 255 - (data[i] + data[i + 1] + data[i + 2]) / 3;
        }
        return sum / (data.length / 4);
    };
    return [shade(2), shade(image.width - 8)];
}"""


def edge_shades(page: Page, decoder: Page, locator) -> tuple[float, float]:
    left, right = decoder.evaluate(EDGE_SHADE, base64.b64encode(locator.screenshot()).decode())
    return left, right


def test_a_table_wider_than_a_phone_shades_the_edge_it_scrolls_towards(live_server, new_page):
    user = UserFactory()
    finished_games(user, [95, 80, 120])
    page = new_page(320, 700)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(user.raw_password)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + "/stats/")
    wrap = page.locator(".table-wrap")
    assert wrap.evaluate("(el) => el.scrollWidth - el.clientWidth") > 20  # it does scroll
    wrap.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS_DIR / "stats-table-320.png"))
    # Read the edges without the text: hide it (the CSP allows styles set from script).
    wrap.evaluate(
        "(el) => el.querySelectorAll('th, td').forEach((c) => (c.style.color = 'transparent'))"
    )
    decoder = new_page(100, 100)

    left, right = edge_shades(page, decoder, wrap)
    assert right > left + 8, (left, right)  # more to the right
    wrap.evaluate("(el) => (el.scrollLeft = el.scrollWidth)")
    left, right = edge_shades(page, decoder, wrap)
    assert left > right + 8, (left, right)  # scrolled to the end: more to the left only


def overlap(a: dict, b: dict) -> bool:
    """Whether two bounding boxes share any area."""
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize("width", [320, 375, 1280])
def test_the_notes_badge_leaves_the_pencil_in_view(live_server, new_page, width):
    make_puzzle(easy_nine(0), difficulty="easy")
    page = new_page(width, 800)
    page.goto(live_server.url + "/")
    page.get_by_test_id("start").click()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    notes = page.locator("#notes-toggle")
    for state in ("OFF", "ON"):
        expect(notes.locator(".badge")).to_have_text(state)
        badge = notes.locator(".badge").bounding_box()
        pencil = notes.locator("svg").bounding_box()
        assert badge and pencil
        assert not overlap(badge, pencil), (state, badge, pencil)
        notes.click()
    tools = page.locator(".tools").bounding_box()
    assert tools
    around = {"x": tools["x"], "y": tools["y"] - 16, "width": tools["width"], "height": 100}
    page.screenshot(path=str(ARTIFACTS_DIR / f"notes-badge-{width}.png"), clip=around)


FIRST_SCREEN = """() => {
    const box = (id) => document.getElementById(id).getBoundingClientRect();
    const board = box('board'), pad = box('pad');
    return {
        top: board.top, bottom: Math.max(board.bottom, pad.bottom),
        right: Math.max(board.right, pad.right), height: innerHeight, width: innerWidth,
        wide: document.documentElement.scrollWidth - innerWidth,
    };
}"""


def test_while_playing_on_a_phone_the_board_and_pad_fit_the_first_screen(live_server, browser):
    """Portrait 375x667 and 320x568, and landscape 667x375: the whole board and the number
    pad are on screen without scrolling, a tap on the bottom row keeps the board there, and
    the compact header leaves axe nothing serious."""
    from tests.e2e.test_axe import violations

    make_puzzle(easy_nine(0), difficulty="easy")
    context = browser.new_context(viewport={"width": 375, "height": 667}, bypass_csp=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.locator("label.choice", has_text="9×9").click()
    page.locator("label.choice", has_text="Easy").click()
    page.get_by_test_id("start").click()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    for width, height in ((375, 667), (320, 568), (667, 375)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(ARTIFACTS_DIR / f"game-first-screen-{width}x{height}.png"))
        fit = page.evaluate(FIRST_SCREEN)
        assert fit["top"] >= 0 and fit["bottom"] <= fit["height"], (width, height, fit)
        assert fit["right"] <= fit["width"] and fit["wide"] <= 0, (width, height, fit)
        page.locator('.cell[data-cell="76"]').click()  # the bottom row
        fit = page.evaluate(FIRST_SCREEN)
        assert fit["top"] >= 0 and fit["bottom"] <= fit["height"], (width, height, fit)
        assert violations(page) == [], (width, height)
    park(page)
    context.close()
