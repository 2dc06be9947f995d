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

from solver.grid import symbol
from solver.techniques.base import Board, Step, common_peers, conjugate_pairs, join_words

FISH = {2: ("x_wing", "X-Wing"), 3: ("swordfish", "Swordfish"), 4: ("jellyfish", "Jellyfish")}


def _line_positions(board: Board, b: int, lines: range) -> list[tuple[int, int]]:
    """(line unit, bitset of positions along the line) for lines where ``b`` is open."""
    pos = board.positions()
    i = b.bit_length() - 1
    return [(line, pos[line][i]) for line in lines if pos[line][i]]


def _plural(kind: str, numbers: list[int]) -> str:
    return f"{kind}s {join_words([str(x + 1) for x in numbers])}"


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
                base_kind = "row" if base_start == 0 else "column"
                cover_kind = "column" if base_start == 0 else "row"
                base_idx = [x - base_start for x in base_sorted]
                cover_idx = [x - cover_start for x in covers]
                pattern = [c for line in base_sorted for c in t.units[line] if cand[c] & b]
                yield board.step(
                    slug,
                    name,
                    f"In {_plural(base_kind, base_idx)}, {symbol(v)} fits only in "
                    f"{_plural(cover_kind, cover_idx)}, so {symbol(v)} can be removed from "
                    f"the rest of those {cover_kind}s: {board.cells(sorted(elim))}.",
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
                            f"In {board.unit(u1)} and {board.unit(u2)}, {symbol(v)} fits only "
                            f"in two cells each, and {board.cell(base1)} and {board.cell(base2)} "
                            f"share {board.unit(line)}, so {board.cell(far1)} or "
                            f"{board.cell(far2)} is {symbol(v)}: remove {symbol(v)} from "
                            f"{board.cells(elim)}.",
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
                            f"{symbol(v)} fits only in {board.cells((rnear, rfar))} in "
                            f"{board.unit(ru)} and only in {board.cells((cnear, cfar))} in "
                            f"{board.unit(cu)}; {board.cell(rnear)} and {board.cell(cnear)} "
                            f"share {board.unit(box)}, so {board.cell(rfar)} or "
                            f"{board.cell(cfar)} is {symbol(v)}: remove {symbol(v)} from "
                            f"{board.cells(elim)}.",
                            units=(ru, cu, box),
                            cells=(rnear, rfar, cnear, cfar),
                            eliminations=[(c, v) for c in elim],
                        )
