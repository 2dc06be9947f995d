"""The replay page, watched the way a player watches it: finish a game, open its replay,
play it at 16x, scrub the timeline, click a stall in the analysis."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from play.models import Game
from replays.models import GameAnalysis
from replays.services import analysis_compute
from tests.e2e.boards import BoardDriver, empty_cells, four_by_four, make_puzzle, park, value_of
from tests.e2e.test_game import start_from_lobby


@pytest.fixture(autouse=True)
def _park_running_games(page: Page) -> Iterator[None]:
    yield
    park(page)


def _index(page: Page) -> int:
    return int(page.get_by_test_id("replay-caption").get_attribute("data-index") or 0)


def test_it_replays_a_finished_game_at_16x_scrubs_and_jumps_to_a_stall(live_server, page):
    make_puzzle(four_by_four(1), difficulty="easy")
    game = start_from_lobby(page, live_server.url, "4×4", "Easy")
    board = BoardDriver(page, 4)
    board.focus()
    solution = game.puzzle.solution
    blanks = empty_cells(game.puzzle.givens)
    first = blanks[0]
    right = value_of(solution[first])
    board.go(blanks[1])
    page.keyboard.press("Shift+3")  # a corner mark, the game's first move
    board.put(first, 1 if right != 1 else 2)  # a mistake, marked on the timeline
    board.put(first, right)
    board.wait_synced()
    for i, cell in enumerate(blanks[1:]):
        if i == 1:
            page.wait_for_timeout(1500)  # a stall before the third placement
        board.put(cell, value_of(solution[cell]))
    board.wait_synced()
    expect(page.get_by_test_id("result")).to_be_visible()
    game.refresh_from_db()
    assert game.status == "completed"

    page.get_by_test_id("watch-replay").click()
    expect(page).to_have_url(re.compile(rf"/play/{game.pk}/replay/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    events = game.moves.count()
    expect(page.get_by_test_id("replay-caption")).to_contain_text(f"{events} moves")
    expect(page.locator(".timeline-marks .mark.mistake")).to_have_count(1)

    # The analysis lands while the page is open (the worker's job, run here).
    if not GameAnalysis.objects.filter(game=game).exists():
        expect(page.get_by_test_id("analysis-pending")).to_be_visible()
        analysis_compute(game_id=game.pk)
    expect(page.get_by_test_id("analysis")).to_have_attribute("data-ready", "1", timeout=15_000)
    expect(page.get_by_test_id("analysis-summary")).to_contain_text("Mistakes")

    # Play at 16x to the end: the board ends as the game did.
    page.get_by_test_id("speed-16").click()
    expect(page.get_by_test_id("speed-16")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("replay-play").click()
    expect(page.get_by_test_id("replay-caption")).to_contain_text("Solved", timeout=15_000)
    assert _index(page) == events
    final = Game.objects.get(pk=game.pk).entries
    for cell in blanks:
        expect(page.locator(f'#board .cell[data-cell="{cell}"]')).to_have_text(final[cell])

    # Scrub back to the start: the placed cells empty again.
    page.get_by_test_id("timeline").evaluate(
        "el => { el.value = '0'; el.dispatchEvent(new Event('input', {bubbles: true})); }"
    )
    assert _index(page) == 0
    expect(page.locator(f'#board .cell[data-cell="{blanks[-1]}"]')).to_have_text("")

    # The arrow keys step, Space plays and pauses. The first move drew a corner mark.
    page.locator("body").press("ArrowRight")
    assert _index(page) == 1
    expect(page.locator(f'#board .cell[data-cell="{blanks[1]}"] .corners')).to_have_text("3")
    expect(page.get_by_test_id("replay-caption")).to_contain_text("Corner mark 3")
    page.locator("body").press("ArrowLeft")
    assert _index(page) == 0

    # A stall in the analysis jumps to where it began.
    stall = analysis_compute(game_id=game.pk).data["summary"]["stalls"][0]
    page.get_by_test_id("stall-0").click()
    expect(page.get_by_test_id("timeline")).to_have_value(str(stall["from_ms"]))
    assert _index(page) > 0

    # A placement in the list jumps to just after it.
    placement = analysis_compute(game_id=game.pk).data["placements"][-1]
    page.get_by_test_id(f"placement-{placement['seq']}").click()
    assert _index(page) == events


def test_the_replay_fits_a_phone_and_ignores_unknown_query_values(live_server, page):
    make_puzzle(four_by_four(2), difficulty="easy")
    game = start_from_lobby(page, live_server.url, "4×4", "Easy")
    board = BoardDriver(page, 4)
    board.focus()
    for cell in empty_cells(game.puzzle.givens):
        board.put(cell, value_of(game.puzzle.solution[cell]))
    board.wait_synced()
    expect(page.get_by_test_id("result")).to_be_visible()
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto(f"{live_server.url}/play/{game.pk}/replay/?speed=3&position=banana")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.get_by_test_id("speed-1")).to_have_attribute("aria-pressed", "true")
    assert _index(page) == 0
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    expect(page.get_by_test_id("replay-board")).to_be_visible()
    expect(page.get_by_test_id("replay-play")).to_be_visible()


def test_a_shared_replay_of_a_given_up_daily_shows_no_verdicts_nor_analysis(live_server, page):
    from django.utils import timezone

    from accounts.factories import UserFactory
    from play.lifecycle import Player, game_abandon, game_start
    from puzzles.models import DailyPuzzle
    from replays.services import replay_share
    from tests.play.factories import play_move

    puzzle = make_puzzle(four_by_four(2), difficulty="easy")
    DailyPuzzle.objects.create(date=timezone.localdate(), size=4, puzzle=puzzle)
    player = Player(user=UserFactory())
    game, _ = game_start(player=player, daily=True, size=4)
    cell = empty_cells(puzzle.givens)[0]
    right = value_of(puzzle.solution[cell])
    play_move(game, player, cell, 1 if right != 1 else 2)  # a wrong value
    game_abandon(game_id=game.pk, player=player)
    analysis_compute(game_id=game.pk)
    share = replay_share(game_id=game.pk, player=player)

    page.goto(f"{live_server.url}/r/{share.token}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.get_by_test_id("analysis-held")).to_be_visible()
    page.get_by_test_id("replay-forward").click()
    expect(page.get_by_test_id("replay-caption")).to_contain_text("Move 1")
    # Nobody told this viewer the value was wrong: the board does not mark it.
    expect(page.locator("#board .wrong")).to_have_count(0)
    assert puzzle.solution not in page.content()


def test_a_killer_replay_draws_its_cages_and_names_its_techniques(live_server, page):
    from accounts.factories import UserFactory
    from play.lifecycle import Player, game_start
    from replays.services import replay_share
    from tests.play.factories import play_move
    from tests.variants.conftest import variant_puzzle

    puzzle = variant_puzzle("killer", size=6, seed="e2e")
    player = Player(user=UserFactory())
    game, _ = game_start(player=player, puzzle_id=puzzle.pk)
    for cell in empty_cells(puzzle.givens):
        play_move(game, player, cell, value_of(puzzle.solution[cell]))
    hardest = analysis_compute(game_id=game.pk).data["summary"]["hardest"]
    share = replay_share(game_id=game.pk, player=player)

    page.goto(f"{live_server.url}/r/{share.token}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.get_by_test_id("analysis")).to_have_attribute("data-ready", "1")
    expect(page.get_by_test_id("analysis-summary")).to_contain_text(hardest["name"])
    expect(page.get_by_test_id("placements")).to_contain_text(hardest["name"])
    expect(page.locator("#board .cage").first).to_be_attached()
