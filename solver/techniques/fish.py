"""Single-value patterns: basic fish (X-Wing, Swordfish, Jellyfish), Skyscraper, 2-String Kite.

A *fish* of size k for value v: k rows (the base) in which v fits only within the same k
columns (the cover); the k values of v in the base fill the cover columns, so v leaves the
cover columns everywhere else. The same with rows and columns swapped.

Skyscraper and 2-String Kite are two conjugate pairs for one value joined by a weak link
(two ends that see each other): one of the two far ends must hold the value.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from solver.techniques.base import Board, Step, common_peers, conjugate_pairs

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
