"""Playwright fixtures: Debian's Chromium, headless, against pytest-django's live_server.

``browser`` is one Chromium for the session; ``page`` is a fresh context per
test whose screenshot is saved to test-artifacts/<test name>.png afterwards.
Tests here need the ``browser`` marker (added automatically) and ``live_server``.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django's ORM would
# otherwise refuse to run inside it.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"needs Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


SETTLE_SECONDS = 5.0
"""How long a test's page may take to have the requests it sends on leaving answered."""


@pytest.fixture
def page(browser, request: pytest.FixtureRequest) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    context.set_default_timeout(10_000)
    in_flight: set[object] = set()

    def sent(r: object) -> None:
        in_flight.add(r)

    def answered(r: object) -> None:
        in_flight.discard(r)

    context.on("request", sent)
    context.on("requestfinished", answered)
    context.on("requestfailed", answered)
    page = context.new_page()
    yield page
    ARTIFACTS.mkdir(exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    try:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    finally:
        _leave(page, in_flight)
        context.close()


def _leave(page: object, in_flight: set[object]) -> None:
    """Leave the page and wait until what it sends on leaving (a game's pause) is answered:
    a request still on its way when the test's database is flushed deadlocks the flush and
    leaves rows behind for the next test."""
    try:
        page.goto("about:blank")
    except Exception:  # a page that cannot leave has nothing left to send
        return
    deadline = time.monotonic() + SETTLE_SECONDS
    while in_flight and time.monotonic() < deadline:
        page.wait_for_timeout(25)
