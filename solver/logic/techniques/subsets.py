"""Naked and hidden subsets (pairs, triples, quads): Crook's preemptive sets.

A *naked* subset: k cells of a unit whose candidates together hold only k values, so those
values go in those cells and leave the rest of the unit. A *hidden* subset: k values of a
unit that fit only in the same k cells, so those cells hold nothing else.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from solver.logic.techniques.base import Board, Step, bit_indexes, mask_of, values_of

SIZE_NAMES = {2: "Pair", 3: "Triple", 4: "Quad"}
SIZE_SLUGS = {2: "pair", 3: "triple", 4: "quad"}


def naked_subsets(board: Board, k: int) -> Iterator[Step]:
    """k cells of a unit holding only k values between them."""
    cand, t = board.cand, board.t
    slug, name = f"naked_{SIZE_SLUGS[k]}", f"Naked {SIZE_NAMES[k]}"
    for u, cells in enumerate(t.units):
        empty = [c for c in cells if cand[c]]
        if len(empty) <= k:
            continue
        small = [c for c in empty if cand[c].bit_count() <= k]
        if len(small) < k:
            continue
        for combo in combinations(small, k):
            union = 0
            for c in combo:
                union |= cand[c]
            if union.bit_count() != k:
                continue
            elim = [(c, v) for c in empty if c not in combo for v in values_of(cand[c] & union)]
            if elim:
                vals = values_of(union)
                yield board.step(
                    slug,
                    name,
                    params={"unit": u, "cells": combo, "values": vals},
                    units=(u,),
                    cells=combo,
                    eliminations=elim,
                )


def hidden_subsets(board: Board, k: int) -> Iterator[Step]:
    """k values of a unit that fit only in the same k cells."""
    cand, t = board.cand, board.t
    pos = board.positions()
    slug, name = f"hidden_{SIZE_SLUGS[k]}", f"Hidden {SIZE_NAMES[k]}"
    for u, cells in enumerate(t.units):
        pu = pos[u]
        spots = [(i + 1, s) for i, s in enumerate(pu) if 2 <= s.bit_count() <= k]
        if len(spots) < k:
            continue
        open_cells = 0
        for s in pu:
            open_cells |= s
        if open_cells.bit_count() <= k:
            continue
        for combo in combinations(spots, k):
            union = 0
            for _, s in combo:
                union |= s
            if union.bit_count() != k:
                continue
            vals = [v for v, _ in combo]
            keep = mask_of(vals)
            where = [cells[i] for i in bit_indexes(union)]
            elim = [(c, v) for c in where for v in values_of(cand[c] & ~keep)]
            if elim:
                yield board.step(
                    slug,
                    name,
                    params={"unit": u, "values": vals, "cells": where},
                    units=(u,),
                    cells=where,
                    eliminations=elim,
                )
