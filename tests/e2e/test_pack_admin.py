"""A staff member follows a pack in the admin: the progress bar moves while the chunks
are made, with no reload, and the page shows the pack done at the end."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.factories import UserFactory
from puzzles import chunks, packs

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_pack_progress_bar_moves_as_chunks_finish(live_server, page, no_enqueue):
    staff = UserFactory(username="boss", is_staff=True, is_superuser=True)
    pack = packs.pack_create(name="live", size=4, difficulty="easy", count=6, chunk_size=2)
    chunks.pack_chunk_generate(pack_id=pack.pk, number=0)

    page.goto(f"{live_server.url}/admin/login/?next=/admin/puzzles/puzzlepack/{pack.pk}/change/")
    page.fill("#id_username", staff.username)
    page.fill("#id_password", staff.raw_password)
    page.click("input[type=submit]")
    bar = page.locator("progress.pack-progress")
    assert bar.get_attribute("value") == "2"
    assert "2 / 6 (Running)" in page.locator(".pack-progress-text").inner_text()

    # The workers' part, done here: the open page learns of it by polling.
    chunks.pack_chunk_generate(pack_id=pack.pk, number=1)
    expect(bar).to_have_attribute("value", "4")
    expect(page.locator(".pack-progress-text")).to_contain_text("4 / 6 (Running)")

    chunks.pack_chunk_generate(pack_id=pack.pk, number=2)
    expect(page.locator(".pack-progress-text")).to_contain_text("6 / 6 (Done)")
    # Once done, the page reloads to show the final state: no cancel button any more.
    expect(page.locator("text=Cancel this pack")).to_have_count(0)
    expect(page.locator("a", has_text="Download .csv")).to_have_count(1)
