"""Cell masks for the variant logic's techniques: per value, the cells that may hold it.

Cell c is bit ``8 * c`` of every mask. The candidates are packed into bytes (a cell's
candidates for values 1-8 in one byte, 9-16 in the next...), and each byte of every cell
read as one int with ``bytes`` slicing: a value's cells are then that int shifted and
masked. A house is a mask of its cells the same way, so "a value's positions in a house"
is one AND, "inside another house" one more, and a subset or a fish is a union whose bit
count is k.
"""

from __future__ import annotations

import sys
from array import array
from functools import cache, lru_cache

from solver.rules.ruleset import RULES_CACHED, Rules, layout

CELL_BITS = 8  # cell c is bit 8 * c of every mask
_TYPECODES = {array(code).itemsize: code for code in "LIH"}  # bytes per item -> typecode


def value_cells(cand: list[int], n: int) -> list[int]:
    """Per value (1 first), the mask of the cells whose candidates ``cand`` hold it."""
    size = 2 if n <= 16 else 4
    packed = array(_TYPECODES[size], cand)
    if sys.byteorder != "little":
        packed.byteswap()
    raw = packed.tobytes()
    first = first_bits(CELL_BITS, len(cand))
    out = []
    for j in range(size):
        if 8 * j >= n:
            break
        part = int.from_bytes(raw[j::size], "little")  # values 8j+1..8j+8 of every cell
        out += [(part >> b) & first for b in range(min(8, n - 8 * j))]
    return out


@cache
def first_bits(width: int, count: int) -> int:
    """A bit every ``width`` bits, ``count`` of them from bit 0."""
    return sum(1 << (c * width) for c in range(count))


@lru_cache(maxsize=RULES_CACHED)
def house_masks(rules: Rules) -> tuple[int, ...]:
    """Per house, the mask of its cells as :func:`value_cells` places them."""
    return tuple(sum(1 << (c * CELL_BITS) for c in house) for house in layout(rules).houses)


def indexes(mask: int, step: int) -> list[int]:
    """The positions of the bits of ``mask``, divided by ``step``, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append((low.bit_length() - 1) // step)
    return out
