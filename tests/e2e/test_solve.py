"""The solve-your-own page: paste or click a puzzle in, and the solver API answers."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from play.models import Game
from solver import format_line, parse
from solver.search.exact import solve
from tests.e2e.boards import four_by_four, hardest_nine, park, sixteen_givens

CLASH = re.compile(r"\bclash\b")


@pytest.fixture(autouse=True)
def _park_running_games(page: Page) -> Iterator[None]:
    yield
    park(page)


def board_text(page: Page) -> str:
    return "".join(text or "." for text in page.locator("#solve-board .cell").all_inner_texts())


def open_solver(page: Page, url: str) -> None:
    page.goto(url + "/solve/")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")


def test_it_solves_the_hardest_shared_puzzle_and_steps_through_it(live_server, page):
    puzzle = hardest_nine()
    open_solver(page, live_server.url)
    page.get_by_label("Type or paste a puzzle").fill(puzzle)
    page.get_by_test_id("solve-button").click()

    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_contain_text("One solution")
    expect(verdict).to_contain_text(re.compile(r"Grade: (Easy|Medium|Hard|Expert|Master)"))
    expected = format_line(solve(parse(puzzle)))
    expect(page.locator("#solve-board .cell.solved").first).to_be_visible()
    assert board_text(page) == expected

    # The logical steps, one at a time: each shows its sentence and lights its cells.
    page.get_by_role("button", name="Start again").click()
    assert board_text(page) == format_line(parse(puzzle))
    page.get_by_role("button", name="Next step").click()
    shown = page.locator("#steps li:not([hidden])")
    expect(shown).to_have_count(1)
    expect(page.locator("#solve-board .cell.hint").first).to_be_visible()
    page.get_by_role("button", name="Next step").click()
    expect(shown).to_have_count(2)


def test_it_says_several_solutions_for_a_grid_with_16_givens(live_server, page):
    grid = sixteen_givens()
    assert sum(ch not in ".0" for ch in grid) == 16
    open_solver(page, live_server.url)
    page.get_by_label("Type or paste a puzzle").fill(grid)
    page.get_by_test_id("solve-button").click()
    expect(page.get_by_test_id("verdict")).to_contain_text("Several solutions")
    expect(page.locator("#play-it")).to_be_hidden()
    expect(page.locator("#solve-board .cell.solved")).to_have_count(0)


def test_clicked_in_clashes_mark_red_and_disable_solve(live_server, page):
    open_solver(page, live_server.url)
    page.locator("label.choice", has_text="4×4").click()
    cells = page.locator("#solve-board .cell")
    expect(cells).to_have_count(16)
    cells.nth(0).click()
    page.keyboard.press("3")
    cells.nth(3).click()  # same row
    page.keyboard.press("3")
    expect(cells.nth(0)).to_have_class(CLASH)
    expect(cells.nth(3)).to_have_class(CLASH)
    expect(page.get_by_test_id("solve-button")).to_be_disabled()
    page.keyboard.press("Backspace")
    expect(cells.nth(0)).not_to_have_class(CLASH)
    expect(page.get_by_test_id("solve-button")).to_be_enabled()


def test_it_starts_a_game_on_the_typed_puzzle(live_server, page):
    puzzle = four_by_four(5)
    open_solver(page, live_server.url)
    page.get_by_label("Type or paste a puzzle").fill(puzzle)
    page.get_by_role("button", name="Load into the grid").click()
    assert board_text(page) == puzzle
    page.get_by_test_id("solve-button").click()
    expect(page.get_by_test_id("verdict")).to_contain_text("One solution")
    page.get_by_role("button", name="Play this puzzle").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    game = Game.objects.select_related("puzzle").get(
        pk=int(re.search(r"/play/(\d+)/$", page.url).group(1))
    )
    assert game.puzzle.givens == puzzle
    expect(page.get_by_role("gridcell")).to_have_count(16)


def test_a_paste_the_solver_cannot_read_keeps_its_error_and_solve_off(live_server, page):
    puzzle = four_by_four(6)
    open_solver(page, live_server.url)
    text = page.get_by_label("Type or paste a puzzle")
    text.fill(puzzle)  # a grid the page reads at once
    assert board_text(page) == puzzle

    # Then a paste it cannot read: Solve must not go on to solve the grid from before.
    text.fill("12x" + "." * 78)
    solve_button = page.get_by_test_id("solve-button")
    solve_button.click()
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_text("cell r1c3: 'x' is not a symbol of a 9x9 grid")
    expect(verdict).to_have_class(re.compile(r"\bbad\b"))
    expect(solve_button).to_be_disabled()
    expect(solve_button).to_have_css("cursor", "not-allowed")
    page.get_by_role("button", name="Load into the grid").click()
    expect(verdict).to_have_text("cell r1c3: 'x' is not a symbol of a 9x9 grid")
    expect(solve_button).to_be_disabled()
    assert board_text(page) == puzzle
    expect(page.locator("#solve-board .cell.solved")).to_have_count(0)

    # Mending the text brings Solve back.
    text.fill("12" + "." * 79)
    expect(solve_button).to_be_enabled()


def test_the_setters_check_shows_two_solutions_apart_and_keeps_a_links_rules(live_server, page):
    from solver.formats.fpuzzles import share_link, to_fpuzzles
    from solver.generation.constrained import make_constrained
    from solver.grid import Shape

    wikipedia = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    open_solver(page, live_server.url)
    page.get_by_label("Type or paste a puzzle").fill(".." + wikipedia[2:])
    page.get_by_test_id("check-button").click()
    expect(page.get_by_test_id("verdict")).to_contain_text("differ in 6 cells")
    expect(page.locator("#solve-board .cell.hint")).to_have_count(6)
    expect(page.locator("#solve-board .cell.solved")).to_have_count(0)

    made = make_constrained("thermometer", Shape.for_size(6), 0)
    assert made is not None
    page.get_by_label("Type or paste a puzzle").fill(
        share_link(to_fpuzzles(made.rules, made.puzzle))
    )
    page.get_by_test_id("check-button").click()
    expect(page.get_by_test_id("verdict")).to_contain_text("One solution")
    expect(page.get_by_test_id("source-note")).to_contain_text("constraints")
    expect(page.locator("#solve-board .cell")).to_have_count(36)
    expect(page.locator("#solve-wrap svg.constraints .c-thermo").first).to_be_attached()
    page.get_by_role("button", name="Play this puzzle").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    game = Game.objects.latest("pk")
    assert game.puzzle.rules["constraints"]
