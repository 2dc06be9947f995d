"""The browser game, played the way a player plays it: keys on a real page.

Each test starts from the lobby (or the game page) of a live server, reads the solution
from the database to know the right digits, and checks what the page shows against what
the server stored.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import Page, expect

from accounts.factories import UserFactory
from play.models import Game
from tests.e2e.boards import (
    ARTIFACTS_DIR,
    SYMBOLS,
    BoardDriver,
    easy_nine,
    empty_cells,
    four_by_four,
    make_puzzle,
    park,
    sixteen_by_sixteen,
    value_of,
)

SELECTED = re.compile(r"\bselected\b")
WRONG = re.compile(r"\bwrong\b")
CLASH = re.compile(r"\bclash\b")


@pytest.fixture(autouse=True)
def _park_running_games(page: Page) -> Iterator[None]:
    yield
    park(page)


def start_from_lobby(page: Page, url: str, size_label: str, level: str) -> Game:
    page.goto(url + "/")
    page.locator("label.choice", has_text=size_label).click()
    page.locator("label.choice", has_text=level).click()
    page.get_by_test_id("start").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    game_id = int(re.search(r"/play/(\d+)/$", page.url).group(1))
    return Game.objects.select_related("puzzle").get(pk=game_id)


def login(page: Page, url: str) -> str:
    user = UserFactory()
    # These tests type the solution read from the database at machine speed (about 140 ms
    # a placement): a scripted player, and the plausible-play review rightly flags such
    # play. Declared as staff declare one (docs/integrity.md), its games are not reviewed.
    user.user_permissions.add(Permission.objects.get(codename="exempt_from_review"))
    page.goto(url + "/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(user.raw_password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("nav-profile")).to_have_text(user.username)
    return user.username


def clock_seconds(page: Page) -> int:
    parts = [int(p) for p in page.get_by_test_id("clock").inner_text().split(":")]
    seconds = 0
    for part in parts:
        seconds = seconds * 60 + part
    return seconds


def fill_rest(board: BoardDriver, game: Game) -> None:
    """Type the solution into every cell the server still has empty."""
    game.refresh_from_db()
    solution = game.puzzle.solution
    for cell in empty_cells(game.entries):
        board.put(cell, value_of(solution[cell]))
    board.wait_synced()


@pytest.fixture
def console_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def shown_time(ms: int) -> str:
    """The clock as the page shows it (mm:ss, h:mm:ss from an hour)."""
    total = ms // 1000
    hours, minutes, seconds = total // 3600, total % 3600 // 60, total % 60
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"


@pytest.mark.parametrize(
    ("size", "givens", "signed_in"),
    [(4, four_by_four(0), False), (9, easy_nine(0), True)],
    ids=["4x4-guest", "9x9-signed-in"],
)
def test_it_plays_a_whole_game_by_keyboard_with_every_aid(
    live_server, page, console_errors, size, givens, signed_in
):
    outside: list[str] = []
    page.on(
        "request",
        lambda req: (
            None if req.url.startswith((live_server.url, "data:")) else outside.append(req.url)
        ),
    )
    make_puzzle(givens, difficulty="easy")
    if signed_in:
        username = login(page, live_server.url)
    game = start_from_lobby(page, live_server.url, f"{size}×{size}", "Easy")
    if signed_in:
        assert game.user.username == username
    puzzle = game.puzzle
    solution = puzzle.solution
    expect(page.get_by_role("gridcell")).to_have_count(size * size)

    board = BoardDriver(page, size)
    board.focus()
    blanks = empty_cells(puzzle.givens)

    # A wrong digit: the server judges it, the page marks it and counts it.
    first = blanks[0]
    right = value_of(solution[first])
    wrong = 1 if right != 1 else 2
    board.put(first, wrong)
    expect(board.cell(first)).to_have_class(WRONG)
    expect(page.get_by_test_id("mistakes")).to_have_text("1")
    expect(board.cell(first)).to_have_attribute("aria-label", re.compile("mistake"))
    board.put(first, right)
    expect(board.cell(first)).not_to_have_class(WRONG)

    # Notes: N toggles notes mode, digits pencil marks in; undo takes the last one back.
    second = blanks[1]
    keep = value_of(solution[second])
    extra = next(v for v in range(1, size + 1) if v != keep)
    board.go(second)
    page.keyboard.press("n")
    expect(page.locator("#notes-toggle")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press(str(keep))
    page.keyboard.press(str(extra))
    both = " ".join(str(v) for v in sorted((keep, extra)))
    expect(board.cell(second)).to_have_attribute("aria-label", re.compile(f"notes {both}$"))
    page.keyboard.press("n")
    board.wait_synced()
    page.keyboard.press("Control+z")
    expect(board.cell(second)).to_have_attribute("aria-label", re.compile(f"notes {keep}$"))
    board.wait_synced()
    game.refresh_from_db()
    assert game.notes == {str(second): [keep]}

    # A hint, in its three stages: where to look, the technique, then apply it.
    page.keyboard.press("h")
    panel = page.get_by_test_id("hint-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text(re.compile("look at", re.IGNORECASE))
    expect(page.locator(".cell.hint, .cell.hint-unit").first).to_be_visible()
    page.get_by_role("button", name="Show technique").click()
    expect(page.locator("#hint-title")).not_to_have_text("Where to look")
    page.get_by_role("button", name="Apply it").click()
    expect(page.get_by_test_id("hints")).to_have_text("3")
    expect(page.locator("#hint-title")).to_have_text("Hint applied")
    board.wait_synced()

    # Pause hides the board and stops the clock; resume brings it back.
    page.keyboard.press("p")
    expect(page.get_by_test_id("pause-cover")).to_be_visible()
    expect(page.locator(".board .cell .v")).to_have_count(0)
    board.wait_synced()
    game.refresh_from_db()
    assert game.status == "paused"
    paused_at = page.get_by_test_id("clock").inner_text()
    page.wait_for_timeout(1100)
    expect(page.get_by_test_id("clock")).to_have_text(paused_at)
    page.get_by_test_id("pause-cover").get_by_role("button", name="Resume").click()
    expect(page.get_by_test_id("pause-cover")).to_be_hidden()
    expect(board.cell(first).locator(".v")).to_have_text(SYMBOLS[right - 1])

    board.focus()
    board.at = int(page.locator(".cell.selected").get_attribute("data-cell"))
    fill_rest(board, game)

    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    expect(result).to_contain_text("Solved!")
    game.refresh_from_db()
    assert game.status == "completed"
    assert game.entries == solution
    assert game.score is not None
    expect(page.get_by_test_id("result-score")).to_have_text(str(game.score))
    expect(page.get_by_test_id("result-time")).to_have_text(shown_time(game.elapsed_ms))
    expect(result.locator("#result-mistakes")).to_have_text("1")
    expect(result.locator("#result-hints")).to_have_text("3")
    rank = "#1 of 1" if signed_in else "Log in to rank"
    expect(page.get_by_test_id("result-rank")).to_have_text(rank)
    if size == 9:
        # Rows, columns and boxes completed on the way played their animation.
        assert page.locator(".cell.flash").count() > 0
    assert console_errors == []  # a CSP violation would show here
    assert outside == []  # nothing from a CDN: the game works without the internet

    page.get_by_test_id("play-another").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    assert not page.url.endswith(f"/play/{game.pk}/")


def test_a_clash_marks_both_cells_red_and_a_given_cannot_change(live_server, page):
    puzzle = make_puzzle(easy_nine(1), difficulty="easy")
    game = start_from_lobby(page, live_server.url, "9×9", "Easy")
    assert game.puzzle_id == puzzle.pk
    board = BoardDriver(page, 9)
    board.focus()

    # An empty cell and a given in its row: typing the given's digit clashes with it.
    givens = puzzle.givens
    cell = next(
        c
        for c in empty_cells(givens)
        if any(givens[r] != "." for r in range(c - c % 9, c - c % 9 + 9))
    )
    row = range(cell - cell % 9, cell - cell % 9 + 9)
    given_cell = next(r for r in row if givens[r] != ".")
    board.put(cell, value_of(givens[given_cell]))
    expect(board.cell(cell)).to_have_class(CLASH)
    expect(board.cell(given_cell)).to_have_class(CLASH)
    expect(board.cell(cell)).to_have_attribute("aria-label", re.compile("clashes"))
    # Erasing it clears both marks.
    page.keyboard.press("Backspace")
    expect(board.cell(given_cell)).not_to_have_class(CLASH)

    # A given ignores keys and the page says why; the server's board is unchanged.
    board.go(given_cell)
    other = 1 if givens[given_cell] != "1" else 2
    page.keyboard.press(str(other))
    expect(board.cell(given_cell).locator(".v")).to_have_text(givens[given_cell])
    expect(page.locator("#toast")).to_contain_text("given")
    board.wait_synced()
    game.refresh_from_db()
    assert game.entries[given_cell] == givens[given_cell]

    # Auto notes says what it costs before the first charge, pencils every empty cell's
    # candidates in, and is counted as an aid.
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Auto notes").click()
    expect(board.cell(cell)).to_have_attribute("aria-label", re.compile(r"empty, notes"))
    assert "costs 10% of the score" in asked[0]
    expect(board.cell(cell)).to_have_attribute("aria-label", re.compile(r"empty, notes( \d)+$"))
    board.wait_synced()
    game.refresh_from_db()
    assert game.aids == 1
    assert str(cell) in game.notes


def test_reload_restores_entries_notes_and_clock(live_server, page):
    make_puzzle(easy_nine(2), difficulty="easy")
    game = start_from_lobby(page, live_server.url, "9×9", "Easy")
    solution = game.puzzle.solution
    board = BoardDriver(page, 9)
    board.focus()
    a, b, c, d = empty_cells(game.puzzle.givens)[:4]
    board.put(a, value_of(solution[a]))
    board.put(b, value_of(solution[b]))
    board.go(c)
    page.keyboard.press("Control+4")  # a centre note without notes mode
    page.keyboard.press("Control+7")
    board.go(d)
    page.keyboard.press("Shift+2")  # a corner mark, SudokuPad's key
    page.keyboard.press("x")  # corner mode: a digit alone marks a corner
    page.keyboard.press("5")
    expect(page.locator("#notes-toggle")).to_have_attribute("aria-pressed", "true")
    board.go(a)  # colours go on any cell, several to a cell
    page.keyboard.press("v")
    page.keyboard.press("1")
    page.keyboard.press("3")
    page.keyboard.press("z")  # back to entering values
    expect(page.locator("#notes-toggle")).to_have_attribute("aria-pressed", "false")
    board.wait_synced()
    page.wait_for_timeout(1200)  # let the clock show at least a second
    before = clock_seconds(page)
    assert before >= 1

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    restored = BoardDriver(page, 9)
    expect(restored.cell(a).locator(".v")).to_have_text(solution[a])
    expect(restored.cell(b).locator(".v")).to_have_text(solution[b])
    expect(restored.cell(c)).to_have_attribute("aria-label", re.compile(r"notes 4 7$"))
    expect(restored.cell(d)).to_have_attribute("aria-label", re.compile(r"corner marks 2 5$"))
    expect(restored.cell(d).locator(".corners")).to_have_text(re.compile(r"2\s*5"))
    expect(restored.cell(a)).to_have_attribute("aria-label", re.compile(r"colours orange, green"))
    assert "conic-gradient" in restored.cell(a).evaluate("el => el.style.backgroundImage")
    assert clock_seconds(page) >= before
    expect(page.locator("#undo")).to_be_enabled()

    # The undo history survived too: undo takes the colours back, the last corner mark,
    # then a note.
    for _ in range(2):
        page.locator("#undo").click()
        restored.wait_synced()
    expect(restored.cell(a)).not_to_have_attribute("aria-label", re.compile("colours"))
    page.locator("#undo").click()
    expect(restored.cell(d)).to_have_attribute("aria-label", re.compile(r"corner marks 2$"))
    restored.wait_synced()
    page.locator("#undo").click()
    expect(restored.cell(d)).to_have_attribute("aria-label", re.compile(r"empty$"))
    restored.wait_synced()
    page.locator("#undo").click()
    expect(restored.cell(c)).to_have_attribute("aria-label", re.compile(r"notes 4$"))

    # Restart clears the player's entries and notes; the clock keeps running from where it was.
    restored.wait_synced()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Restart").click()
    expect(restored.cell(a)).to_have_attribute("aria-label", re.compile(r"empty$"))
    expect(restored.cell(c)).to_have_attribute("aria-label", re.compile(r"empty$"))
    restored.wait_synced()
    game.refresh_from_db()
    assert game.entries == game.puzzle.givens
    assert game.elapsed_ms >= before * 1000


def test_the_third_mistake_of_three_ends_the_game_as_lost(live_server, page):
    make_puzzle(four_by_four(1), difficulty="easy")
    page.goto(live_server.url + "/")
    page.locator("label.choice", has_text="4×4").click()
    page.locator("label.choice", has_text="Easy").click()
    page.locator("fieldset", has_text="Mistakes allowed").locator(
        "label.choice", has_text="3"
    ).click()
    page.get_by_test_id("start").click()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.get_by_test_id("mistakes")).to_have_text("0/3")
    game = Game.objects.select_related("puzzle").get()
    board = BoardDriver(page, 4)
    board.focus()
    for cell in empty_cells(game.puzzle.givens)[:3]:
        right = value_of(game.puzzle.solution[cell])
        board.put(cell, 1 if right != 1 else 2)
    board.wait_synced()
    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    expect(result).to_contain_text("Out of mistakes")
    expect(page.get_by_test_id("result-score")).to_have_text("—")
    game.refresh_from_db()
    assert game.status == "lost"


SET_HIDDEN = """(hidden) => {
    const state = hidden ? "hidden" : "visible";
    Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
    Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_hiding_the_tab_pauses_the_game_until_resumed(live_server, page):
    make_puzzle(four_by_four(2), difficulty="easy")
    game = start_from_lobby(page, live_server.url, "4×4", "Easy")
    page.evaluate(SET_HIDDEN, True)
    expect(page.get_by_test_id("pause-cover")).to_be_visible()
    BoardDriver(page, 4).wait_synced()
    game.refresh_from_db()
    assert game.status == "paused"
    assert game.running_since is None
    page.evaluate(SET_HIDDEN, False)
    # Coming back shows the cover until the player resumes.
    expect(page.get_by_test_id("pause-cover")).to_be_visible()
    page.get_by_test_id("pause-cover").get_by_role("button", name="Resume").click()
    expect(page.get_by_test_id("pause-cover")).to_be_hidden()
    expect(page.locator(".board .cell .v").first).to_be_visible()


def test_the_number_pad_counts_down_and_greys_out_a_finished_digit(live_server, page):
    make_puzzle(four_by_four(3), difficulty="easy")
    game = start_from_lobby(page, live_server.url, "4×4", "Easy")
    givens, solution = game.puzzle.givens, game.puzzle.solution
    digit = solution[empty_cells(givens)[0]]
    key = page.get_by_test_id("pad").locator(f'.pad-key[data-v="{digit}"]')
    expect(key.locator(".left")).to_have_text(str(4 - givens.count(digit)))
    expect(key).to_be_enabled()
    board = BoardDriver(page, 4)
    board.focus()
    for cell in empty_cells(givens):
        if solution[cell] == digit:
            board.put(cell, int(digit))
    expect(key.locator(".left")).to_have_text("0")
    expect(key).to_be_disabled()
    # The key's name begins with what it shows: its digit, then the count left.
    expect(key).to_have_attribute("aria-label", re.compile(rf"^{digit} 0 left, enter$"))


NOTE_LAYOUT = """() => {
    const range = document.createRange();
    return [...document.querySelectorAll(".board .notes")].map((notes) => {
        const style = getComputedStyle(notes);
        const marks = [...notes.children].filter((mark) => mark.textContent).map((mark) => {
            range.selectNodeContents(mark);
            return {
                text: mark.textContent,
                slot: mark.getBoundingClientRect().width,
                ink: range.getBoundingClientRect().width,
            };
        });
        return {
            columns: style.gridTemplateColumns.split(" ").map(parseFloat),
            rows: style.gridTemplateRows.split(" ").map(parseFloat),
            marks,
        };
    });
}"""


def test_16x16_notes_in_numbers_sit_apart_in_a_4x4_grid(live_server, page):
    make_puzzle(sixteen_by_sixteen(0), difficulty="easy")
    start_from_lobby(page, live_server.url, "16×16", "Easy")
    page.get_by_label(re.compile("Show values as numbers")).check()
    page.once("dialog", lambda dialog: dialog.accept())  # what it costs
    page.get_by_role("button", name="Auto notes").click()
    expect(page.locator(".board .notes").first).to_be_visible()
    cells = page.evaluate(NOTE_LAYOUT)
    assert any(mark["text"] == "16" for cell in cells for mark in cell["marks"])
    for cell in cells:
        # Sixteen equal slots, four by four, as the box is laid out...
        assert len(cell["columns"]) == 4 and len(cell["rows"]) == 4
        assert max(cell["columns"]) - min(cell["columns"]) < 0.5, cell["columns"]
        # ...and each mark, "10" to "16" too, inside its slot with room to spare, so marks
        # side by side never touch and read as one number.
        for mark in cell["marks"]:
            assert mark["ink"] <= 0.85 * mark["slot"], mark
    page.get_by_test_id("board").screenshot(path=str(ARTIFACTS_DIR / "notes-16x16-numbers.png"))


def test_a_finished_game_turns_its_actions_off_but_not_the_way_out(live_server, page):
    make_puzzle(four_by_four(4), difficulty="easy")
    game = start_from_lobby(page, live_server.url, "4×4", "Easy")
    board = BoardDriver(page, 4)
    board.focus()
    fill_rest(board, game)
    expect(page.get_by_test_id("result")).to_be_visible()
    page.get_by_role("button", name="Look at the board").click()

    actions = page.locator(
        "#undo, #redo, #erase, #notes-toggle, #auto-notes, #hint, #restart, #pause, .pad-key"
    )
    expect(actions).to_have_count(8 + 4)
    for i in range(actions.count()):
        action = actions.nth(i)
        expect(action).to_be_disabled()
        # ...and looks it: faded like any disabled control.
        assert float(action.evaluate("(el) => getComputedStyle(el).opacity")) < 0.6, (
            action.get_attribute("id") or action.get_attribute("aria-label")
        )
    # Their keys are off too: N leaves notes mode as it was.
    board.focus()
    page.keyboard.press("n")
    expect(page.locator("#notes-toggle")).to_have_attribute("aria-pressed", "false")

    # Leaving still works: a new game from the side panel.
    new_game = page.get_by_role("link", name="New game")
    expect(new_game).to_be_visible()
    new_game.click()
    expect(page.get_by_test_id("new-game-form")).to_be_visible()


def test_the_panel_of_an_applied_hint_closes(live_server, page):
    make_puzzle(easy_nine(0), difficulty="easy")
    start_from_lobby(page, live_server.url, "9×9", "Easy")
    board = BoardDriver(page, 9)
    board.focus()
    panel = page.get_by_test_id("hint-panel")

    def apply_a_hint() -> None:
        page.keyboard.press("h")
        page.get_by_role("button", name="Show technique").click()
        page.get_by_role("button", name="Apply it").click()
        expect(page.locator("#hint-title")).to_have_text("Hint applied")
        board.wait_synced()

    apply_a_hint()
    panel.get_by_role("button", name="Close").click()
    expect(panel).to_be_hidden()
    # Esc closes it too, and so does a pause: it does not linger over a hidden board.
    for close in ("Escape", "p"):
        board.focus()
        apply_a_hint()
        board.focus()
        page.keyboard.press(close)
        expect(panel).to_be_hidden()


def test_focus_stays_on_the_page_when_hint_and_pause_buttons_go_away(live_server, page):
    """A keyboard player presses a button that then disappears ("Apply it", Close, Resume):
    focus moves to what comes next instead of falling back to the top of the page."""
    make_puzzle(easy_nine(0), difficulty="easy")
    start_from_lobby(page, live_server.url, "9×9", "Easy")
    board = BoardDriver(page, 9)
    board.focus()
    page.keyboard.press("h")
    panel = page.get_by_test_id("hint-panel")
    panel.get_by_role("button", name="Show technique").focus()
    page.keyboard.press("Enter")
    apply = panel.get_by_role("button", name="Apply it")
    expect(apply).to_be_visible()
    apply.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#hint-title")).to_have_text("Hint applied")
    close = panel.get_by_role("button", name="Close")
    expect(close).to_be_focused()
    page.keyboard.press("Enter")
    expect(panel).to_be_hidden()
    expect(page.locator(".cell.selected")).to_be_focused()

    board.wait_synced()
    page.keyboard.press("p")
    resume = page.get_by_test_id("pause-cover").get_by_role("button", name="Resume")
    expect(resume).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("pause-cover")).to_be_hidden()
    expect(page.locator(".cell.selected")).to_be_focused()


def test_looking_at_the_board_after_the_last_pad_key_puts_focus_on_the_board(live_server, page):
    make_puzzle(four_by_four(4), difficulty="easy")
    game = start_from_lobby(page, live_server.url, "4×4", "Easy")
    solution = game.puzzle.solution
    # The last value comes from the pad, whose key is then disabled (none of it is left).
    for cell in empty_cells(game.puzzle.givens):
        page.locator(f'.cell[data-cell="{cell}"]').click()
        page.locator(f'.pad-key[data-v="{value_of(solution[cell])}"]').click()
    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Watch the replay")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Look at the board")).to_be_focused()
    page.keyboard.press("Enter")
    expect(result).to_be_hidden()
    expect(page.locator(".cell.selected")).to_be_focused()


def test_giving_up_asks_first_then_ends_the_game_and_shows_the_solution(live_server, page):
    make_puzzle(four_by_four(5), difficulty="easy")
    game = start_from_lobby(page, live_server.url, "4×4", "Easy")
    asked: list[str] = []

    def answer(dialog, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    page.get_by_test_id("give-up").click()
    expect(page.get_by_test_id("give-up")).to_be_enabled()  # dismissed: still playing
    game.refresh_from_db()
    assert game.status == "in_progress"
    page.once("dialog", lambda d: answer(d, True))
    page.get_by_test_id("give-up").click()
    result = page.get_by_test_id("result")
    expect(result).to_contain_text("You gave up")
    assert asked and asked[0].startswith("Give up this game?")
    page.get_by_role("button", name="Look at the board").click()
    game.refresh_from_db()
    assert game.status == "abandoned"
    # Nothing holds this puzzle back: every empty cell shows its value from the solution.
    blanks = empty_cells(game.puzzle.givens)
    shown = page.locator(".cell.shown")
    expect(shown).to_have_count(len(blanks))
    for cell in blanks:
        expect(page.locator(f'.cell[data-cell="{cell}"]')).to_have_text(
            SYMBOLS[value_of(game.puzzle.solution[cell]) - 1]
        )
    expect(page.get_by_test_id("give-up")).to_be_disabled()


def test_giving_up_a_daily_holds_its_solution_and_says_so_in_chinese(live_server, browser):
    from django.test import Client
    from django.utils import timezone

    from play.lifecycle import Player, game_start
    from puzzles.models import DailyPuzzle
    from tests.e2e.test_axe import violations

    puzzle = make_puzzle(four_by_four(6), difficulty="easy")
    DailyPuzzle.objects.create(date=timezone.localdate(), size=4, puzzle=puzzle)
    user = UserFactory()
    game, _ = game_start(player=Player(user=user), daily=True, size=4)
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale="zh-CN", bypass_csp=True)
    context.set_default_timeout(10_000)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/play/{game.pk}/")
        expect(page.locator("body")).to_have_attribute("data-ready", "1")
        expect(page.get_by_test_id("give-up")).to_have_text("放弃")
        asked: list[str] = []
        page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
        page.get_by_test_id("give-up").click()
        expect(page.get_by_test_id("result")).to_contain_text("你放弃了")
        assert asked and asked[0].startswith("放弃这局游戏")
        # Today's daily: the rules hold its solution, and the dialog says why it is not shown.
        expect(page.get_by_test_id("result-note")).to_have_text(
            "这道题不再进行中后，答案会显示在这里。"
        )
        assert violations(page) == []
        page.get_by_role("button", name="查看棋盘").click()
        expect(page.locator(".cell.shown")).to_have_count(0)
        game.refresh_from_db()
        assert game.status == "abandoned"
    finally:
        context.close()


def test_a_players_board_aids_follow_them_to_the_next_load(live_server, page):
    make_puzzle(four_by_four(3), difficulty="easy")
    login(page, live_server.url)
    game = start_from_lobby(page, live_server.url, "4×4", "Easy")
    expect(page.locator(".cell.peer").first).to_be_visible()  # on until turned off
    with page.expect_response(lambda response: "/api/v1/me/aids/" in response.url) as saved:
        page.get_by_test_id("aid-peers").uncheck()
    assert saved.value.ok  # kept on the account: the next load reads it
    expect(page.locator(".cell.peer")).to_have_count(0)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.get_by_test_id("aid-peers")).not_to_be_checked()
    expect(page.locator(".cell.peer")).to_have_count(0)

    # With "remove a placed value from the notes" off, a peer's note of it stays, on the
    # page and on the server.
    with page.expect_response(lambda response: "/api/v1/me/aids/" in response.url):
        page.get_by_test_id("aid-clear").uncheck()
    blanks = [i for i, ch in enumerate(game.puzzle.givens) if ch == "."]
    placed = blanks[0]
    peer = next(c for c in blanks[1:] if c // 4 == placed // 4 or c % 4 == placed % 4)
    value = value_of(game.puzzle.solution[placed])
    board = BoardDriver(page, 4)
    expect(board.cell(peer)).to_have_attribute("aria-label", re.compile("empty$"))  # resumed
    board.focus()
    board.go(peer)
    page.keyboard.press(f"Control+{value}")
    board.put(placed, value)
    expect(board.cell(peer)).to_have_attribute("aria-label", re.compile(f"notes {value}$"))
    board.wait_synced()
    game.refresh_from_db()
    assert game.notes == {str(peer): [value]}
