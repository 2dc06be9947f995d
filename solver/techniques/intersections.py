"""Locked candidates: pointing (box -> line) and claiming (line -> box).

Both work on any box shape: a box meets a row in ``box_cols`` cells and a column in
``box_rows`` cells, and the tables say which box, row and column each cell is in.
"""

from __future__ import annotations

from collections.abc import Iterator

from solver.grid import symbol
from solver.techniques.base import Board, Step


def pointing(board: Board) -> Iterator[Step]:
    """In a box, a value's positions all lie in one row (or column): clear the rest of it."""
    cand, t = board.cand, board.t
    n = t.n
    for box in range(2 * n, 3 * n):
        cells = t.units[box]
        present = 0
        for c in cells:
            present |= cand[c]
        while present:
            b = present & -present
            present ^= b
            where = [c for c in cells if cand[c] & b]
            if len(where) < 2:
                continue
            for line in (t.cell_units[where[0]][0], t.cell_units[where[0]][1]):
                if all(t.cell_units[c][line // n] == line for c in where):
                    elim = [c for c in t.units[line] if cand[c] & b and t.box_of[c] != box - 2 * n]
                    if elim:
                        v = b.bit_length()
                        yield board.step(
                            "pointing",
                            "Pointing",
                            f"In {board.unit(box)}, {symbol(v)} fits only in {board.unit(line)} "
                            f"({board.cells(where)}), so {symbol(v)} can be removed from the "
                            f"rest of {board.unit(line)}: {board.cells(elim)}.",
                            units=(box, line),
                            cells=where,
                            eliminations=[(c, v) for c in elim],
                        )


def claiming(board: Board) -> Iterator[Step]:
    """In a row (or column), a value's positions all lie in one box: clear the rest of it."""
    cand, t = board.cand, board.t
    n = t.n
    for line in range(2 * n):
        cells = t.units[line]
        present = 0
        for c in cells:
            present |= cand[c]
        while present:
            b = present & -present
            present ^= b
            where = [c for c in cells if cand[c] & b]
            if len(where) < 2:
                continue
            box = t.box_of[where[0]]
            if any(t.box_of[c] != box for c in where):
                continue
            unit = 2 * n + box
            elim = [c for c in t.units[unit] if cand[c] & b and t.cell_units[c][line // n] != line]
            if elim:
                v = b.bit_length()
                yield board.step(
                    "claiming",
                    "Claiming",
                    f"In {board.unit(line)}, {symbol(v)} fits only in {board.unit(unit)} "
                    f"({board.cells(where)}), so {symbol(v)} can be removed from the rest of "
                    f"{board.unit(unit)}: {board.cells(elim)}.",
                    units=(line, unit),
                    cells=where,
                    eliminations=[(c, v) for c in elim],
                )
