"""The canonical key of a variant puzzle: the same for every copy that is the same puzzle.

A classic puzzle's key (``solver.rules.canon``) is the same for every relabelled, rotated,
reflected or transposed copy. A variant puzzle's key does the same within its rules:

- the eight symmetries of the square (rotations, reflections, transposition) move the
  givens, the regions (a Jigsaw's shapes, or the boxes, which a transposition turns from
  2x3 into 3x2), the cages and their sums together; both diagonals map onto themselves;
- the digits are relabelled where the rules allow it: freely without cages (Diagonal,
  Jigsaw), and in a Killer only by the complement ``d -> n + 1 - d``, which maps a cage of
  k cells summing to s onto one summing to ``k * (n + 1) - s``.

The key is read off the puzzle's structure, not its variant's name, so a Diagonal whose
boxes an f-puzzles file spells out as regions has the key of the same Diagonal without.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from solver import Grid
from solver.rules.ruleset import Rules

Transform = Callable[[int, int, int], tuple[int, int]]

SQUARE_SYMMETRIES: tuple[Transform, ...] = (
    lambda r, c, n: (r, c),
    lambda r, c, n: (c, n - 1 - r),  # a quarter turn
    lambda r, c, n: (n - 1 - r, n - 1 - c),  # a half turn
    lambda r, c, n: (n - 1 - c, r),  # three quarters
    lambda r, c, n: (r, n - 1 - c),  # mirrored left to right
    lambda r, c, n: (n - 1 - r, c),  # upside down
    lambda r, c, n: (c, r),  # transposed
    lambda r, c, n: (n - 1 - c, n - 1 - r),  # transposed on the other diagonal
)


def _first_seen(labels: list[int], *, keep_zero: bool) -> list[int]:
    """``labels`` renamed 1, 2, 3... (0, 1, 2... for regions) in the order they appear."""
    names: dict[int, int] = {}
    out = []
    start = 1 if keep_zero else 0
    for label in labels:
        if keep_zero and label == 0:
            out.append(0)
            continue
        if label not in names:
            names[label] = len(names) + start
        out.append(names[label])
    return out


def _form(grid: Grid, rules: Rules, where: list[int], complement: bool) -> str:
    """The puzzle moved cell ``i`` to ``where[i]`` (and complemented), written out."""
    n = rules.size
    ncells = n * n
    values = [0] * ncells
    regions = [0] * ncells
    for cell in range(ncells):
        v = grid.cells[cell]
        values[where[cell]] = n + 1 - v if complement and v else v
        regions[where[cell]] = rules.regions[cell]
    cages = sorted(
        (
            tuple(sorted(where[c] for c in cage.cells)),
            -1
            if cage.total is None
            else (len(cage.cells) * (n + 1) - cage.total if complement else cage.total),
        )
        for cage in rules.cages
    )
    if not rules.cages:
        values = _first_seen(values, keep_zero=True)
    return json.dumps(
        [n, _first_seen(regions, keep_zero=False), values, cages, rules.diagonals, rules.windows],
        separators=(",", ":"),
    )


def variant_canonical_form(grid: Grid, rules: Rules) -> str:
    """The smallest written form of the puzzle over its symmetries (see the module).

    A puzzle with constraints (thermometers, dots...) is written as it stands, its
    constraints beside: they would need moving and relabelling with the grid."""
    n = rules.size
    if rules.constraints:
        drawn = sorted(json.dumps(c.to_dict(), sort_keys=True) for c in rules.constraints)
        plain = [
            n,
            list(rules.regions),
            list(grid.cells),
            sorted((c.cells, c.total if c.total is not None else -1) for c in rules.cages),
            rules.diagonals,
            rules.windows,
            drawn,
        ]
        return json.dumps(plain, separators=(",", ":"))
    moves = []
    for transform in SQUARE_SYMMETRIES:
        where = []
        for cell in range(n * n):
            r, c = transform(cell // n, cell % n, n)
            where.append(r * n + c)
        moves.append(where)
    complements = (False, True) if rules.cages else (False,)
    return min(_form(grid, rules, where, flip) for where in moves for flip in complements)


def variant_canonical_key(grid: Grid, rules: Rules) -> str:
    """The stored key (sha256, like a classic puzzle's) of the canonical form."""
    return hashlib.sha256(("variant:" + variant_canonical_form(grid, rules)).encode()).hexdigest()
