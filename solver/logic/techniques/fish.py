"""Single-value patterns: basic fish (X-Wing, Swordfish, Jellyfish), Skyscraper, 2-String Kite.

A *fish* of size k for value v: k rows (the base) in which v fits only within the same k
columns (the cover); the k values of v in the base fill the cover columns, so v leaves the
cover columns everywhere else. The same with rows and columns swapped.

Skyscraper and 2-String Kite are two conjugate pairs for one value joined by a weak link
(two ends that see each other): one of the two far ends must hold the value.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

from solver.logic.techniques.base import (
    Board,
    Step,
    bit_indexes,
    common_peers,
    conjugate_pairs,
)

FISH = {2: ("x_wing", "X-Wing"), 3: ("swordfish", "Swordfish"), 4: ("jellyfish", "Jellyfish")}


def _line_positions(board: Board, b: int, lines: range) -> list[tuple[int, int]]:
    """(line unit, bitset of positions along the line) for lines where ``b`` is open."""
    pos = board.positions()
    i = b.bit_length() - 1
    return [(line, pos[line][i]) for line in lines if pos[line][i]]


def fish(board: Board, k: int) -> Iterator[Step]:
    """Basic fish of size k (2 X-Wing, 3 Swordfish, 4 Jellyfish), rows then columns as base."""
    cand, t = board.cand, board.t
    n = t.n
    slug, name = FISH[k]
    for b in (1 << i for i in range(n)):
        v = b.bit_length()
        for base_start, cover_start in ((0, n), (n, 0)):
            lines = _line_positions(board, b, range(base_start, base_start + n))
            if len(lines) <= k:  # no line outside the base left to clear
                continue
            small = [(line, s) for line, s in lines if 2 <= s.bit_count() <= k]
            for combo in combinations(small, k):
                union = 0
                for _, s in combo:
                    union |= s
                if union.bit_count() != k:
                    continue
                base = {line for line, _ in combo}
                covers = [cover_start + i for i in range(n) if union >> i & 1]
                elim = [
                    c
                    for cu in covers
                    for c in t.units[cu]
                    if cand[c] & b and t.cell_units[c][base_start // n] not in base
                ]
                if not elim:
                    continue
                base_sorted = sorted(base)
                pattern = [c for line in base_sorted for c in t.units[line] if cand[c] & b]
                yield board.step(
                    slug,
                    name,
                    params={
                        "variant": "rows" if base_start == 0 else "columns",
                        "base_units": base_sorted,
                        "value": v,
                        "cover_units": covers,
                        "removed_cells": sorted(elim),
                    },
                    units=tuple(base_sorted) + tuple(covers),
                    cells=pattern,
                    eliminations=[(c, v) for c in elim],
                )


def skyscrapers(board: Board) -> Iterator[Step]:
    """Two rows (or columns) with v twice each, sharing one column (row): a far end is v."""
    t = board.t
    n = t.n
    for b in (1 << i for i in range(n)):
        v = b.bit_length()
        for start, cross in ((0, 1), (n, 0)):
            pairs = conjugate_pairs(board, b, range(start, start + n))
            for (u1, a1, b1), (u2, a2, b2) in combinations(pairs, 2):
                # try each end of each pair as the base end, joined along a cross line
                for base1, far1 in ((a1, b1), (b1, a1)):
                    for base2, far2 in ((a2, b2), (b2, a2)):
                        line = t.cell_units[base1][cross]
                        if t.cell_units[base2][cross] != line:
                            continue
                        if t.cell_units[far1][cross] == t.cell_units[far2][cross]:
                            continue  # an X-Wing
                        elim = common_peers(board, (far1, far2), b)
                        if not elim:
                            continue
                        yield board.step(
                            "skyscraper",
                            "Skyscraper",
                            params={
                                "first_unit": u1,
                                "second_unit": u2,
                                "value": v,
                                "first_base_cell": base1,
                                "second_base_cell": base2,
                                "line_unit": line,
                                "first_far_cell": far1,
                                "second_far_cell": far2,
                                "removed_cells": elim,
                            },
                            units=(u1, u2, line),
                            cells=(base1, far1, base2, far2),
                            eliminations=[(c, v) for c in elim],
                        )


def two_string_kites(board: Board) -> Iterator[Step]:
    """A row pair and a column pair for v with one end of each in the same box: a far end is v."""
    t = board.t
    n = t.n
    for b in (1 << i for i in range(n)):
        v = b.bit_length()
        rows = conjugate_pairs(board, b, range(n))
        if not rows:
            continue
        cols = conjugate_pairs(board, b, range(n, 2 * n))
        for ru, r1, r2 in rows:
            for cu, c1, c2 in cols:
                for rnear, rfar in ((r1, r2), (r2, r1)):
                    for cnear, cfar in ((c1, c2), (c2, c1)):
                        if t.box_of[rnear] != t.box_of[cnear]:
                            continue
                        if len({rnear, rfar, cnear, cfar}) < 4:
                            continue
                        if t.box_of[rfar] == t.box_of[rnear] or t.box_of[cfar] == t.box_of[cnear]:
                            continue  # a pair inside one box: locked candidates cover it
                        elim = common_peers(board, (rfar, cfar), b)
                        if not elim:
                            continue
                        box = 2 * n + t.box_of[rnear]
                        yield board.step(
                            "two_string_kite",
                            "2-String Kite",
                            params={
                                "value": v,
                                "row_cells": (rnear, rfar),
                                "row_unit": ru,
                                "column_cells": (cnear, cfar),
                                "column_unit": cu,
                                "row_near_cell": rnear,
                                "column_near_cell": cnear,
                                "box_unit": box,
                                "row_far_cell": rfar,
                                "column_far_cell": cfar,
                                "removed_cells": elim,
                            },
                            units=(ru, cu, box),
                            cells=(rnear, rfar, cnear, cfar),
                            eliminations=[(c, v) for c in elim],
                        )


FINNED = {2: ("finned_x_wing", "X-Wing"), 3: ("finned_swordfish", "Swordfish")}


def finned_fish(board: Board, k: int) -> Iterator[Step]:
    """Finned and sashimi fish of size k: a fish but for fins that all lie in one box.

    Either a fin holds v, and v is in the fins' box, or none does and the fish stands: the
    cover cells in the fins' box (outside the base) lose v both ways. Sashimi when a base
    line keeps at most one position inside the cover.
    """
    cand, t = board.cand, board.t
    n = t.n
    slug, fish_name = FINNED[k]
    for b in (1 << i for i in range(n)):
        v = b.bit_length()
        for base_start, cover_start in ((0, n), (n, 0)):
            lines = _line_positions(board, b, range(base_start, base_start + n))
            if len(lines) <= k:
                continue
            lines = [(line, s) for line, s in lines if s.bit_count() <= k + 2]
            cells_of = t.units
            # a line's positions run along the cover lines: group them as boxes do
            width = board.shape.box_cols if base_start == 0 else board.shape.box_rows
            across = board.shape.box_rows if base_start == 0 else board.shape.box_cols
            for combo in combinations(lines, k):
                union = 0
                for _, s in combo:
                    union |= s
                if union.bit_count() <= k or union.bit_count() > k + 2:
                    continue
                for cover, cmask in _finned_covers(union, k, width, n):
                    if any(not s & cmask for _, s in combo):
                        continue
                    fin_lines = [(line, s & ~cmask) for line, s in combo if s & ~cmask]
                    if len({(line - base_start) // across for line, _ in fin_lines}) != 1:
                        continue  # the fins span two boxes along
                    fins = [cells_of[line][i] for line, f in fin_lines for i in bit_indexes(f)]
                    box = t.box_of[fins[0]]
                    base = {line for line, _ in combo}
                    elim = [
                        c
                        for c in t.units[2 * n + box]
                        if cand[c] & b
                        and t.cell_units[c][base_start // n] not in base
                        and t.cell_units[c][cover_start // n] - cover_start in cover
                    ]
                    if not elim or any(t.box_of[f] != box for f in fins):
                        continue  # (fins in two irregular regions: no box sees them all)
                    sashimi = any((s & cmask).bit_count() == 1 for _, s in combo)
                    name = f"{'Sashimi' if sashimi else 'Finned'} {fish_name}"
                    base_sorted = sorted(base)
                    body = [c for line in base_sorted for c in t.units[line] if cand[c] & b]
                    fish_cells = [c for c in body if c not in fins]
                    yield board.step(
                        slug,
                        name,
                        params={
                            "variant": "fins" if len(fins) > 1 else "fin",
                            "name_variant": "sashimi" if sashimi else "finned",
                            "base_units": base_sorted,
                            "value": v,
                            "cover_units": [cover_start + i for i in cover],
                            "fish_cells": fish_cells,
                            "fin_cells": fins,
                            "box_unit": 2 * n + box,
                            "removed_cells": elim,
                        },
                        units=tuple(base_sorted) + tuple(cover_start + i for i in cover),
                        cells=body,
                        eliminations=[(c, v) for c in elim],
                    )


@lru_cache(maxsize=1 << 14)  # bounded: on 25x25 a line holds many position sets
def _finned_covers(
    union: int, k: int, width: int, n: int
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """(cover indexes, cover mask): k of the positions in ``union`` such that the others
    (the fins, at least one) lie in one group of ``width`` positions (one box across).
    Cached: a line holds few position sets, and fish look them up for every combination."""
    out = []
    for g in (((1 << width) - 1) << (i * width) for i in range(n // width)):
        outside = union & ~g
        need = k - outside.bit_count()
        if need < 0:
            continue
        for extra in combinations(bit_indexes(union & g), need):
            cmask = outside | sum(1 << i for i in extra)
            if union & ~cmask:
                out.append((tuple(bit_indexes(cmask)), cmask))
    return tuple(out)


def empty_rectangles(board: Board) -> Iterator[Step]:
    """A box where v lies on one row and one column, and a conjugate pair on a crossing line.

    If the target (on the box's column, in the row of the pair's far end) were v, the far
    end would not be, the near end would, and the box would lose every place for v.
    """
    cand, t = board.cand, board.t
    n = t.n
    pos = board.positions()
    units, cell_units = t.units, t.cell_units
    for b in (1 << i for i in range(n)):
        v = b.bit_length()
        i = v - 1
        pairs = None
        for box in range(2 * n, 3 * n):
            s = pos[box][i]
            if s.bit_count() < 2:
                continue
            cells = [units[box][j] for j in bit_indexes(s)]
            rows = {cell_units[c][0] for c in cells}
            cols = {cell_units[c][1] for c in cells}
            if len(rows) == 1 or len(cols) == 1:
                continue  # on one line: pointing
            box_rows = {cell_units[c][0] for c in units[box]}
            box_cols = {cell_units[c][1] for c in units[box]}
            for r in box_rows:
                for col in box_cols:
                    if any(cell_units[c][0] != r and cell_units[c][1] != col for c in cells):
                        continue
                    if pairs is None:
                        pairs = conjugate_pairs(board, b, range(2 * n))
                    for u, e1, e2 in pairs:
                        # a column pair meets the box's row, a row pair the box's column
                        by_col = u >= n
                        if u in (box_cols if by_col else box_rows):
                            continue
                        meet = 0 if by_col else 1
                        for near, far in ((e1, e2), (e2, e1)):
                            if cell_units[near][meet] != (r if by_col else col):
                                continue
                            far_line = cell_units[far][meet]
                            if far_line in (box_rows if by_col else box_cols):
                                continue
                            cross = col if by_col else r
                            target = next(c for c in units[far_line] if cross in cell_units[c])
                            if not cand[target] & b:
                                continue
                            yield board.step(
                                "empty_rectangle",
                                "Empty Rectangle",
                                params={
                                    "box_unit": box,
                                    "value": v,
                                    "row_unit": r,
                                    "column_unit": col,
                                    "cells": cells,
                                    "unit": u,
                                    "pair_cells": (near, far),
                                    "target_cell": target,
                                    "near_cell": near,
                                },
                                units=(box, u),
                                cells=(*cells, near, far),
                                eliminations=[(target, v)],
                            )
