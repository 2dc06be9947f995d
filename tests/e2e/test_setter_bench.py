"""The setter's bench: draw a puzzle on the Solve page by mouse and by keyboard, watch the
live count change, and play it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from urllib.parse import unquote

import pytest
from playwright.sync_api import Page, expect

from play.models import Game
from puzzles.variants import rules_of
from solver.formats.fpuzzles import from_fpuzzles
from solver.generation.constrained import make_constrained
from solver.grid import Shape
from solver.rules.constraints import KINDS
from solving.bench import puzzle_share
from tests.api.test_setter_check import EXTRA_GIVENS, EXTRA_REGIONS
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


DRAW_EVERY_KIND = """async () => {
  const src = document.querySelector('script[src*="solve.js"]').src;
  const M = await import(src.replace("solve.js", "bench_model.js"));
  const m = M.emptyModel(6);
  m.givens[0] = 1;
  [m.regions[2], m.regions[6]] = [m.regions[6], m.regions[2]];
  const paths = { thermometer: [1, 2, 3], arrow: [6, 7, 8], palindrome: [12, 13, 14],
    renban: [18, 19], whispers: [24, 25], region_sum: [9, 10, 16], between: [30, 31, 32] };
  for (const [tool, path] of Object.entries(paths)) {
    M.addPath(m, tool, path, tool === "whispers" ? 3 : null);
  }
  M.addPath(m, "cage", [34, 35], 7);
  M.addPath(m, "cage", [28, 29], null);
  M.addPath(m, "extra_region", [17, 11, 5], null);
  M.toggleMark(m, "odd", 20);
  M.toggleMark(m, "even", 21);
  const dots = [["white", 4, 5], ["black", 4, 10], ["x", 22, 23], ["v", 26, 27]];
  for (const [tool, a, b] of dots) M.toggleDot(m, tool, a, b);
  M.addSandwich(m, "row", 15, 5);
  M.addSandwich(m, "column", 15, 4);
  M.addLittleKiller(m, "DR", 7, 10);
  M.addLittleKiller(m, "UL", 33, 8);
  for (const name of M.TOGGLES) M.setToggle(m, name, true);
  return { fpuzzles: M.toFpuzzles(m), drawn: M.drawnRules(m) };
}"""


def test_every_kind_the_bench_draws_reads_back_as_drawn(live_server, page):
    """The bench's f-puzzles object (what the check, the games API and SudokuPad read) says
    exactly what the bench drew, for every constraint, cage, region and rule it offers."""
    page.goto(live_server.url + "/solve/")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    got = page.evaluate(DRAW_EVERY_KIND)
    read = from_fpuzzles(got["fpuzzles"])
    drawn = got["drawn"]
    assert {c["type"] for c in drawn["constraints"]} == set(KINDS)
    as_read = sorted(json.dumps(c.to_dict(), sort_keys=True) for c in read.rules.constraints)
    assert as_read == sorted(json.dumps(c, sort_keys=True) for c in drawn["constraints"])
    assert list(read.rules.regions) == drawn["regions"]
    assert [(c.cells, c.total) for c in read.rules.cages] == [((34, 35), 7), ((28, 29), None)]
    assert read.rules.diagonals and read.puzzle.cells[0] == 1


def test_a_shared_link_opens_checked_and_draws_on_from_its_rules(live_server, page):
    made = make_constrained("thermometer", Shape.for_size(6), 0)
    assert made is not None
    link = puzzle_share(made.puzzle, made.rules)["solve_url"]
    page.goto(live_server.url + link)
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.get_by_test_id("verdict")).to_contain_text("One solution")
    expect(page.get_by_role("button", name="Play this puzzle")).to_be_visible()

    page.get_by_test_id("mode-draw").click()
    drawn = page.get_by_test_id("bench-list").locator("li")
    expect(drawn).to_have_count(len(made.rules.constraints))
    expect(page.get_by_test_id("bench-verdict")).to_contain_text("One solution")


def test_a_throttled_check_says_so_and_runs_again_after_its_wait(live_server, page):
    page.goto(live_server.url + "/solve/")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    refusals = []

    def refuse_once(route):
        if refusals:
            route.continue_()
            return
        refusals.append(route.request.url)
        route.fulfill(status=429, headers={"Retry-After": "1"}, json={"error": {}})

    page.route("**/api/v1/solver/check/", refuse_once)
    page.get_by_test_id("mode-draw").click()
    page.locator('#bench-board .cell[data-cell="0"]').click()
    page.keyboard.press("1")
    verdict = page.get_by_test_id("bench-verdict")
    expect(verdict).to_contain_text("Too many checks at once: the next one runs in 1 s.")
    expect(verdict).to_contain_text("Two or more solutions")
    assert len(refusals) == 1


def open_bench(page: Page, url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 1100})
    page.goto(url + "/solve/")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    page.get_by_test_id("mode-draw").focus()
    page.keyboard.press("Enter")
    board_in_view(page)


def board_in_view(page: Page) -> None:
    """The board in the middle of the window."""
    page.get_by_test_id("bench-board").evaluate("(el) => el.scrollIntoView({block: 'center'})")


def cell(page: Page, c: int):
    return page.locator(f'#bench-board .cell[data-cell="{c}"]')


@pytest.mark.parametrize("width", [375, 1280])
def test_extra_regions_drawn_by_pointer_and_keyboard_are_shown_and_counted(
    live_server, page, width
):
    open_bench(page, live_server.url, width)
    verdict = page.get_by_test_id("bench-verdict")
    for c, ch in enumerate(EXTRA_GIVENS):
        if ch != ".":
            page.mouse.click(*centre(page, c))
            page.keyboard.press(ch)
    expect(verdict).to_contain_text("Two or more solutions")

    # By pointer: a drag round the square r1c3, r1c4, r2c4, r2c3 (the cells in any order).
    page.locator(".bench-tools .choice", has_text="Extra region").click()
    board_in_view(page)  # a phone scrolled down to the tools
    first = EXTRA_REGIONS[0]
    page.mouse.move(*centre(page, first[0]))
    page.mouse.down()
    for c in (first[1], first[3], first[2]):
        page.mouse.move(*centre(page, c), steps=4)
    page.mouse.up()
    drawn = page.get_by_test_id("bench-list")
    expect(drawn).to_contain_text("Extra region from r1c3, 4 cells")
    expect(page.locator("#bench-wrap svg.constraints rect.c-extra")).to_have_count(4)
    expect(cell(page, first[3])).to_have_attribute("aria-label", re.compile("in an extra region"))
    expect(verdict).to_contain_text("Two or more solutions")

    # By keyboard, from the cell the drag started on (r1c3) to r4c5, then round its square.
    expect(cell(page, first[0])).to_be_focused()
    for key in ["ArrowDown"] * 3 + ["ArrowRight"] * 2:
        page.keyboard.press(key)
    for key in ["Space", "ArrowRight", "Space", "ArrowDown", "Space", "ArrowLeft", "Space"]:
        page.keyboard.press(key)
    expect(page.locator("#bench-path")).to_contain_text("Path: 4 cells")
    page.keyboard.press("Escape")
    expect(drawn).to_contain_text("Extra region from r4c5, 4 cells")
    expect(page.locator("#bench-wrap svg.constraints rect.c-extra")).to_have_count(8)
    expect(verdict).to_contain_text("One solution")

    # What the check and the exports read: both regions, as drawn.
    href = page.locator("#bench-json").get_attribute("href")
    exported = from_fpuzzles(json.loads(unquote(href.split(",", 1)[1])))
    assert [c.to_dict() for c in exported.rules.constraints] == [
        {"type": "extra_region", "cells": cells} for cells in EXTRA_REGIONS
    ]


@pytest.mark.parametrize("width", [375, 1280])
def test_a_jigsaw_region_is_painted_with_the_keyboard_alone(live_server, page, width):
    open_bench(page, live_server.url, width)
    page.get_by_label("Regions (Jigsaw)").focus()
    page.keyboard.press("Space")
    expect(page.get_by_label("Regions (Jigsaw)")).to_be_checked()
    page.keyboard.press("Shift+Tab")  # back to the board's selected cell, r1c1
    expect(cell(page, 0)).to_be_focused()
    expect(cell(page, 0)).to_have_attribute("aria-label", re.compile("region 1"))
    status = page.locator("#bench-path")
    verdict = page.get_by_test_id("bench-verdict")

    # Pick up r1c3's region (the first box), paint r1c4 into it: seven cells, one short.
    for key in ["ArrowRight", "ArrowRight", "Space"]:
        page.keyboard.press(key)
    expect(status).to_contain_text("Painting region 1")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    expect(cell(page, 3)).to_have_attribute("aria-label", re.compile("region 1"))
    expect(page.locator("#bench-board .cell.hint")).to_have_count(7)
    expect(verdict).to_contain_text("could not read the drawing")
    page.keyboard.press("Escape")
    expect(status).to_have_text("")

    # r2c3 goes to the second box: ] picks the next region, Space paints.
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("]")
    expect(status).to_contain_text("Painting region 2")
    page.keyboard.press("Space")
    page.keyboard.press("Escape")
    expect(cell(page, 8)).to_have_attribute("aria-label", re.compile("region 2"))
    expect(page.get_by_test_id("bench-list")).to_contain_text("Jigsaw regions")
    expect(verdict).to_contain_text("Two or more solutions")
    href = page.locator("#bench-json").get_attribute("href")
    read = from_fpuzzles(json.loads(unquote(href.split(",", 1)[1])))
    assert list(read.rules.regions[:12]) == [0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1]


def test_on_a_phone_the_header_covers_no_row_of_the_grid_scrolled_to_the_top(live_server, page):
    """The links wrap to a row of their own on a phone, and that taller header stays at
    the top of the page: a tap on the top row, scrolled to the top of the window, lands
    on the grid."""
    open_bench(page, live_server.url, 375)
    page.get_by_test_id("bench-board").evaluate("(el) => el.scrollIntoView({block: 'start'})")
    assert page.evaluate("window.scrollY") > 0  # the page did scroll under where a header was
    for c in (0, 4, 8):
        x, y = centre(page, c)
        hit = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('.cell')?.dataset.cell ?? null",
            [x, y],
        )
        assert hit == str(c)
