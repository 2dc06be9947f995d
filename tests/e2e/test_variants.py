"""Diagonal, Jigsaw and Killer games in Chromium: chosen in the lobby, their rules drawn,
a clash inside a cage or on a diagonal shown, played to the end, and axe finds nothing
serious, at 375 and 1280 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from play.models import Game
from puzzles.variants import rules_of
from solver.grid import tables
from tests.e2e.boards import ARTIFACTS_DIR, BoardDriver, park
from tests.e2e.test_axe import violations
from tests.variants.conftest import variant_puzzle

CASES = [
    ("diagonal", 6, 375),
    ("diagonal", 9, 1280),
    ("jigsaw", 6, 1280),
    ("jigsaw", 9, 375),
    ("killer", 6, 375),
    ("killer", 9, 1280),
]
NAMES = {"diagonal": "Diagonal", "jigsaw": "Jigsaw", "killer": "Killer"}


def _clash_pair(puzzle) -> tuple[int, int] | None:
    """An empty cell and a given that only the variant's rules make peers."""
    lay_peers = (
        __import__("solver.rules.ruleset", fromlist=["layout"]).layout(rules_of(puzzle)).peers
    )
    box_peers = tables(puzzle.shape).peers
    for cell, ch in enumerate(puzzle.givens):
        if ch != ".":
            continue
        for other in lay_peers[cell]:
            if puzzle.givens[other] != "." and other not in box_peers[cell]:
                return cell, other
    return None


@pytest.mark.parametrize(("variant", "size", "width"), CASES)
def test_a_variant_game_is_drawn_and_played_to_the_end(live_server, browser, variant, size, width):
    puzzle = variant_puzzle(variant, size=size, level="easy", seed="e2e")
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        page.locator("label.choice", has_text=NAMES[variant]).click()
        page.locator("label.choice", has_text=f"{size}×{size}").click()
        page.locator("label.choice", has_text="Easy").click()
        page.get_by_test_id("start").click()
        expect(page).to_have_url(re.compile(r"/play/\d+/$"))
        expect(page.locator("body")).to_have_attribute("data-ready", "1")
        expect(page.get_by_test_id("variant")).to_have_text(NAMES[variant])
        game = Game.objects.get()
        assert game.puzzle_id == puzzle.pk

        board = page.get_by_test_id("board")
        if variant == "diagonal":
            expect(board.locator(".cell.diag-a")).to_have_count(size)
            expect(board.locator(".cell.diag-b")).to_have_count(size)
        if variant == "jigsaw":
            assert board.locator(".cell.rg-b").count() > 0
            expect(board.locator(".row.bx-b")).to_have_count(0)
        if variant == "killer":
            cages = puzzle.rules["cages"]
            expect(board.locator(".cell[data-sum]")).to_have_count(len(cages))
            first = cages[0]
            corner = board.locator(f'.cell[data-cell="{min(first["cells"])}"]')
            expect(corner).to_have_attribute("data-sum", str(first["sum"]))
            label = f"cage of {len(first['cells'])} cell"
            assert label in (corner.get_attribute("aria-label") or "")
            tints = {
                t
                for t in range(4)
                if board.locator(f".cell.tint-{t}").count() > 0  # touching cages differ
            }
            assert len(tints) >= 2

        driver = BoardDriver(page, size)
        driver.focus()
        pair = _clash_pair(puzzle)
        if pair is not None:  # a clash only the variant's rules see is shown
            cell, given = pair
            driver.put(cell, int(puzzle.givens[given], 36))
            expect(driver.cell(cell)).to_have_class(re.compile(r"\bclash\b"))
            expect(driver.cell(given)).to_have_class(re.compile(r"\bclash\b"))
            page.keyboard.press("Backspace")
        if variant == "killer":
            panel = page.get_by_test_id("cage-panel")
            expect(panel).to_be_visible()
            expect(page.get_by_test_id("cage-sum")).to_contain_text("left")
        assert violations(page) == [], f"axe at {width}px"
        page.screenshot(path=str(ARTIFACTS_DIR / f"variant-{variant}-{size}-{width}.png"))

        for cell, ch in enumerate(puzzle.solution):
            if puzzle.givens[cell] == ".":
                driver.put(cell, int(ch, 36))
        driver.wait_synced()
        result = page.get_by_test_id("result")
        expect(result).to_be_visible()
        expect(result).to_contain_text("Solved!")
        game.refresh_from_db()
        assert game.status == "completed"
        assert game.entries == puzzle.solution
        park(page)
    finally:
        context.close()


SUM_CLEAR_OF_MARKS = """() => [...document.querySelectorAll('.cell[data-sum]')].map((cell) => {
    const sum = getComputedStyle(cell, '::after');
    const sumBottom = cell.getBoundingClientRect().top + parseFloat(sum.top)
        + parseFloat(sum.fontSize) * parseFloat(sum.lineHeight === 'normal' ? 1.2 : 1);
    const first = cell.querySelector('.notes span');
    return first ? first.getBoundingClientRect().top - sumBottom : null;
}).filter((gap) => gap !== null)"""

SELECT_FITS = """() => {
    const select = document.querySelector('[data-testid=language-select]');
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(select).font;
    probe.style.position = 'absolute';
    probe.textContent = select.selectedOptions[0].textContent;
    document.body.append(probe);
    const text = probe.getBoundingClientRect().width;
    probe.remove();
    // The select's arrow takes about 16 px of its width besides the text and padding.
    const style = getComputedStyle(select);
    const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    return select.clientWidth - pad - 16 - text;
}"""


@pytest.mark.parametrize(
    ("variant", "width", "locale"),
    [("killer", 320, "zh-CN"), ("diagonal", 320, "en-US"), ("jigsaw", 375, "zh-CN"),
     ("killer", 375, "en-US")],
)  # fmt: skip
def test_a_variant_page_on_a_small_phone_in_dark_mode_reads_whole(
    live_server, browser, variant, width, locale
):
    """Dark, at 320 and 375 px, in both languages, each variant: the variant chip has
    contrast (axe), no cage sum covers a pencil mark, the language's name is not clipped,
    and the end dialog's note wraps."""
    puzzle = variant_puzzle(variant, size=6, level="easy", seed="e2e")
    context = browser.new_context(
        viewport={"width": width, "height": 568 if width == 320 else 667},
        color_scheme="dark",
        locale=locale,
        bypass_csp=True,
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        for name, value in (("variant", variant), ("size", "6"), ("difficulty", "easy")):
            choice = page.locator(f'input[name={name}][value="{value}"]')
            page.locator("label.choice", has=choice).click()
        page.get_by_test_id("start").click()
        expect(page.locator("body")).to_have_attribute("data-ready", "1")
        assert Game.objects.get().puzzle_id == puzzle.pk
        assert page.evaluate(SELECT_FITS) >= 0
        page.once("dialog", lambda dialog: dialog.accept())  # what Auto notes costs
        page.locator("#auto-notes").click()
        if variant == "killer":
            expect(page.locator(".cell[data-sum] .notes").first).to_be_visible()
            gaps = page.evaluate(SUM_CLEAR_OF_MARKS)
            assert gaps and min(gaps) >= -0.5, gaps
        assert violations(page) == []

        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_test_id("give-up").click()
        note = page.get_by_test_id("result-note")
        expect(note).to_be_visible()
        page.evaluate(
            "document.getElementById('result-note').textContent += ' ' + "
            "document.getElementById('result-note').textContent"
        )
        assert note.evaluate("(el) => el.scrollWidth <= el.clientWidth")
        assert note.evaluate("(el) => el.getBoundingClientRect().height") > 20  # two lines
        assert violations(page) == []
        shot = ARTIFACTS_DIR / f"{variant}-{width}-dark-{locale}.png"
        page.screenshot(path=str(shot), full_page=True)
    finally:
        context.close()
