"""axe-core over every page, as a guest and signed in, at 1280 and 375 px, light and dark:
no violation of serious or critical impact.

axe-core is vendored in tests/e2e/vendor/ (axe.min.js from npm's axe-core, its licence
beside it) and injected into each page; the pages' Content-Security-Policy allows no inline
script, so the test's browser context bypasses it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from accounts.factories import UserFactory
from tests.e2e.boards import easy_nine, hardest_nine, make_puzzle, park
from tests.e2e.test_layout import finished_games

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
BLOCKING = ("serious", "critical")
GUEST_PAGES = [
    "/",
    "/solve/",
    "/stats/",
    "/leaderboards/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/sent/",
    "/accounts/password/reset/MQ/not-a-token/",
    "/accounts/password/reset/done/",
    "/no-such-page/",
]
USER_PAGES = [
    "/",
    "/solve/",
    "/stats/",
    "/leaderboards/",
    "/accounts/profile/",
    "/accounts/password/change/",
    "/accounts/password/change/done/",
    "/accounts/delete/",
    "/no-such-page/",
]


def violations(page: Page) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{v['id']} ({v['impact']}): {[' '.join(n['target']) for n in v['nodes']][:5]}"
        for v in found
        if v["impact"] in BLOCKING
    ]


def start_game(page: Page, url: str) -> None:
    page.goto(url + "/")
    page.locator("label.choice", has_text="9×9").click()
    page.locator("label.choice", has_text="Easy").click()
    page.get_by_test_id("start").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "1")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("signed_in", [False, True], ids=["guest", "user"])
def test_no_page_has_a_serious_accessibility_violation(
    live_server, browser, signed_in, width, scheme
):
    for i in range(3):
        make_puzzle(easy_nine(i))
    context = browser.new_context(
        viewport={"width": width, "height": 900}, color_scheme=scheme, bypass_csp=True
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    url = live_server.url
    pages = GUEST_PAGES
    if signed_in:
        user = UserFactory()
        finished_games(user, [95, 80, 120])
        page.goto(url + "/accounts/login/")
        page.get_by_label("Username").fill(user.username)
        page.get_by_label("Password").fill(user.raw_password)
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_test_id("nav-profile")).to_have_text(user.username)
        pages = USER_PAGES
    found = {}
    try:
        for path in pages:
            page.goto(url + path)
            found[path] = violations(page)
        page.goto(url + "/solve/")
        page.get_by_label("Type or paste a puzzle").fill(hardest_nine())
        page.get_by_test_id("solve-button").click()
        expect(page.get_by_test_id("verdict")).to_contain_text("One solution")
        page.get_by_role("button", name="Show all").click()
        found["solve with its steps"] = violations(page)
        page.get_by_test_id("mode-draw").click()  # the setter's bench, its palette and list
        expect(page.get_by_test_id("bench-verdict")).to_contain_text("Draw givens")
        found["solve's drawing bench"] = violations(page)
        start_game(page, url)
        found["game"] = violations(page)
        page.keyboard.press("h")  # the hint panel open
        expect(page.locator("#hint-panel")).to_be_visible()
        found["game with a hint"] = violations(page)
        park(page)
    finally:
        context.close()
    assert {path: v for path, v in found.items() if v} == {}
