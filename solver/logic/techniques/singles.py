"""Singles: full house, naked single, hidden single.

Each finder is a generator of steps, so a hint takes the first one and the whole-puzzle
solver takes a batch from one scan (every step in the batch is still true when applied,
since placing one single never undoes another on a board with a solution).
"""

from __future__ import annotations

from collections.abc import Iterator

from solver.logic.techniques.base import Board, Step, unit_spread


def full_houses(board: Board) -> Iterator[Step]:
    """A unit with one empty cell: that cell takes the missing value."""
    values, cand, t = board.values, board.cand, board.t
    seen = set()
    n = t.n
    # Boxes first, then rows and columns: the order a player scans in.
    order = list(range(2 * n, 3 * n)) + list(range(2 * n))
    for u in order:
        empty = -1
        for c in t.units[u]:
            if not values[c]:
                if empty >= 0:
                    break
                empty = c
        else:
            if empty < 0 or empty in seen:
                continue
            m = cand[empty]
            if not m or m & (m - 1):
                continue  # broken board: the missing value does not fit
            seen.add(empty)
            v = m.bit_length()
            yield board.step(
                "full_house",
                "Full House",
                params={"cell": empty, "unit": u, "value": v},
                units=(u,),
                cells=(empty,),
                placements=((empty, v),),
            )


def naked_singles(board: Board) -> Iterator[Step]:
    """A cell with one candidate left."""
    cand, values, peers, full = board.cand, board.values, board.t.peers, board.t.all_mask
    for c, m in enumerate(cand):
        if m and not m & (m - 1):
            v = m.bit_length()
            seen = 0
            for p in peers[c]:
                if values[p]:
                    seen |= 1 << (values[p] - 1)
            r, k, x = board.t.cell_units[c]
            params: dict[str, object] = {"cell": c, "value": v}
            if seen | m == full:
                params.update(variant="units", units=(r, k, x))
            else:
                params.update(variant="ruled_out")
            yield board.step(
                "naked_single",
                "Naked Single",
                params=params,
                units=board.t.cell_units[c],
                cells=(c,),
                placements=((c, v),),
            )


def hidden_singles(board: Board) -> Iterator[Step]:
    """A value with one position left in a unit (boxes first, then rows, then columns)."""
    cand, t = board.cand, board.t
    n = t.n
    seen = set()
    order = list(range(2 * n, 3 * n)) + list(range(2 * n))
    for u in order:
        cells = t.units[u]
        _, single = unit_spread(cand, cells)
        while single:
            b = single & -single
            single ^= b
            for c in cells:
                if cand[c] & b:
                    break
            if c in seen:
                continue
            seen.add(c)
            v = b.bit_length()
            yield board.step(
                "hidden_single",
                "Hidden Single",
                params={"unit": u, "value": v, "cell": c},
                units=(u,),
                cells=(c,),
                placements=((c, v),),
            )
