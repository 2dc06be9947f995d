"""Uniqueness techniques: unique rectangles (types 1, 2, 4) and BUG+1.

All of them rest on the puzzle having exactly one solution (the engine checks that before it
hints): a pattern that would let values swap without touching any given would make a second
solution, so the board cannot end up in it.

- A *unique rectangle* is four empty cells at the corners of a rectangle spanning two rows,
  two columns and exactly two boxes, all holding {a,b}. If the four held only a and b, the
  two values could swap around the rectangle.
  - Type 1: three corners hold just {a,b}; the fourth is neither a nor b.
  - Type 2: two corners on one side hold just {a,b}, the other two hold {a,b,x} with the
    same extra x; one of those two is x, so x leaves every cell that sees both.
  - Type 4: two corners on one side hold just {a,b}; in a unit holding the other two, a fits
    only in those two, so one of them is a, and b cannot be in either.
- *BUG+1* (bivalue universal grave): every empty cell holds two values except one cell with
  three, and every value fits exactly twice in each unit except one value that fits three
  times in that cell's row, column and box. Without that value the board would be a
  deadly pattern, so the cell takes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from solver.logic.techniques.base import Board, Step, common_peers, values_of


def _rectangles(board: Board) -> Iterator[tuple[int, int, int, int, int]]:
    """(mask, a, b, c, d): bivalue corners a and b share a row or a column, c and d the rest.

    c is the corner in line with a, d the corner in line with b; the four span two boxes
    and c, d hold at least the two values of a and b.
    """
    cand, t = board.cand, board.t
    n = t.n
    box_of = t.box_of
    for a, am in enumerate(cand):
        if am.bit_count() != 2:
            continue
        r1, c1 = divmod(a, n)
        # b to the right in the same row: the other side is another row
        for c2 in range(c1 + 1, n):
            b = r1 * n + c2
            if cand[b] != am:
                continue
            for r2 in range(n):
                if r2 == r1:
                    continue
                c, d = r2 * n + c1, r2 * n + c2
                if (
                    cand[c] & am == am
                    and cand[d] & am == am
                    and len({box_of[a], box_of[b], box_of[c], box_of[d]}) == 2
                ):
                    yield am, a, b, c, d
        # b below in the same column: the other side is another column
        for r2 in range(r1 + 1, n):
            b = r2 * n + c1
            if cand[b] != am:
                continue
            for c2 in range(n):
                if c2 == c1:
                    continue
                c, d = r1 * n + c2, r2 * n + c2
                if (
                    cand[c] & am == am
                    and cand[d] & am == am
                    and len({box_of[a], box_of[b], box_of[c], box_of[d]}) == 2
                ):
                    yield am, a, b, c, d


def unique_rectangles(board: Board) -> Iterator[Step]:
    """Type 1: three corners {a,b}, the fourth {a,b,...} loses a and b."""
    cand = board.cand
    for am, a, b, c, d in _rectangles(board):
        cm, dm = cand[c], cand[d]
        if cm == am and dm != am:
            target = d
        elif dm == am and cm != am:
            target = c
        else:
            continue
        x, y = values_of(am)
        others = [k for k in (a, b, c, d) if k != target]
        yield board.step(
            "unique_rectangle_1",
            "Unique Rectangle Type 1",
            params={
                "cells": others,
                "values": (x, y),
                "target_cell": target,
                "x_value": x,
                "y_value": y,
            },
            cells=(a, b, c, d),
            eliminations=[(target, v) for v in (x, y) if cand[target] & (1 << (v - 1))],
        )


def unique_rectangles_2(board: Board) -> Iterator[Step]:
    """Type 2: the two roof corners hold {a,b,x}; x leaves the cells that see both."""
    cand = board.cand
    for am, a, b, c, d in _rectangles(board):
        cm = cand[c]
        extra = cm & ~am
        if cm != cand[d] or extra.bit_count() != 1:
            continue
        elim = common_peers(board, (c, d), extra)
        if not elim:
            continue
        x, y = values_of(am)
        z = extra.bit_length()
        yield board.step(
            "unique_rectangle_2",
            "Unique Rectangle Type 2",
            params={
                "floor_cells": (a, b),
                "floor_values": (x, y),
                "roof_cells": (c, d),
                "roof_values": (x, y, z),
                "value": z,
                "removed_cells": elim,
            },
            cells=(a, b, c, d),
            eliminations=[(e, z) for e in elim],
        )


def unique_rectangles_4(board: Board) -> Iterator[Step]:
    """Type 4: a value of the rectangle is locked to the two roof corners; the other goes."""
    cand, t = board.cand, board.t
    for am, a, b, c, d in _rectangles(board):
        if cand[c] == am or cand[d] == am:
            continue  # type 1 covers it
        shared = set(t.cell_units[c]) & set(t.cell_units[d])
        for u in sorted(shared):
            for keep, drop in (values_of(am), reversed(values_of(am))):
                kb = 1 << (keep - 1)
                if any(cand[e] & kb for e in t.units[u] if e != c and e != d):
                    continue
                yield board.step(
                    "unique_rectangle_4",
                    "Unique Rectangle Type 4",
                    params={
                        "floor_cells": (a, b),
                        "floor_values": (keep, drop),
                        "unit": u,
                        "keep_value": keep,
                        "roof_cells": (c, d),
                        "drop_value": drop,
                    },
                    units=(u,),
                    cells=(a, b, c, d),
                    eliminations=[(c, drop), (d, drop)],
                )
                break
            else:
                continue
            break


def bug_plus_one(board: Board) -> Iterator[Step]:
    """All empty cells bivalue but one trivalue cell: it takes the value seen thrice."""
    cand, t = board.cand, board.t
    extra = -1
    for c, m in enumerate(cand):
        if not m:
            continue
        k = m.bit_count()
        if k == 2:
            continue
        if k != 3 or extra >= 0:
            return
        extra = c
    if extra < 0:
        return
    odd_value = 0
    for u, cells in enumerate(t.units):
        once = twice = thrice = four = 0
        for c in cells:
            m = cand[c]
            four |= thrice & m
            thrice |= twice & m
            twice |= once & m
            once |= m
        # every value fits exactly twice, except one value three times in extra's units
        if four or once & ~twice:
            return
        if u in t.cell_units[extra]:
            if thrice.bit_count() != 1 or not thrice & cand[extra]:
                return
            if odd_value and odd_value != thrice:
                return
            odd_value = thrice
        elif thrice:
            return
    if not odd_value:
        return
    v = odd_value.bit_length()
    yield board.step(
        "bug_plus_one",
        "BUG+1",
        params={"cell": extra, "value": v, "units": t.cell_units[extra]},
        units=t.cell_units[extra],
        cells=(extra,),
        placements=((extra, v),),
    )


def _all_rectangles(board: Board) -> Iterator[tuple[int, tuple[int, int, int, int]]]:
    """(mask {a,b}, corners a, b, c, d) with a bivalue {a,b}, b beside a in its row, c below
    a in its column and d opposite a; the four span two boxes and all hold a and b.

    Each rectangle comes once for each of its corners that holds just {a,b}.
    """
    cand, t = board.cand, board.t
    n = t.n
    box_of = t.box_of
    for a, am in enumerate(cand):
        if am.bit_count() != 2:
            continue
        r1, c1 = divmod(a, n)
        for c2 in range(n):
            b = r1 * n + c2
            if c2 == c1 or cand[b] & am != am:
                continue
            for r2 in range(n):
                c, d = r2 * n + c1, r2 * n + c2
                if r2 == r1 or cand[c] & am != am or cand[d] & am != am:
                    continue
                if len({box_of[a], box_of[b], box_of[c], box_of[d]}) == 2:
                    yield am, (a, b, c, d)


def unique_rectangles_3(board: Board) -> Iterator[Step]:
    """Type 3: the two roof corners' extra values act as one cell in a naked subset."""
    cand, t = board.cand, board.t
    for am, (a, b, c, d) in _all_rectangles(board):
        for floor, roof in (((a, b), (c, d)), ((a, c), (b, d))):
            if cand[floor[1]] != am or cand[roof[0]] == am or cand[roof[1]] == am:
                continue
            extra = (cand[roof[0]] | cand[roof[1]]) & ~am
            shared = set(t.cell_units[roof[0]]) & set(t.cell_units[roof[1]])
            for u in sorted(shared):
                others = [e for e in t.units[u] if cand[e] and e not in roof and cand[e] & ~am]
                for k in (1, 2, 3):
                    for group in combinations(others, k):
                        m = extra
                        for e in group:
                            m |= cand[e]
                        if m.bit_count() != k + 1:
                            continue
                        elim = [
                            (e, v)
                            for e in t.units[u]
                            if e not in roof and e not in group
                            for v in values_of(cand[e] & m)
                        ]
                        if not elim:
                            continue
                        yield board.step(
                            "unique_rectangle_3",
                            "Unique Rectangle Type 3",
                            params={
                                "floor_cells": floor,
                                "floor_values": values_of(am),
                                "roof_cells": roof,
                                "extra_values": values_of(extra),
                                "group_cells": group,
                                "locked_values": values_of(m),
                                "unit": u,
                            },
                            units=(u,),
                            cells=(a, b, c, d, *group),
                            eliminations=elim,
                        )


def unique_rectangles_5(board: Board) -> Iterator[Step]:
    """Type 5: the corners with more than {a,b} (two diagonal, or three) share one extra x."""
    cand = board.cand
    for am, corners in _all_rectangles(board):
        rich = [k for k in corners if cand[k] != am]
        extra = 0
        for k in rich:
            extra |= cand[k] & ~am
        if len(rich) < 2 or extra.bit_count() != 1:
            continue
        _, b, c, d = corners
        if rich in ([c, d], [b, d]):
            continue  # two corners on one side: type 2
        elim = common_peers(board, rich, extra)
        if not elim:
            continue
        z = extra.bit_length()
        yield board.step(
            "unique_rectangle_5",
            "Unique Rectangle Type 5",
            params={
                "cells": corners,
                "values": values_of(am),
                "rich_cells": rich,
                "value": z,
                "removed_cells": elim,
            },
            cells=corners,
            eliminations=[(e, z) for e in elim],
        )


def _locked_in(board: Board, bit: int, unit: int, cells: tuple[int, ...]) -> bool:
    """True when ``bit`` fits nowhere in ``unit`` but ``cells``."""
    cand = board.cand
    return not any(cand[e] & bit for e in board.t.units[unit] if e not in cells)


def unique_rectangles_6(board: Board) -> Iterator[Step]:
    """Type 6: two diagonal corners {a,b}, and a in the rectangle's rows and columns only at
    its corners: the other two corners are not a."""
    cand, t = board.cand, board.t
    for am, (a, b, c, d) in _all_rectangles(board):
        if cand[d] != am or cand[b] == am or cand[c] == am or a > d:
            continue
        for keep in values_of(am):
            kb = 1 << (keep - 1)
            lines = (t.cell_units[a][0], t.cell_units[d][0], t.cell_units[a][1], t.cell_units[d][1])
            if not all(_locked_in(board, kb, u, (a, b, c, d)) for u in lines):
                continue
            yield board.step(
                "unique_rectangle_6",
                "Unique Rectangle Type 6",
                params={
                    "floor_cells": (a, d),
                    "values": values_of(am),
                    "units": lines,
                    "keep_value": keep,
                    "cells": (a, b, c, d),
                    "first_cell": b,
                    "second_cell": c,
                    "roof_cells": (b, c),
                },
                units=lines,
                cells=(a, b, c, d),
                eliminations=[(b, keep), (c, keep)],
            )


def hidden_unique_rectangles(board: Board) -> Iterator[Step]:
    """One corner {a,b}; in the opposite corner's row and column, b fits only at corners."""
    cand, t = board.cand, board.t
    for am, (a, b, c, d) in _all_rectangles(board):
        if cand[d] == am:
            continue
        for keep in values_of(am):
            kb = 1 << (keep - 1)
            drop = (am & ~kb).bit_length()
            row, col = t.cell_units[d][0], t.cell_units[d][1]
            if not (_locked_in(board, kb, row, (c, d)) and _locked_in(board, kb, col, (b, d))):
                continue
            yield board.step(
                "hidden_unique_rectangle",
                "Hidden Unique Rectangle",
                params={
                    "cell": a,
                    "values": values_of(am),
                    "keep_value": keep,
                    "row_unit": row,
                    "row_cells": (c, d),
                    "column_unit": col,
                    "column_cells": (b, d),
                    "target_cell": d,
                    "drop_value": drop,
                    "cells": (a, b, c, d),
                },
                units=(row, col),
                cells=(a, b, c, d),
                eliminations=[(d, drop)],
            )
