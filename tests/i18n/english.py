"""What counts as English left in a Chinese page or message.

A word is a run of two or more Latin letters. Allowed are the brand, codes and names that
stay as they are in every language (field names, slugs, API terms), the keys on a keyboard,
cell names (``r2c5``), other sites' names (SudokuPad, f-puzzles) and the technique names
Chinese players write in English.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

ALLOWED = frozenset(
    {
        # The brand and the language switcher's own name for English.
        "Sudoku",
        "English",
        # Technique names kept in English by custom (see solving/steps.py).
        "Wing",
        "XY",
        "XYZ",
        "BUG",
        # Candidates named by letters in the lessons (a pivot XY, pincers XZ and YZ).
        "YZ",
        "Sue",
        "de",
        "Coq",
        "ALS",
        # The rating system's name (Glicko-2), as Chinese texts write it.
        "Glicko",
        "XZ",
        # The X and V marks' constraint (its lesson's name), named by its letters in Chinese too.
        "XV",
        # Keys.
        "Ctrl",
        "Shift",
        "Backspace",
        "Delete",
        "Esc",
        # Terms written the same in Chinese.
        "API",
        "JavaScript",
        "JSON",
        "Cookie",
    }
)

# What an API error may also hold: field names, codes and values, which never change.
API_ALLOWED = ALLOWED | frozenset(
    {
        "JSON",
        "HTTP",
        "Accept",
        "UTF",
        "ASCII",
        "UUID",
        "URL",
        "NaN",
        "Content",
        "Type",
        "Length",
        "application",
        "json",
        "true",
        "false",
        "last",
        # Field names, parameters and values of the API (they never change).
        "client_move_id",
        "box_rows",
        "box_cols",
        "difficulty",
        "size",
        "puzzle",
        "grid",
        "daily",
        "name",
        "count",
        "symmetry",
        "technique",
        "variant",
        "fpuzzles",
        "level",
        "notes",
        "easy",
        "medium",
        "hard",
        "expert",
        "master",
        "none",
        "rotational",
        "mirror",
        "diagonal",
        "value",
        "note",
    }
)

WORD = re.compile(r"[A-Za-z][A-Za-z_]+")
CELL = re.compile(r"\br\d+c\d+\b")
SHAPE = re.compile(r"\b\d+x\d+\b")
EMAIL = re.compile(r"\S+@\S+")
# Other sites' names, written as they write them in every language.
SITES = re.compile(r"\b(?:f-puzzles|SudokuPad)\b")


def english_words(text: str, allowed: frozenset[str] | set[str] = ALLOWED) -> list[str]:
    """The English words in ``text`` that are not allowed."""
    text = CELL.sub(" ", SHAPE.sub(" ", EMAIL.sub(" ", SITES.sub(" ", text))))
    return [w for w in WORD.findall(text) if w not in allowed]


class _Visible(HTMLParser):
    """The text a reader meets: text nodes and the title, aria-label, placeholder and
    alt attributes; not scripts, styles or JSON data."""

    SKIP = {"script", "style"}
    ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self._skip += 1
        for name, value in attrs:
            if name in self.ATTRIBUTES and value:
                self.parts.append(value)
        if tag == "input" and dict(attrs).get("type") in ("submit", "button"):
            self.parts.append(dict(attrs).get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())
