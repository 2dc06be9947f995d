"""A race in the browser: three players in three browser contexts, from the lobby to the
results, against the ASGI server (HTTP and the race socket, tests/e2e/asgi.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import BrowserContext, Page, expect

from accounts.factories import UserFactory
from play.models import Game
from tests.e2e.asgi import (  # noqa: F401 - fixtures
    asgi_server,
    one_connection_a_request,
    shared_memory_reads,
)
from tests.e2e.boards import ARTIFACTS_DIR, BoardDriver, four_by_four, make_puzzle, value_of
from tests.e2e.test_axe import violations

pytestmark = pytest.mark.slow
PLAY = re.compile(r"/play/(\d+)/$")


@pytest.fixture
def contexts(browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []

    def new(width: int = 1280, locale: str = "en-GB") -> BrowserContext:
        context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
        context.set_default_timeout(15_000)
        made.append(context)
        return context

    yield new  # type: ignore[misc]
    for context in made:
        context.close()


def sign_in(context: BrowserContext, url: str) -> tuple[Page, str]:
    user = UserFactory()
    # A scripted player types at machine speed; declared so, its games are not reviewed.
    user.user_permissions.add(Permission.objects.get(codename="exempt_from_review"))
    page = context.new_page()
    page.goto(url + "/accounts/login/")
    page.locator("#id_username").fill(user.username)
    page.locator("#id_password").fill(user.raw_password)
    page.locator("form.form [type=submit]").click()
    expect(page.get_by_test_id("nav-profile")).to_have_text(user.username)
    return page, user.username


def live(page: Page) -> None:
    expect(page.locator("body")).to_have_attribute("data-race-live", "1")


def solve(page: Page) -> None:
    """Type the solution into every empty cell of the game on the page."""
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    game = Game.objects.select_related("puzzle").get(pk=int(PLAY.search(page.url).group(1)))
    board = BoardDriver(page, game.puzzle.size)
    board.focus()
    for cell, given in enumerate(game.puzzle.givens):
        if given == ".":
            board.put(cell, value_of(game.puzzle.solution[cell]))
    board.wait_synced()


def row(page: Page, name: str):
    return page.get_by_test_id("standings").locator("tr", has_text=name)


RACE_BUTTONS = ("race-join", "race-leave", "race-start", "race-play", "race-login")


def shows(page: Page, *visible: str) -> None:
    """Of the race page's buttons, exactly ``visible`` are on screen (by test id)."""
    for name in RACE_BUTTONS:
        button = page.locator(f"#{name}")
        if name in visible:
            expect(button).to_be_visible()
        elif button.count():
            expect(button).to_be_hidden()


def test_three_players_race_to_the_end(asgi_server, contexts, settings):  # noqa: F811
    settings.RACE_COUNTDOWN_SECONDS = 2
    puzzle = make_puzzle(four_by_four(0))
    url = asgi_server.url
    host, host_name = sign_in(contexts(), url)
    second, second_name = sign_in(contexts(375), url)
    third, third_name = sign_in(contexts(locale="zh-CN"), url)

    host.goto(url + "/")
    host.get_by_test_id("race-new").click()
    host.get_by_label("Size").select_option("4")
    host.get_by_label("Puzzle").select_option("easy")
    host.get_by_test_id("race-create").click()
    expect(host).to_have_url(re.compile(r"/races/[\w-]+/$"))
    live(host)
    link = host.get_by_test_id("race-link").input_value()
    # A guest watching, and a signed-in visitor who never joins: spectators.
    guest = contexts(375).new_page()
    visitor, _visitor_name = sign_in(contexts(), url)
    for page in (guest, visitor):
        page.goto(link)
        live(page)
    shows(host, "race-start")
    shows(guest, "race-login")
    for page in (second, third):
        page.goto(link)
        live(page)
        shows(page, "race-join")
        page.get_by_test_id("race-join").click()
        shows(page, "race-leave")
    # The host sees both arrive without reloading; nobody is "racing" before the start.
    expect(host.get_by_test_id("standings").locator("tbody tr")).to_have_count(3)
    expect(row(host, host_name).get_by_test_id("racer-result")).to_have_text("Joined")
    expect(third.get_by_test_id("race-status")).to_contain_text("3")
    shows(host, "race-start")
    shows(visitor, "race-join")

    host.get_by_test_id("race-start").click()
    # From the countdown on, a spectator has nothing to press.
    expect(visitor.get_by_test_id("race-status")).not_to_have_attribute("data-status", "lobby")
    shows(visitor)
    shows(guest)
    # Everyone is taken to their own game of the same puzzle at the start.
    for page in (host, second, third):
        expect(page).to_have_url(PLAY, timeout=30_000)
    games = [Game.objects.get(pk=int(PLAY.search(p.url).group(1))) for p in (host, second, third)]
    assert {g.puzzle_id for g in games} == {puzzle.pk}
    assert len({g.pk for g in games}) == 3

    for page in (host, third):  # the race beside each board, and no hint in a race
        live(page)
        expect(page.locator("#hint")).to_be_hidden()
        expect(page.locator("#auto-notes")).to_be_hidden()
        # One game per race: no second go, no other game from here.
        expect(page.locator("#restart, #new-game")).to_have_count(0)
    # A racer who looks at the race page mid-race can only go back to their game.
    third.goto(link)
    live(third)
    shows(third, "race-play")
    third.get_by_test_id("race-play").click()
    expect(third).to_have_url(PLAY)
    # Leaving paused the game; back on it, it carries on (once the pause sent on leaving
    # has landed, or is known never to: game.js resumeAfterReload).
    expect(third.locator("body")).to_have_attribute("data-ready", "1")
    # The page asks for the game up to 20 times, 150 ms apart, before it carries on.
    expect(third.locator("#board-wrap")).not_to_have_class(
        re.compile(r"\bpaused\b"), timeout=15_000
    )
    solve(second)
    # The others see it beside their own board, live.
    expect(row(host, second_name)).to_contain_text("#1")
    expect(row(third, second_name).get_by_test_id("racer-result")).to_contain_text("第 1 名")
    second.goto(link)
    live(second)
    expect(row(second, second_name)).to_contain_text("#1")
    # The third racer's move reaches the race page live: progress, not the cell.
    board = BoardDriver(third, puzzle.size)
    board.focus()
    cell = puzzle.givens.index(".")
    board.put(cell, value_of(puzzle.solution[cell]))
    board.wait_synced()
    expect(row(second, third_name).get_by_test_id("racer-progress")).to_have_text(
        f"1/{puzzle.givens.count('.')}"
    )
    expect(second.get_by_test_id("race-live")).to_contain_text(third_name)

    solve(host)
    # The third gives up (asked in Chinese first): out of the race, which then ends.
    asked: list[str] = []
    third.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    third.get_by_test_id("give-up").click()
    expect(third.get_by_test_id("result")).to_be_visible()
    assert asked and asked[0].startswith("放弃这局游戏")
    for page in (host, third):
        page.goto(link)
    for page in (host, second, third):
        expect(page.get_by_test_id("race-status")).to_have_attribute("data-status", "finished")
    expect(second.get_by_test_id("race-status")).to_have_text("The race is over.")
    expect(third.get_by_test_id("race-status")).to_have_text("比赛结束了。")
    for page in (host, second, third, visitor, guest):
        shows(page)
    results = host.get_by_test_id("standings").locator("tbody tr")
    expect(results.nth(0)).to_contain_text(second_name)
    expect(results.nth(1)).to_contain_text(host_name)
    expect(results.nth(2)).to_contain_text(third_name)
    expect(results).to_have_count(3)
    expect(row(host, third_name).get_by_test_id("racer-result")).to_contain_text("Gave up")
    expect(host.get_by_test_id("racer-replay")).to_have_count(3)
    second.screenshot(path=str(ARTIFACTS_DIR / "race-results-375.png"), full_page=True)
    host.screenshot(path=str(ARTIFACTS_DIR / "race-results-1280.png"), full_page=True)

    host.get_by_test_id("racer-replay").first.click()
    expect(host).to_have_url(re.compile(r"/r/[\w-]+/$"))


def _finished_race(puzzle) -> str:
    """A race of three run to its end through the API (at the test's own pace)."""
    from tests.races.helpers import after_start, move, player, race_create

    clients = [player() for _ in range(3)]
    code = race_create(clients[0])["race"]["code"]
    for client in clients[1:]:
        client.post(f"/api/v1/races/{code}/join/")
    clients[0].post(f"/api/v1/races/{code}/start/")
    with after_start(code, seconds=30):
        for client in clients:
            game = client.get(f"/api/v1/races/{code}/").json()["you"]["game"]
            for cell, given in enumerate(puzzle.givens):
                if given == ".":
                    move(client, game, cell, value_of(puzzle.solution[cell]))
    return code


@pytest.mark.parametrize(("width", "locale"), [(1280, "en-US"), (375, "zh-CN")])
def test_the_race_pages_have_no_serious_accessibility_violation(
    asgi_server,  # noqa: F811
    browser,
    width,
    locale,
    settings,
):
    """The race page in each state (a new race, the lobby, the countdown and the race as a
    signed-in visitor sees them, and the results) in dark mode, in both languages."""
    from tests.races.helpers import player, race_create

    settings.RACE_COUNTDOWN_SECONDS = 2
    puzzle = make_puzzle(four_by_four(0))
    context = browser.new_context(
        viewport={"width": width, "height": 900},
        bypass_csp=True,
        color_scheme="dark",
        locale=locale,
    )
    context.set_default_timeout(15_000)
    try:
        page, _name = sign_in(context, asgi_server.url)
        found = {}
        page.goto(asgi_server.url + "/races/new/")
        found["new"] = violations(page)
        page.get_by_test_id("race-create").click()
        live(page)
        found["lobby"] = violations(page)
        # Another race, watched: its countdown, then the race.
        racers = [player(), player()]
        code = race_create(racers[0])["race"]["code"]
        racers[1].post(f"/api/v1/races/{code}/join/")
        racers[0].post(f"/api/v1/races/{code}/start/")
        page.goto(asgi_server.url + f"/races/{code}/")
        live(page)
        status = page.get_by_test_id("race-status")
        if status.get_attribute("data-status") == "countdown":
            found["countdown"] = violations(page)
        expect(status).to_have_attribute("data-status", "running")
        found["running"] = violations(page)
        page.goto(asgi_server.url + f"/races/{_finished_race(puzzle)}/")
        live(page)
        expect(page.get_by_test_id("racer-replay")).to_have_count(3)
        found["results"] = violations(page)
    finally:
        context.close()
    assert {name: v for name, v in found.items() if v} == {}
