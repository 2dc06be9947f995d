"""Cell masks for the variant logic's techniques: per value, the cells that may hold it.

All the candidates are packed into one int, a cell's candidates taking ``cell_bits(N)``
bits (16, or 32 past 16 values) from bit ``c * cell_bits(N)`` for cell c; a value's cells
are then that int shifted and masked, cell c at that same bit. A house is a mask of its
cells the same way, so "a value's positions in a house" is one AND, "inside another
house" one more, and a subset or a fish is a union whose bit count is k.
"""

from __future__ import annotations

import sys
from array import array
from functools import cache, lru_cache

from solver.variant import RULES_CACHED, Rules, layout


def cell_bits(n: int) -> int:
    """The bits per cell in the masks of :func:`value_cells`: 16, or 32 past 16 values."""
    return 16 if n <= 16 else 32


_TYPECODES = {array(code).itemsize * 8: code for code in "LIH"}  # bits -> typecode


def value_cells(cand: list[int], n: int) -> list[int]:
    """Per value (1 first), the mask of the cells whose candidates ``cand`` hold it: one
    conversion of the list, then a shift and a mask per value (a bit per cell would need a
    loop over every cell's candidates)."""
    width = cell_bits(n)
    packed = array(_TYPECODES[width], cand)
    if sys.byteorder != "little":
        packed.byteswap()
    spread = int.from_bytes(packed.tobytes(), "little")
    first = first_bits(width, len(cand))
    return [(spread >> v) & first for v in range(n)]


@cache
def first_bits(width: int, count: int) -> int:
    """A bit every ``width`` bits, ``count`` of them from bit 0."""
    return sum(1 << (c * width) for c in range(count))


@lru_cache(maxsize=RULES_CACHED)
def house_masks(rules: Rules) -> tuple[int, ...]:
    """Per house, the mask of its cells as :func:`value_cells` places them."""
    width = cell_bits(rules.size)
    return tuple(sum(1 << (c * width) for c in house) for house in layout(rules).houses)


def indexes(mask: int, step: int) -> list[int]:
    """The positions of the bits of ``mask``, divided by ``step``, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append((low.bit_length() - 1) // step)
    return out
