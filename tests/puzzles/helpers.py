"""Test puzzles for the bank's tests."""

from __future__ import annotations

# Wikipedia's example puzzle (one solution).
NINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
# More than one solution (the first of the shared multi-solution set).
TWO = "8.........95.......76.........426798...571243...893165......916....3.487....1.532"


def disguise(line: str) -> str:
    """The same 9x9 puzzle after relabelling, swaps of rows, bands and columns, and a
    transposition: equal up to symmetry and relabelling, different as text."""
    relabel = dict(zip("123456789", "719283546", strict=True))
    rows = [line[r * 9 : r * 9 + 9] for r in range(9)]
    rows = [rows[i] for i in (7, 6, 8, 1, 0, 2, 4, 3, 5)]  # bands 3, 1, 2; rows swapped inside
    cols = (4, 3, 5, 0, 2, 1, 6, 8, 7)
    rows = ["".join(row[c] for c in cols) for row in rows]
    rows = ["".join(rows[r][c] for r in range(9)) for c in range(9)]  # transpose
    return "".join(relabel.get(ch, ch) for ch in "".join(rows))
