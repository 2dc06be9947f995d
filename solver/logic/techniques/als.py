"""Almost locked sets: ALS-XZ and Sue de Coq.

- An *almost locked set* (ALS) is N cells of one unit holding N+1 values between them: take
  any one value away and the rest are locked into the N cells. A bivalue cell is an ALS.
- *ALS-XZ*: two ALSs that share a *restricted common* value x (every x of one sees every x
  of the other, so at most one of them holds x) and another common value z. One ALS loses x
  and so is locked: it holds z, or the other one does; so z leaves every cell that sees all
  the z cells of both.
- *Sue de Coq*: 2 or 3 cells where a box meets a row or column hold N+2 values; a cell of
  the line holds two of them and a cell of the box two others. The N+2 cells then hold the
  N+2 values once each: the rest of the line loses every value but the box cell's, and the
  rest of the box every value but the line cell's.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from solver.logic.techniques.base import Board, Step, bit_indexes, values_of

MAX_ALS_CELLS = 3
WING_ALS_CELLS = 4  # an ALS this large is paired with a bivalue cell only, up to 9x9
WING_ALS_MAX_SIZE = 9


def _als(board: Board) -> list[tuple[tuple[int, ...], int]]:
    """Every ALS of up to ``MAX_ALS_CELLS`` cells (``WING_ALS_CELLS`` on boards up to 9x9),
    once: (cells, mask of their values)."""
    cand = board.cand
    seen: set[tuple[int, ...]] = set()
    out = []
    most = WING_ALS_CELLS if board.t.n <= WING_ALS_MAX_SIZE else MAX_ALS_CELLS
    for cells in board.t.units:
        empty = [c for c in cells if cand[c]]
        for k in range(1, min(most, len(empty) - 1) + 1):
            for group in combinations(empty, k):
                m = 0
                for c in group:
                    m |= cand[c]
                if m.bit_count() == k + 1 and group not in seen:
                    seen.add(group)
                    out.append((group, m))
    return out


def als_xz(board: Board) -> Iterator[Step]:
    """Two ALSs with a restricted common value x and another common value z, a bivalue
    cell with a set first (see ``PAIR_SIZES``).

    Cell sets are bitsets over the board's cells: for each ALS and value, the cells holding
    the value and the cells that see all of those.
    """
    cand, t = board.cand, board.t
    n = t.n
    peer_bits = _peer_bits(board)
    holds = [0] * n  # per value: the empty cells holding it
    for c, m in enumerate(cand):
        while m:
            low = m & -m
            m ^= low
            holds[low.bit_length() - 1] |= 1 << c
    infos: dict[int, list[_Info]] = {}
    for cells, mask in sorted(_als(board)):
        bits = sum(1 << c for c in cells)
        holding = [0] * (n + 1)  # per value: the set's cells holding it
        seeing = [0] * (n + 1)  # per value: the cells that see all of those
        for v in values_of(mask):
            vbit = 1 << (v - 1)
            seen = -1
            for c in cells:
                if cand[c] & vbit:
                    seen &= peer_bits[c]
            holding[v], seeing[v] = holds[v - 1] & bits, seen
        infos.setdefault(len(cells), []).append((cells, mask, bits, holding, seeing))
    for (a, am, abits, ah, asee), (b, bm, bbits, bh, bsee) in _pairs(infos):
        common = am & bm
        if common.bit_count() < 2 or abits & bbits:
            continue
        rest = common
        while rest:  # each x in common, smallest first
            xbit = rest & -rest
            rest ^= xbit
            x = xbit.bit_length()
            if ah[x] & ~bsee[x] or bh[x] & ~asee[x]:
                continue  # some x of one set does not see every x of the other
            elim: list[tuple[int, int]] = []
            for z in values_of(common ^ xbit):
                targets = asee[z] & bsee[z] & holds[z - 1] & ~(abits | bbits)
                elim.extend((c, z) for c in bit_indexes(targets))
            if not elim:
                continue
            elim.sort()
            zs = sorted({z for _, z in elim})
            yield board.step(
                "als_xz",
                "ALS-XZ",
                params={
                    "first_cells": a,
                    "first_values": _values(board, a),
                    "second_cells": b,
                    "second_values": _values(board, b),
                    "value": x,
                    "locked_values": zs,
                },
                cells=a + b,
                eliminations=elim,
            )


_Info = tuple[tuple[int, ...], int, int, list[int], list[int]]
PAIR_SIZES = ((1, 2), (1, 3), (1, 4), (2, 2), (2, 3), (3, 3))
"""The sizes of the two sets, in the order they are tried: a bivalue cell with a set
first (the wings), then by the cells of both."""


def _pairs(infos: dict[int, list[_Info]]) -> Iterator[tuple[_Info, _Info]]:
    for m, k in PAIR_SIZES:
        if m == k:
            yield from combinations(infos.get(m, ()), 2)
        else:
            for a in infos.get(m, ()):
                for b in infos.get(k, ()):
                    yield a, b


_PEER_BITS: dict[int, tuple[object, list[int]]] = {}  # id(peers) -> (peers, bits)
PEER_BITS_KEPT = 64


def _peer_bits(board: Board) -> list[int]:
    """Each cell's peers as a bitset over the cells, computed once per peer table (one per
    box shape, or per variant's rules: see :mod:`solver.logic.classic_on_houses`)."""
    peers = board.t.peers
    held = _PEER_BITS.get(id(peers))
    if held is None or held[0] is not peers:
        if len(_PEER_BITS) >= PEER_BITS_KEPT:
            _PEER_BITS.clear()  # a generator's stream of variant rules must not pile up
        held = (peers, [sum(1 << p for p in cell_peers) for cell_peers in peers])
        _PEER_BITS[id(peers)] = held
    return held[1]


def _values(board: Board, cells: tuple[int, ...]) -> list[int]:
    m = 0
    for c in cells:
        m |= board.cand[c]
    return values_of(m)


def sue_de_coq(board: Board) -> Iterator[Step]:
    """Where a box meets a line, N cells with N+2 values, a line cell and a box cell."""
    cand, t = board.cand, board.t
    n = t.n
    for box in range(2 * n, 3 * n):
        box_cells = t.units[box]
        lines = {t.cell_units[c][k] for c in box_cells for k in (0, 1)}
        for line in sorted(lines):
            meet = [c for c in t.units[line] if cand[c] and t.cell_units[c][2] == box]
            line_rest = [c for c in t.units[line] if cand[c] and t.cell_units[c][2] != box]
            box_rest = [c for c in box_cells if cand[c] and line not in t.cell_units[c]]
            for k in (2, 3):
                for core in combinations(meet, k):
                    vm = 0
                    for c in core:
                        vm |= cand[c]
                    if vm.bit_count() != k + 2:
                        continue
                    for lc in line_rest:
                        lm = cand[lc]
                        if lm.bit_count() != 2 or lm & ~vm:
                            continue
                        for bc in box_rest:
                            bm = cand[bc]
                            if bm.bit_count() != 2 or bm & ~vm or bm & lm:
                                continue
                            elim = [
                                (c, v)
                                for c in line_rest
                                if c != lc
                                for v in values_of(cand[c] & vm & ~bm)
                            ] + [
                                (c, v)
                                for c in box_rest
                                if c != bc
                                for v in values_of(cand[c] & vm & ~lm)
                            ]
                            if not elim:
                                continue
                            yield board.step(
                                "sue_de_coq",
                                "Sue de Coq",
                                params={
                                    "cells": core,
                                    "box_unit": box,
                                    "line_unit": line,
                                    "values": values_of(vm),
                                    "line_cell": lc,
                                    "line_values": values_of(lm),
                                    "box_cell": bc,
                                    "box_values": values_of(bm),
                                    "count": k + 2,
                                },
                                units=(box, line),
                                cells=(*core, lc, bc),
                                eliminations=elim,
                            )
