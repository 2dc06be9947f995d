"""Test puzzles stored through the bank's models, and a keyboard driver for the board.

Puzzles come from the data sets in data/puzzles and are solved with
``solver.search.exact.solve``, so a test can read the solution from the database the way the
server does. The driver plays the page like a keyboard user: arrow keys to a cell, then
the symbol's key.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from puzzles.models import Puzzle
from solver import format_line, parse
from solver.logic.grade import grade
from solver.rules.canon import canonical_key
from solver.search.exact import solve
from tests.solver.datasets import load, load_rated

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
ARTIFACTS_DIR = Path(__file__).resolve().parents[2] / "test-artifacts"
ARTIFACTS_DIR.mkdir(exist_ok=True)


def make_puzzle(givens: str, *, difficulty: str = "easy") -> Puzzle:
    """Store ``givens`` (one line) as a bank puzzle with its solution and its grader
    score (the puzzle's starting rating comes from it)."""
    grid = parse(givens)
    solution = solve(grid)
    assert solution is not None, "test puzzles must be solvable"
    shape = grid.shape
    line = format_line(grid)
    return Puzzle.objects.create(
        size=shape.size,
        box_rows=shape.box_rows,
        box_cols=shape.box_cols,
        givens=line,
        solution=format_line(solution),
        difficulty=difficulty,
        score=grade(grid, solution=solution).score,
        techniques={"naked_single": 1},
        hardest_technique="naked_single",
        clue_count=sum(1 for v in grid.cells if v),
        canonical_key=hashlib.sha256(canonical_key(grid).encode()).hexdigest(),
        source="imported",
    )


def four_by_four(index: int = 0) -> str:
    return load("gen_4x4_unique")[index]


def easy_nine(index: int = 0) -> str:
    """An easy 9x9: the QQWing 'simple' set has many givens, so a test types little."""
    return load("qqwing_simple")[index]


def sixteen_by_sixteen(index: int = 0) -> str:
    return load("gen_16x16_unique")[index]


def hardest_nine() -> str:
    """The hardest puzzle of the shared sets by its Sukaku Explainer rating."""
    return max(load_rated("se_rated_diabolical"), key=lambda pr: pr[1])[0]


def sixteen_givens() -> str:
    """A 17-clue puzzle with one given removed: 16 givens, so several solutions."""
    puzzle = load("royle_17clue_first1000")[0]
    first = next(i for i, ch in enumerate(puzzle) if ch not in ".0")
    return puzzle[:first] + "." + puzzle[first + 1 :]


class BoardDriver:
    """Moves the selection with the arrow keys and types symbols, as a keyboard user."""

    def __init__(self, page: Page, size: int) -> None:
        self.page = page
        self.n = size
        self.at = int(page.locator(".cell.selected").get_attribute("data-cell") or 0)

    def cell(self, index: int):
        return self.page.locator(f'.cell[data-cell="{index}"]')

    def focus(self) -> None:
        """Tab into the board: the selected cell is its one tab stop."""
        self.page.locator('.board .cell[tabindex="0"]').focus()

    def go(self, target: int, *, check: bool = True) -> None:
        n = self.n
        dr = target // n - self.at // n
        dc = target % n - self.at % n
        keyboard = self.page.keyboard
        for _ in range(abs(dr)):
            keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
        for _ in range(abs(dc)):
            keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
        self.at = target
        if check:
            expect(self.cell(target)).to_have_class(re.compile(r"\bselected\b"))

    def put(self, target: int, value: int, *, check: bool = True) -> None:
        """Select ``target`` and type ``value``; ``check``: see the selection arrive first
        (a round trip per cell; a test that reads the board after may leave it out, as
        the page handles each key before the next is sent)."""
        self.go(target, check=check)
        self.page.keyboard.press(SYMBOLS[value - 1])

    def wait_synced(self) -> None:
        """Every move the page sent has been answered by the server. Typing runs ahead of
        the server (the page answers at once and sends moves in order), so after a burst of
        keys this can take a while on a busy machine."""
        expect(self.page.locator("body")).to_have_attribute("data-sync", "idle", timeout=60_000)


def park(page: Page) -> None:
    """Pause a running game before the browser closes it. A page pauses its game when it is
    hidden; that request must not reach the live server while the test database is being
    flushed."""
    button = page.locator("#pause")
    if button.count() != 1 or not button.is_enabled():
        return
    if button.get_attribute("aria-label") == "Pause":
        button.click()
        expect(page.locator("body")).to_have_attribute("data-sync", "idle")


def empty_cells(entries: str) -> list[int]:
    return [i for i, ch in enumerate(entries) if ch == "."]


def value_of(symbol: str) -> int:
    return SYMBOLS.index(symbol) + 1
