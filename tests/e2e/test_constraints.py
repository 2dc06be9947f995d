"""Puzzles with constraints in Chromium: one game per constraint type (and killer cages
without sums) imported from f-puzzles, its drawing and words shown, a clash with the
constraint shown, played to the end through the keyboard, at 375 and 1280 px."""

from __future__ import annotations

import json
import random
import re
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.db import connections
from django.test.utils import modify_settings
from playwright.sync_api import expect

from play.models import Game
from solver.formats.fpuzzles import to_fpuzzles
from solver.grid import Shape
from tests.e2e.boards import ARTIFACTS_DIR, BoardDriver, park
from tests.e2e.constraint_games import KINDS, SIZE, ConstraintGame, build

BACKGROUND = """(el) => {
  for (let at = el; at; at = at.parentElement) {
    const bg = getComputedStyle(at).backgroundColor;
    if (bg && bg !== "transparent" && !bg.endsWith(", 0)")) return bg;
  }
  return getComputedStyle(document.body).backgroundColor;
}"""
PAINT = """(el) => {
  const s = getComputedStyle(el);
  return s.stroke && s.stroke !== "none" && el.tagName !== "text" ? s.stroke : s.fill;
}"""


def _rgba(text: str) -> tuple[float, ...]:
    parts = [float(x) for x in re.findall(r"[\d.]+", text)]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)


def _apart(paint: str, background: str) -> float:
    """How far the paint, laid over the background, lands from it (0-255 per channel)."""
    *ink, alpha = _rgba(paint)
    bg = _rgba(background)[:3]
    return max(abs(alpha * i + (1 - alpha) * b - b) for i, b in zip(ink, bg, strict=True))


@pytest.fixture(scope="module")
def one_server(request, django_db_setup, django_db_blocker):
    """The live server and its database for all the games of this module, emptied once at
    the end rather than after each game as pytest-django does for a test that asks for
    ``live_server`` (a flush costs over a second here; each game only adds rows of its
    own, so none sees another's). The server is asked for by name inside the fixture, so
    the tests do not list it and pytest-django leaves them be."""
    with django_db_blocker.unblock():
        server = request.getfixturevalue("live_server")
        host = urlsplit(server.url).hostname
        try:
            with modify_settings(ALLOWED_HOSTS={"append": host}):
                yield server
        finally:
            call_command("flush", interactive=False, verbosity=0)
            connections.close_all()  # or the test database could not be dropped after


@pytest.fixture(scope="module")
def player(one_server, browser):
    """One player's tab (its session in a browser context) for all the games of this
    module, each opened in turn as a player would."""
    context = browser.new_context(viewport={"width": 375, "height": 667}, bypass_csp=True)
    context.set_default_timeout(10_000)
    context.request.get(one_server.url + "/")  # the session and the CSRF cookie
    try:
        yield context.new_page()
    finally:
        context.close()


def _open_game(page, server, game: ConstraintGame) -> int:
    """Import the f-puzzles text as the player's new game and open its page."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    answer = page.request.post(
        server.url + "/api/v1/games/",
        data=json.dumps({"fpuzzles": game.fpuzzles}),
        headers={"Content-Type": "application/json", "X-CSRFToken": token},
    )
    assert answer.status == 201, answer.text()
    game_id = answer.json()["id"]
    page.goto(f"{server.url}/play/{game_id}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    return game_id


SHOWN = """([svg, words, cell]) => {
  const board = document.querySelector(".board-wrap");
  board.scrollIntoView({ block: "nearest" });
  const box = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    const seen = r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
    return seen ? { left: r.left, right: r.right, top: r.top, bottom: r.bottom } : null;
  };
  const items = [...document.querySelectorAll(".constraint-rules li")];
  const label = cell === null ? null : document.querySelector(`.cell[data-cell="${cell}"]`);
  return {
    board: box(board),
    drawing: svg ? box(document.querySelector(`svg.constraints ${svg}`)) : null,
    listed: cell === null ? box(items.find((li) => li.textContent.includes(words))) : null,
    label: label && label.getAttribute("aria-label"),
    cage: label !== null && label.classList.contains("cage"),
    height: innerHeight,
    sideways: document.documentElement.scrollWidth - innerWidth,
  };
}"""


def _drawn_in_view(page, game: ConstraintGame, width: int) -> None:
    """The board and the constraint's drawing (or the words under the board) are shown
    inside the viewport's width, the board whole on the screen; the page does not scroll
    sideways; the cell's screen-reader label says where it sits on the constraint. (One
    round trip: the page is read at once.)"""
    d = game.drawing
    got = page.evaluate(SHOWN, [d.svg, d.words, d.cell if d.where == "cell" else None])
    shown = [got["board"]] + ([got["drawing"]] if d.svg else [])
    if d.where == "list":
        shown.append(got["listed"])
    else:
        assert d.words in got["label"], (game.kind, got["label"])
        assert got["cage"] or game.kind != "killer_sumless"
    for box in shown:
        assert box and box["left"] >= 0 and box["right"] <= width, (game.kind, got)
    assert got["board"]["top"] >= 0 and got["board"]["bottom"] <= got["height"], got
    assert got["sideways"] <= 0, got


def _legible_in_the_dark(page, game: ConstraintGame) -> None:
    """In the dark theme the drawing's ink stands off the board behind it as well as it
    does in the light one, near enough (a tint, the extra region's, is faint in both).
    The page stays dark after (the caller turns it light again)."""
    if not game.drawing.svg:
        return
    item = page.locator(f"svg.constraints {game.drawing.svg}").first
    seen = {}
    for scheme in ("light", "dark"):
        if scheme == "dark":
            page.emulate_media(color_scheme="dark")
        paint, background = item.evaluate(f"(el) => [({PAINT})(el), ({BACKGROUND})(el)]")
        seen[scheme] = (_apart(paint, background), paint, background)
    assert seen["dark"][0] >= max(15, 0.75 * seen["light"][0]), (game.kind, seen)


PAGE_CLASHES = """async (states) => {
  const C = await import("/static/js/constraints.js");
  const puzzle = JSON.parse(document.getElementById("game-data").textContent).game.puzzle;
  return states.map((values) => [...C.constraintClashes(puzzle, values)].sort((a, b) => a - b));
}"""


def _states(game: ConstraintGame, count: int = 150) -> list[list[int]]:
    """Boards a player might reach: the solution with cells emptied and cells changed."""
    rng = random.Random(game.kind)
    n, cells = SIZE, game.solution.cells
    out = []
    for _ in range(count):
        values = [0 if rng.random() < rng.random() else v for v in cells]
        for c in rng.sample(range(n * n), rng.randrange(1, 4)):
            values[c] = rng.randrange(n + 1)
        out.append(values)
    return out


def _page_sees_the_engines_clashes(page, game: ConstraintGame) -> None:
    """The page's clashes (static/js/constraints.js) are the engine's, cell for cell
    (``Constraint.clashes``, what the server holds a board to), on many boards."""
    states = _states(game)
    seen = page.evaluate(PAGE_CLASHES, states)
    rules = game.rules
    for values, got in zip(states, seen, strict=True):
        want = sorted(
            {c for con in rules.constraints for g in con.clashes(rules, values) for c in g}
        )
        assert got == want, (game.kind, values, got, want)


@pytest.mark.django_db  # the test database (the games are the live server's, committed)
@pytest.mark.parametrize("kind", KINDS)
def test_each_constraint_is_drawn_clashes_and_is_played_to_the_end(one_server, player, kind):
    """Half the game at 375 px, the rest at 1280: each width sees the drawing; a wrong
    entry that breaks only the constraint shows a clash; the last entry solves it."""
    game = build(kind)
    page = player
    page.set_viewport_size({"width": 375, "height": 667})
    try:
        game_id = _open_game(page, one_server, game)
        _drawn_in_view(page, game, 375)
        _page_sees_the_engines_clashes(page, game)
        driver = BoardDriver(page, SIZE)
        driver.focus()
        cell, value = game.wrong
        driver.put(cell, value)
        expect(driver.cell(cell)).to_have_class(re.compile(r"\bclash\b"))
        expect(driver.cell(cell)).to_have_attribute("aria-label", re.compile("clashes"))
        order = [cell, *(c for c in game.open_cells if c != cell)]
        half = len(order) // 2
        for c in order[:half]:
            driver.put(c, game.solution.cells[c], check=False)
        expect(driver.cell(cell)).not_to_have_class(re.compile(r"\bclash\b"))
        page.set_viewport_size({"width": 1280, "height": 800})
        _drawn_in_view(page, game, 1280)
        _legible_in_the_dark(page, game)
        for c in order[half:]:
            driver.put(c, game.solution.cells[c], check=False)
        driver.wait_synced()
        expect(page.get_by_test_id("result")).to_contain_text("Solved!")
        assert Game.objects.get(pk=game_id).status == "completed"
    finally:
        park(page)
        if game.drawing.svg:
            page.emulate_media(color_scheme="light")


def test_every_kind_of_constraint_is_drawn_legibly(live_server, browser):
    import random

    from solver.generation.constrained import draw_constraints
    from solver.grid import Grid
    from solver.rules.ruleset import Rules
    from solver.search.exact import random_solution

    rng = random.Random(5)
    shape = Shape.for_size(9)
    solution = random_solution(shape, rng)
    cons = []
    for kind in ("thermometer", "arrow", "kropki", "xv", "parity", "little_killer", "sandwich",
                 "palindrome", "renban", "whispers", "region_sum", "between"):  # fmt: skip
        cons += draw_constraints(kind, solution, rng)[:2]
    rules = Rules.make(shape, constraints=cons)
    givens = Grid(shape, tuple(v if i % 2 else 0 for i, v in enumerate(solution.cells)))
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
        answer = page.request.post(
            live_server.url + "/api/v1/games/",
            data=json.dumps({"fpuzzles": to_fpuzzles(rules, givens)}),
            headers={"Content-Type": "application/json", "X-CSRFToken": token},
        )
        assert answer.status == 201, answer.text()
        page.goto(f"{live_server.url}/play/{answer.json()['id']}/")
        expect(page.locator("body")).to_have_attribute("data-ready", "1")
        svg = page.locator("svg.constraints")
        expect(svg.locator(".c-dot")).to_have_count(sum(1 for c in cons if c.kind == "kropki"))
        expect(svg.locator(".c-xv")).to_have_count(sum(1 for c in cons if c.kind == "xv"))
        expect(page.locator(".constraint-rules li")).to_have_count(
            sum(1 for c in cons if c.kind in ("little_killer", "sandwich"))
        )
        page.screenshot(path=str(ARTIFACTS_DIR / "constraints-every-kind-1280.png"))
    finally:
        context.close()
