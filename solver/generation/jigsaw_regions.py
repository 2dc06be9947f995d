"""Jigsaw layouts drawn at random: N regions of N connected cells each.

A region is a bitmask of its cells (bit c is cell c), so the cells next to a region, and
whether it is one piece, are a few shifts and masks per step of a flood fill.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from solver.grid import Shape, tables


def random_regions(shape: Shape, rng: random.Random, swaps: int | None = None) -> tuple[int, ...]:
    """Irregular regions of N connected cells: the boxes, then ``swaps`` (default N*N)
    exchanges of two cells between neighbouring regions, each kept only when both regions
    stay connected."""
    n = shape.size
    regions = list(tables(shape).box_of)
    grid = GridMasks.of(n)
    members = [0] * n
    for c, r in enumerate(regions):
        members[r] |= 1 << c
    target = swaps if swaps is not None else n * n
    done = tries = 0
    while done < target and tries < 20 * target:
        tries += 1
        a = rng.randrange(n * n)
        ra = regions[a]
        near = [d for d in neighbours(a, n) if regions[d] != ra]
        if not near:
            continue
        rb = regions[rng.choice(near)]
        # a cell of rb touching ra (not a) goes to ra in exchange
        a_bit = 1 << a
        touching = grid.around(members[ra] ^ a_bit) & members[rb]
        if not touching:
            continue
        b = rng.choice(cells_of(touching))
        b_bit = 1 << b
        new_a = members[ra] ^ a_bit ^ b_bit
        new_b = members[rb] ^ b_bit ^ a_bit
        if grid.connected(new_a) and grid.connected(new_b):
            members[ra], members[rb] = new_a, new_b
            regions[a], regions[b] = rb, ra
            done += 1
    return tuple(regions)


@dataclass(frozen=True, slots=True)
class GridMasks:
    """Cell bitmasks of an N x N grid (bit c is cell c) for neighbourhoods by shifts."""

    n: int
    cells: int  # every cell
    not_first: int  # every cell but those of the first column
    not_last: int  # every cell but those of the last column

    @staticmethod
    @cache
    def of(n: int) -> GridMasks:
        first = sum(1 << (r * n) for r in range(n))
        cells = (1 << (n * n)) - 1
        return GridMasks(n, cells, cells ^ first, cells ^ (first << (n - 1)))

    def around(self, mask: int) -> int:
        """The cells sharing a side with a cell of ``mask`` (``mask`` itself may be in it)."""
        n = self.n
        return (
            ((mask << 1) & self.not_first)
            | ((mask >> 1) & self.not_last)
            | ((mask << n) & self.cells)
            | (mask >> n)
        )

    def connected(self, mask: int) -> bool:
        """True when the cells of ``mask`` form one piece (a flood fill from its lowest)."""
        seen = mask & -mask
        while True:
            grown = (seen | self.around(seen)) & mask
            if grown == seen:
                return seen == mask
            seen = grown


def cells_of(mask: int) -> list[int]:
    """The cells of a bitmask, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def neighbours(c: int, n: int) -> tuple[int, ...]:
    """The cells sharing a side with cell ``c`` of an N x N grid."""
    return _neighbour_table(n)[c]


@cache
def _neighbour_table(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(_sides(c, n) for c in range(n * n))


def _sides(c: int, n: int) -> tuple[int, ...]:
    r, k = divmod(c, n)
    out = []
    if r:
        out.append(c - n)
    if r < n - 1:
        out.append(c + n)
    if k:
        out.append(c - 1)
    if k < n - 1:
        out.append(c + 1)
    return tuple(out)
