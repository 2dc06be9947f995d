"""The setter's bench: draw a puzzle on the Solve page by mouse and by keyboard, watch the
live count change, and play it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from play.models import Game
from puzzles.variants import rules_of
from tests.e2e.boards import park

# A 6x6 whose ten givens leave several solutions, as does either thermometer alone; both
# thermometers together leave one (solution 123456 456123 512634 364512 241365 635241).
GIVENS = ".......5...3..2.......122.1...6...41"
MOUSE_THERMO = [2, 3, 4, 5]  # r1c3 to r1c6
KEYBOARD_THERMO = [33, 27, 21]  # r6c4 up to r4c4


@pytest.fixture(autouse=True)
def _park_running_games(page: Page) -> Iterator[None]:
    yield
    park(page)


def centre(page: Page, cell: int) -> tuple[float, float]:
    box = page.locator(f'#bench-board .cell[data-cell="{cell}"]').bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_puzzle_drawn_by_mouse_and_keyboard_is_counted_live_and_played(live_server, page):
    page.set_viewport_size({"width": 1280, "height": 1100})  # the whole board in view
    page.goto(live_server.url + "/solve/")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    page.get_by_test_id("mode-draw").click()
    verdict = page.get_by_test_id("bench-verdict")
    expect(verdict).to_contain_text("Draw givens or constraints")

    # Givens: click a cell, type its digit.
    for cell, ch in enumerate(GIVENS):
        if ch != ".":
            page.mouse.click(*centre(page, cell))
            page.keyboard.press(ch)
    expect(page.locator("#bench-board .cell.given")).to_have_count(10)
    expect(verdict).to_contain_text("Two or more solutions")

    # A thermometer dragged with the mouse through the middles of its cells.
    page.locator(".bench-tools .choice", has_text="Thermometer").click()
    expect(page.get_by_label("Thermometer")).to_be_checked()
    page.mouse.move(*centre(page, MOUSE_THERMO[0]))
    page.mouse.down()
    for cell in MOUSE_THERMO[1:]:
        page.mouse.move(*centre(page, cell), steps=4)
    page.mouse.up()
    drawn = page.get_by_test_id("bench-list")
    expect(drawn).to_contain_text("Thermometer from r1c3, 4 cells")
    expect(verdict).to_contain_text("Two or more solutions")

    # Another by keyboard: a click selects its bulb, Space adds cells, Escape ends.
    page.mouse.click(*centre(page, KEYBOARD_THERMO[0]))
    page.keyboard.press("Space")
    expect(page.locator("#bench-path")).to_contain_text("Path: 1 cells")
    for _ in KEYBOARD_THERMO[1:]:
        page.keyboard.press("ArrowUp")
        page.keyboard.press("Space")
    page.keyboard.press("Escape")
    expect(drawn).to_contain_text("Thermometer from r6c4, 3 cells")
    expect(verdict).to_contain_text("One solution")
    expect(page.get_by_test_id("bench-export")).to_be_visible()
    expect(page.locator("#bench-sudokupad")).to_have_attribute(
        "href", re.compile(r"^https://sudokupad\.app/fpuzzles")
    )

    page.get_by_test_id("bench-play").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    game = Game.objects.select_related("puzzle").get(
        pk=int(re.search(r"/play/(\d+)/$", page.url).group(1))
    )
    assert game.puzzle.givens == GIVENS
    thermos = [c.to_dict()["cells"] for c in rules_of(game.puzzle).constraints]
    assert sorted(thermos) == sorted([MOUSE_THERMO, KEYBOARD_THERMO])
