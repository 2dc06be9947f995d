"""Locked candidates: pointing (box -> line) and claiming (line -> box).

Both work on any box shape: a box meets a row in ``box_cols`` cells and a column in
``box_rows`` cells. The meeting cells are precomputed per shape as bitsets of unit indexes
(see :meth:`Board.positions`), so a check is a couple of mask operations.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from solver.grid import Shape, tables
from solver.logic.techniques.base import Board, Step, bit_indexes

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


@cache
def _meeting_cells(
    shape: Shape, from_box: bool
) -> tuple[tuple[Meeting, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """Each meeting in the order :func:`_locked` scans them, with the cells where the two
    units meet, the rest of the first unit and the rest of the second."""
    units = tables(shape).units
    out = []
    for m in meetings(shape) if from_box else meetings_by_line(shape):
        box, line = m[0], m[1]
        unit, other = (box, line) if from_box else (line, box)
        shared = set(units[box]) & set(units[line])
        out.append(
            (
                m,
                tuple(c for c in units[unit] if c in shared),
                tuple(c for c in units[unit] if c not in shared),
                tuple(c for c in units[other] if c not in shared),
            )
        )
    return tuple(out)


def _locked(board: Board, slug: str, name: str, from_box: bool) -> Iterator[Step]:
    """A value's positions in one unit all lie where it meets a second: clear the rest of that.

    ``from_box`` picks the direction: a box pointing at a line, or a line claiming a box.
    """
    cand, units = board.cand, board.t.units
    for (box, line, bm, lm), shared, rest, other_rest in _meeting_cells(board.shape, from_box):
        # the values with two or more positions where the units meet, none in the rest of
        # the first unit and some in the rest of the second
        once = twice = 0
        for c in shared:
            m = cand[c]
            twice |= once & m
            once |= m
        if not twice:
            continue
        for c in rest:
            twice &= ~cand[c]
        if not twice:
            continue
        there = 0
        for c in other_rest:
            there |= cand[c]
        found = twice & there
        if not found:
            continue
        pos = board.positions()
        if from_box:
            unit, other, om = box, line, lm
        else:
            unit, other, om = line, box, bm
        pu, po = pos[unit], pos[other]
        for i in bit_indexes(found):
            v = i + 1
            where = [units[unit][k] for k in bit_indexes(pu[i])]
            elim = [units[other][k] for k in bit_indexes(po[i] & ~om)]
            yield board.step(
                slug,
                name,
                params={
                    "unit": unit,
                    "value": v,
                    "other_unit": other,
                    "cells": where,
                    "removed_cells": elim,
                },
                units=(unit, other),
                cells=where,
                eliminations=[(c, v) for c in elim],
            )


def pointing(board: Board) -> Iterator[Step]:
    """In a box, a value's positions all lie in one row (or column): clear the rest of it."""
    return _locked(board, "pointing", "Pointing", from_box=True)


def claiming(board: Board) -> Iterator[Step]:
    """In a row (or column), a value's positions all lie in one box: clear the rest of it."""
    return _locked(board, "claiming", "Claiming", from_box=False)
