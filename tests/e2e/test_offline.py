"""A phone on a bad network: moves made offline land later, once each, in order, even
across a reload while offline; and a browser killed mid-game stops the server's clock
within the gap.

The network goes with Playwright's offline switch for the whole browser context; the
reload offline is served by the game page's service worker (/play/sw.js) from its cache.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.test import Client
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from accounts.factories import UserFactory
from play.lifecycle import Player, game_pause
from play.models import Game, Move
from play.moves import move_apply
from tests.e2e.boards import BoardDriver, easy_nine, empty_cells, make_puzzle, park, value_of
from tests.e2e.conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS
from tests.e2e.test_axe import AXE, violations

PENDING = re.compile(r"\bpending\b")
WRONG = re.compile(r"\bwrong\b")


def open_game(page: Page, url: str) -> Game:
    page.goto(url + "/")
    page.locator("label.choice", has_text="9×9").click()
    page.locator("label.choice", has_text="Easy").click()
    page.get_by_test_id("start").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    game_id = int(re.search(r"/play/(\d+)/$", page.url).group(1))
    return Game.objects.select_related("puzzle").get(pk=game_id)


def wrong_value(solution: str, cell: int) -> int:
    right = value_of(solution[cell])
    return 1 if right != 1 else 2


def test_moves_made_offline_survive_a_reload_and_land_once_each_in_order(live_server, page):
    make_puzzle(easy_nine(3), difficulty="easy")
    game = open_game(page, live_server.url)
    # The service worker has kept the page and its files: it can load without a network.
    expect(page.locator("body")).to_have_attribute("data-offline-ready", "1", timeout=20_000)
    solution = game.puzzle.solution
    a, b, c, d, e = empty_cells(game.puzzle.givens)[:5]
    board = BoardDriver(page, 9)
    board.focus()
    board.put(a, value_of(solution[a]))
    board.wait_synced()

    page.context.set_offline(True)
    banner = page.get_by_test_id("offline-banner")
    board.put(b, value_of(solution[b]))
    expect(banner).to_be_visible()
    board.put(c, wrong_value(solution, c))
    board.go(d)
    page.keyboard.press("Control+5")  # a note
    for cell in (b, c):
        expect(board.cell(cell)).to_have_class(PENDING)
        expect(board.cell(cell)).to_have_attribute("aria-label", re.compile(r"not saved yet$"))
    expect(banner).to_contain_text("3 moves waiting")
    game.refresh_from_db()
    assert game.move_count == 1  # only the move made online reached the server

    # A reload with no network: the page comes from the service worker's cache and the
    # waiting moves from the page's storage.
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    # The page is the copy kept when it was first opened (the game at version 1), not the
    # server's: that one has the move made online.
    embedded = page.evaluate("JSON.parse(document.getElementById('game-data').textContent)")
    assert embedded["game"]["version"] == 1
    board = BoardDriver(page, 9)
    expect(board.cell(a).locator(".v")).to_have_text(solution[a])
    expect(board.cell(b).locator(".v")).to_have_text(solution[b])
    expect(board.cell(c)).to_have_class(PENDING)
    expect(board.cell(d)).to_have_attribute("aria-label", re.compile(r"notes 5, not saved yet$"))
    expect(page.get_by_test_id("offline-banner")).to_be_visible()
    board.focus()
    board.put(e, value_of(solution[e]))
    expect(page.get_by_test_id("offline-banner")).to_contain_text("4 moves waiting")
    game.refresh_from_db()
    assert game.move_count == 1

    page.context.set_offline(False)
    board.wait_synced()
    expect(page.get_by_test_id("offline-banner")).to_be_hidden()
    # The server's verdict is on the board: the wrong value is a mistake, nothing pending.
    expect(board.cell(c)).to_have_class(WRONG)
    expect(page.locator(".cell.pending")).to_have_count(0)
    expect(page.get_by_test_id("mistakes")).to_have_text("1")

    game.refresh_from_db()
    entries = list(game.puzzle.givens)
    for cell, value in ((a, solution[a]), (b, solution[b]), (e, solution[e])):
        entries[cell] = value
    entries[c] = str(wrong_value(solution, c))
    assert game.entries == "".join(entries)
    assert game.notes == {str(d): [5]}
    assert game.mistakes == 1
    logged = list(
        Move.objects.filter(game=game, kind__in=["value", "note"])
        .order_by("seq")
        .values_list("cell", "client_move_id")
    )
    # Each move once, in the order the player made them.
    assert [cell for cell, _ in logged] == [a, b, c, d, e]
    assert len({move_id for _, move_id in logged}) == 5
    park(page)


def kill_browser(marker: str) -> None:
    """SIGKILL the Chromium started with ``marker`` on its command line (its renderers die
    with it): no unload handler runs, nothing more reaches the server."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in command.split(b"\0"):
            os.kill(int(entry.name), signal.SIGKILL)


def test_a_killed_browser_stops_the_servers_clock_within_the_gap(live_server, browser, settings):
    settings.GAME_CLOCK_GAP_SECONDS = 10  # the page beats every 3.3 s
    make_puzzle(easy_nine(4), difficulty="easy")
    user = UserFactory()
    # A browser of this test's own, to kill.
    marker = f"--sudoku-test-browser={uuid.uuid4().hex}"
    own = browser.browser_type.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, marker])
    gone: list[bool] = []
    own.on("disconnected", lambda _: gone.append(True))
    try:
        page = own.new_page(viewport={"width": 1200, "height": 800})
        page.set_default_timeout(10_000)
        page.goto(live_server.url + "/accounts/login/")
        page.get_by_label("Username").fill(user.username)
        page.get_by_label("Password").fill(user.raw_password)
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_test_id("nav-profile")).to_have_text(user.username)
        game = open_game(page, live_server.url)
        cell = empty_cells(game.puzzle.givens)[0]
        board = BoardDriver(page, 9)
        board.focus()
        board.put(cell, value_of(game.puzzle.solution[cell]))
        board.wait_synced()
        # The page's heartbeat, with no move: a sign of life that moves the clock on.
        with page.expect_response(lambda r: r.url.endswith("/heartbeat/") and r.ok):
            pass
        page.screenshot(path=str(ARTIFACTS / "killed_browser_before_the_kill.png"))
        kill_browser(marker)
        while not gone:
            try:
                page.wait_for_timeout(100)
            except PlaywrightError:
                break
    finally:
        with contextlib.suppress(PlaywrightError):  # already gone
            own.close()

    game.refresh_from_db()
    # No pause came: the gap alone stops the clock.
    assert game.status == "in_progress"
    assert game.running_since is not None
    last_sign, counted = game.running_since, game.elapsed_ms
    client = Client()
    client.force_login(user)
    for later in (timedelta(minutes=5), timedelta(hours=3), timedelta(days=2)):
        with time_machine.travel(last_sign + later, tick=False):
            shown = client.get(f"/api/v1/games/{game.pk}/").json()
        assert shown["elapsed_ms"] == counted + 10_000
        assert shown["status"] == "in_progress"


def owner_of(game: Game) -> Player:
    return Player(guest_key=game.guest_key) if game.user_id is None else Player(user=game.user)


def test_moves_sent_late_meet_what_another_device_did_meanwhile(live_server, page):
    make_puzzle(easy_nine(5), difficulty="easy")
    game = open_game(page, live_server.url)
    solution = game.puzzle.solution
    x, y = empty_cells(game.puzzle.givens)[:2]
    board = BoardDriver(page, 9)
    board.focus()
    page.context.set_offline(True)
    board.put(x, value_of(solution[x]))
    board.go(y)
    page.keyboard.press("Control+3")  # a note in y...
    expect(board.cell(y)).to_have_class(PENDING)
    # ... while another device, online, places y's value: the game's version moves on.
    move_apply(
        game_id=game.pk,
        player=owner_of(game),
        client_move_id=uuid.uuid4(),
        kind="value",
        cell=y,
        value=value_of(solution[y]),
    )

    page.context.set_offline(False)
    board.wait_synced()
    # The waiting moves went without a stale version: x landed; the note in a cell that now
    # holds a value was refused on its own, and the board is the server's.
    expect(page.locator(".toast")).to_contain_text("holds a value")
    expect(board.cell(x).locator(".v")).to_have_text(solution[x])
    expect(board.cell(y).locator(".v")).to_have_text(solution[y])
    expect(page.locator(".cell.pending")).to_have_count(0)
    game.refresh_from_db()
    assert game.entries[x] == solution[x] and game.entries[y] == solution[y]
    assert game.notes == {}
    park(page)


def test_moves_wait_for_a_resume_when_another_device_paused_the_game(live_server, page):
    make_puzzle(easy_nine(6), difficulty="easy")
    game = open_game(page, live_server.url)
    solution = game.puzzle.solution
    x = empty_cells(game.puzzle.givens)[0]
    board = BoardDriver(page, 9)
    board.focus()
    page.context.set_offline(True)
    board.put(x, value_of(solution[x]))
    game_pause(game_id=game.pk, player=owner_of(game))

    page.context.set_offline(False)
    cover = page.get_by_test_id("pause-cover")
    expect(cover).to_be_visible()
    game.refresh_from_db()
    assert game.entries[x] == "."  # the move waits, kept
    cover.get_by_role("button", name="Resume").click()
    board.wait_synced()
    expect(board.cell(x).locator(".v")).to_have_text(solution[x])
    expect(page.locator(".cell.pending")).to_have_count(0)
    game.refresh_from_db()
    assert game.status == "in_progress" and game.entries[x] == solution[x]
    park(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_offline_banner_and_pending_moves_pass_axe(live_server, browser, scheme):
    make_puzzle(easy_nine(7), difficulty="easy")
    context = browser.new_context(
        viewport={"width": 375, "height": 900}, color_scheme=scheme, bypass_csp=True
    )
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        game = open_game(page, live_server.url)
        page.add_script_tag(path=str(AXE))  # while online: the script is read from disk
        context.set_offline(True)
        cell = empty_cells(game.puzzle.givens)[0]
        board = BoardDriver(page, 9)
        board.focus()
        board.put(cell, value_of(game.puzzle.solution[cell]))
        expect(page.get_by_test_id("offline-banner")).to_be_visible()
        expect(board.cell(cell)).to_have_class(PENDING)
        assert violations(page) == []
        context.set_offline(False)
        board.wait_synced()
        park(page)
    finally:
        context.close()


def test_two_tabs_of_a_game_offline_keep_each_others_moves(live_server, page):
    make_puzzle(easy_nine(8), difficulty="easy")
    game = open_game(page, live_server.url)
    expect(page.locator("body")).to_have_attribute("data-offline-ready", "1", timeout=20_000)
    other = page.context.new_page()
    other.goto(page.url)
    expect(other.locator("body")).to_have_attribute("data-ready", "1")
    solution = game.puzzle.solution
    x, y = empty_cells(game.puzzle.givens)[:2]
    page.context.set_offline(True)
    first = BoardDriver(page, 9)
    first.focus()
    first.put(x, value_of(solution[x]))
    expect(first.cell(x)).to_have_class(PENDING)
    second = BoardDriver(other, 9)
    second.focus()
    second.put(y, value_of(solution[y]))
    expect(second.cell(y)).to_have_class(PENDING)
    other.close()  # gone before the network came back, its move unsent
    game.refresh_from_db()
    assert game.move_count == 0

    page.reload()  # still offline: this tab takes over what the other left
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    board = BoardDriver(page, 9)
    expect(board.cell(x)).to_have_class(PENDING)
    expect(board.cell(y)).to_have_class(PENDING)
    page.context.set_offline(False)
    board.wait_synced()
    game.refresh_from_db()
    assert game.entries[x] == solution[x] and game.entries[y] == solution[y]
    assert Move.objects.filter(game=game, kind="value").count() == 2
    park(page)


def test_the_installed_app_opens_the_last_game_with_no_network(live_server, page):
    """The manifest's start_url (/play/) is answered offline by the service worker with the
    last game page it kept: a phone's home-screen icon opens the game in a tunnel."""
    make_puzzle(easy_nine(4), difficulty="easy")
    game = open_game(page, live_server.url)
    expect(page.locator("body")).to_have_attribute("data-offline-ready", "1", timeout=20_000)
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())"
    )
    assert manifest["start_url"] == "/play/"
    page.context.set_offline(True)
    page.goto(live_server.url + manifest["start_url"])
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    embedded = page.evaluate("JSON.parse(document.getElementById('game-data').textContent)")
    assert embedded["game"]["id"] == game.pk
    page.context.set_offline(False)
