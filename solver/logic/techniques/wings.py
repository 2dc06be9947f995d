"""Wings: XY-Wing, XYZ-Wing, W-Wing.

- *XY-Wing*: a pivot {x,y} sees pincers {x,z} and {y,z}; whatever the pivot is, one pincer
  is z, so z leaves every cell that sees both pincers.
- *XYZ-Wing*: a pivot {x,y,z} sees pincers {x,z} and {y,z}; one of the three is z, so z
  leaves every cell that sees all three.
- *W-Wing*: two cells {x,y} that do not see each other, joined by a conjugate pair for x
  (one end sees each cell); one of the two cells is y, so y leaves every cell seeing both.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from solver.logic.techniques.base import Board, Step, common_peers, conjugate_pairs, values_of


def _bivalue(board: Board) -> list[int]:
    return [c for c, m in enumerate(board.cand) if m and m.bit_count() == 2]


def xy_wings(board: Board) -> Iterator[Step]:
    """Pivot {x,y} with pincers {x,z} and {y,z} that it sees."""
    cand, peer_sets = board.cand, board.t.peer_sets
    bival = _bivalue(board)
    for pivot in bival:
        pm = cand[pivot]
        wings = [c for c in bival if c in peer_sets[pivot] and cand[c] != pm]
        for a, b in combinations(wings, 2):
            am, bm = cand[a], cand[b]
            z = am & bm
            if z.bit_count() != 1 or z & pm or (am | bm) & ~z != pm:
                continue
            elim = common_peers(board, (a, b), z)
            if not elim:
                continue
            zv = z.bit_length()
            x, y = values_of(pm)
            xa = (am & ~z).bit_length()
            ya = (bm & ~z).bit_length()
            yield board.step(
                "xy_wing",
                "XY-Wing",
                params={
                    "pivot_cell": pivot,
                    "x_value": x,
                    "y_value": y,
                    "first_value": xa,
                    "first_cell": a,
                    "value": zv,
                    "second_value": ya,
                    "second_cell": b,
                    "removed_cells": elim,
                },
                cells=(pivot, a, b),
                eliminations=[(c, zv) for c in elim],
            )


def xyz_wings(board: Board) -> Iterator[Step]:
    """Pivot {x,y,z} with pincers {x,z} and {y,z} that it sees."""
    cand, peer_sets = board.cand, board.t.peer_sets
    bival = _bivalue(board)
    for pivot, pm in enumerate(cand):
        if pm.bit_count() != 3:
            continue
        wings = [c for c in bival if c in peer_sets[pivot] and cand[c] & ~pm == 0]
        for a, b in combinations(wings, 2):
            am, bm = cand[a], cand[b]
            z = am & bm
            if am == bm or z.bit_count() != 1:
                continue
            elim = common_peers(board, (pivot, a, b), z)
            if not elim:
                continue
            zv = z.bit_length()
            yield board.step(
                "xyz_wing",
                "XYZ-Wing",
                params={
                    "pivot_cell": pivot,
                    "options": values_of(pm),
                    "first_cell": a,
                    "second_cell": b,
                    "value": zv,
                    "removed_cells": elim,
                },
                cells=(pivot, a, b),
                eliminations=[(c, zv) for c in elim],
            )


def w_wings(board: Board) -> Iterator[Step]:
    """Two equal bivalue cells {x,y} joined by a conjugate pair for x."""
    cand, t = board.cand, board.t
    peer_sets = t.peer_sets
    bival = _bivalue(board)
    by_mask: dict[int, list[int]] = {}
    for c in bival:
        by_mask.setdefault(cand[c], []).append(c)
    strong_cache: dict[int, list[tuple[int, int, int]]] = {}
    for m, cells in by_mask.items():
        if len(cells) < 2:
            continue
        for a, b in combinations(cells, 2):
            if b in peer_sets[a]:
                continue
            for xv in values_of(m):
                x = 1 << (xv - 1)
                y = m & ~x
                elim = common_peers(board, (a, b), y)
                if not elim:
                    continue
                if x not in strong_cache:
                    strong_cache[x] = conjugate_pairs(board, x)
                for u, s1, s2 in strong_cache[x]:
                    if a in (s1, s2) or b in (s1, s2):
                        continue
                    for e1, e2 in ((s1, s2), (s2, s1)):
                        if e1 in peer_sets[a] and e2 in peer_sets[b]:
                            yv = y.bit_length()
                            yield board.step(
                                "w_wing",
                                "W-Wing",
                                params={
                                    "first_cell": a,
                                    "second_cell": b,
                                    "x_value": xv,
                                    "y_value": yv,
                                    "unit": u,
                                    "first_end_cell": e1,
                                    "second_end_cell": e2,
                                    "removed_cells": elim,
                                },
                                units=(u,),
                                cells=(a, e1, e2, b),
                                eliminations=[(c, yv) for c in elim],
                            )
                            break
                    else:
                        continue
                    break
