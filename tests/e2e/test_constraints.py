"""A puzzle with constraints in Chromium: imported from f-puzzles, its thermometers drawn,
its cells described, a thermometer clash shown, played to the end, at 375 and 1280 px."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from play.models import Game
from solver.formats.fpuzzles import to_fpuzzles
from solver.generation.constrained import make_constrained
from solver.grid import Shape
from solver.rules.constraints import Thermometer
from tests.e2e.boards import ARTIFACTS_DIR, BoardDriver, park


def _puzzle():
    for seed in range(20):
        made = make_constrained("thermometer", Shape.for_size(6), seed)
        thermos = [c for c in made.rules.constraints if isinstance(c, Thermometer)]
        open_ = [t for t in thermos if not any(made.puzzle.cells[x] for x in t.line[:2])]
        if open_:
            return made, thermos, open_[0]
    raise AssertionError("no thermometer with two open cells")


@pytest.mark.parametrize("width", [375, 1280])
def test_a_thermometer_puzzle_is_drawn_and_played_to_the_end(live_server, browser, width):
    made, thermos, thermo = _puzzle()
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
        answer = page.request.post(
            live_server.url + "/api/v1/games/",
            data=json.dumps({"fpuzzles": to_fpuzzles(made.rules, made.puzzle)}),
            headers={"Content-Type": "application/json", "X-CSRFToken": token},
        )
        assert answer.status == 201, answer.text()
        game_id = answer.json()["id"]
        page.goto(f"{live_server.url}/play/{game_id}/")
        expect(page.locator("body")).to_have_attribute("data-ready", "1")
        expect(page.locator("svg.constraints .c-bulb")).to_have_count(len(thermos))
        driver = BoardDriver(page, 6)
        bulb, step = thermo.line[:2]
        label = driver.cell(step).get_attribute("aria-label") or ""
        assert f"on a thermometer, 2 of {len(thermo.line)} cells from the bulb" in label
        driver.focus()
        driver.put(step, 1)
        driver.put(bulb, 2)
        expect(driver.cell(bulb)).to_have_class(re.compile(r"\bclash\b"))
        page.screenshot(path=str(ARTIFACTS_DIR / f"constraints-thermo-{width}.png"))
        for cell, value in enumerate(made.solution.cells):
            if not made.puzzle.cells[cell]:
                driver.put(cell, value)
        driver.wait_synced()
        expect(page.get_by_test_id("result")).to_contain_text("Solved!")
        assert Game.objects.get(pk=game_id).status == "completed"
        park(page)
    finally:
        context.close()


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
