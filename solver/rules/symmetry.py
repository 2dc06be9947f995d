"""The eight symmetries of the square, applied to what is drawn on a grid.

A :class:`Move` is one of them on an N x N grid. It maps a *point* (row, column), a cell's
or a clue's just outside the grid (row or column -1 or N), a *cell* index, and a *step*
(a direction such as a little killer's arrow). Constraints move themselves with it
(:meth:`~solver.rules.constraints.base.Constraint.moved`), so a puzzle's canonical key
(``puzzles.variant_keys``) can read every copy of it the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

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


class Move:
    """One symmetry (``transform``) of the N x N square; ``where[i]`` is where cell i goes."""

    __slots__ = ("n", "transform", "where")

    def __init__(self, n: int, transform: Transform) -> None:
        self.n = n
        self.transform = transform
        self.where = tuple(
            r * n + c for r, c in (transform(i // n, i % n, n) for i in range(n * n))
        )

    def point(self, row: int, col: int) -> tuple[int, int]:
        """Where the point (row, col) goes; it may lie outside the grid."""
        return self.transform(row, col, self.n)

    def cell(self, cell: int) -> int:
        return self.where[cell]

    def cells(self, cells: Iterable[int]) -> tuple[int, ...]:
        """The cells moved, in the same order."""
        where = self.where
        return tuple(where[c] for c in cells)

    def step(self, dr: int, dc: int) -> tuple[int, int]:
        """Where a step (dr, dc) points after the move (the move's linear part)."""
        r0, c0 = self.point(0, 0)
        r1, c1 = self.point(dr, dc)
        return r1 - r0, c1 - c0


def square_moves(n: int) -> list[Move]:
    """The eight symmetries of an N x N grid, the identity first."""
    return [Move(n, t) for t in SQUARE_SYMMETRIES]
