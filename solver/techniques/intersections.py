"""Locked candidates: pointing (box -> line) and claiming (line -> box).

Both work on any box shape: a box meets a row in ``box_cols`` cells and a column in
``box_rows`` cells. The meeting cells are precomputed per shape as bitsets of unit indexes
(see :meth:`Board.positions`), so a check is a couple of mask operations.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from solver.grid import Shape, symbol, tables
from solver.techniques.base import Board, Step, bit_indexes

# (box unit, line unit, box-index mask of the meeting cells, line-index mask of them)
Meeting = tuple[int, int, int, int]


@cache
def meetings(shape: Shape) -> tuple[Meeting, ...]:
    """Every box/line pair that shares cells, with the shared cells as masks on both sides."""
    t = tables(shape)
    n = t.n
    out = []
    for box in range(2 * n, 3 * n):
        box_cells = t.units[box]
        for line in range(2 * n):
            line_cells = t.units[line]
            shared = set(box_cells) & set(line_cells)
            if shared:
                bm = sum(1 << i for i, c in enumerate(box_cells) if c in shared)
                lm = sum(1 << i for i, c in enumerate(line_cells) if c in shared)
                out.append((box, line, bm, lm))
    return tuple(out)


@cache
def meetings_by_line(shape: Shape) -> tuple[Meeting, ...]:
    """:func:`meetings` ordered by line, so claiming scans rows, then columns."""
    return tuple(sorted(meetings(shape), key=lambda m: (m[1], m[0])))


def pointing(board: Board) -> Iterator[Step]:
    """In a box, a value's positions all lie in one row (or column): clear the rest of it."""
    pos, units = board.positions(), board.t.units
    for box, line, bm, lm in meetings(board.shape):
        pb, pl = pos[box], pos[line]
        for i in range(len(pb)):
            inside = pb[i]
            if inside and not inside & ~bm and inside & (inside - 1) and pl[i] & ~lm:
                v = i + 1
                where = [units[box][k] for k in bit_indexes(inside)]
                elim = [units[line][k] for k in bit_indexes(pl[i] & ~lm)]
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
    pos, units = board.positions(), board.t.units
    for box, line, bm, lm in meetings_by_line(board.shape):
        pb, pl = pos[box], pos[line]
        for i in range(len(pl)):
            inside = pl[i]
            if inside and not inside & ~lm and inside & (inside - 1) and pb[i] & ~bm:
                v = i + 1
                where = [units[line][k] for k in bit_indexes(inside)]
                elim = [units[box][k] for k in bit_indexes(pb[i] & ~bm)]
                yield board.step(
                    "claiming",
                    "Claiming",
                    f"In {board.unit(line)}, {symbol(v)} fits only in {board.unit(box)} "
                    f"({board.cells(where)}), so {symbol(v)} can be removed from the rest of "
                    f"{board.unit(box)}: {board.cells(elim)}.",
                    units=(line, box),
                    cells=where,
                    eliminations=[(c, v) for c in elim],
                )
