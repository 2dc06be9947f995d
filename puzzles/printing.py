"""Layout of the printable page of a pack: puzzles several to an A4 page, then the answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from puzzles.models import PackEntry, PuzzlePack

# Puzzles per A4 page by grid side (answers are printed smaller, twice as many a page).
PER_PAGE = {4: 12, 6: 12, 8: 6, 9: 6, 12: 4, 16: 2}


def grid_rows(text: str, size: int, box_rows: int, box_cols: int) -> list[list[dict[str, str]]]:
    """Rows of cells, each ``{"symbol", "classes"}``; the classes draw the box borders."""
    rows = []
    for r in range(size):
        row = []
        for c in range(size):
            ch = text[r * size + c]
            classes = []
            if r % box_rows == 0:
                classes.append("bt")
            if c % box_cols == 0:
                classes.append("bl")
            if r == size - 1:
                classes.append("bb")
            if c == size - 1:
                classes.append("br")
            row.append({"symbol": "" if ch == "." else ch, "classes": " ".join(classes)})
        rows.append(row)
    return rows


def _pages(items: Sequence[Any], per_page: int) -> list[list[Any]]:
    return [list(items[i : i + per_page]) for i in range(0, len(items), per_page)]


def print_pages(*, pack: PuzzlePack, entries: Sequence[PackEntry]) -> dict[str, Any]:
    per_page = PER_PAGE.get(pack.size, 4)
    cards = []
    answers = []
    for entry in entries:
        p = entry.puzzle
        number = entry.position + 1
        cards.append(
            {
                "number": number,
                "level": p.get_difficulty_display(),
                "rows": grid_rows(p.givens, p.size, p.box_rows, p.box_cols),
            }
        )
        answers.append(
            {"number": number, "rows": grid_rows(p.solution, p.size, p.box_rows, p.box_cols)}
        )
    return {
        "puzzle_pages": _pages(cards, per_page),
        "answer_pages": _pages(answers, per_page * 2),
        "size_class": f"size-{pack.size}",
    }
