"""A second, independent exact engine: Knuth's Algorithm X over the exact-cover matrix.

Sudoku as exact cover: a *row* of the matrix is a choice (cell, value); a *column* is a
constraint that exactly one choice must meet: each cell holds a value, and each row,
column and box holds each value. Dancing Links is kept in Ali Assaf's form, with a dict
from column to the set of rows that cover it (``x``) and a dict from row to its columns
(``y``): removing and restoring a column is set arithmetic, and the column with the
fewest rows is chosen at each step. The search keeps its own stack, so a 25x25 grid is
no deeper for Python than a 4x4 one.

It shares nothing with :mod:`solver.search.exact` but the :class:`Grid` type, so the tests can
use it as an oracle: both engines must agree on every puzzle of the shared data sets.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import cast

from solver.grid import Grid, Shape
from solver.rules.ruleset import Rules, layout

COVERED = cast(set[int], frozenset(range(4096)))
"""Stands for a covered column: more rows than any real one, so never the fewest; keeping
the key (instead of deleting it) keeps the columns in their first order, which breaks
ties in the choice of column the same way every time."""

Choice = int  # cell * N + value - 1
Column = int  # cell, then N*N + row * N + value - 1, then columns, then boxes


@cache
def _matrix(shape: Shape) -> dict[Choice, tuple[Column, ...]]:
    """The columns each choice covers, for an empty grid of ``shape``."""
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    nn = n * n
    y: dict[Choice, tuple[Column, ...]] = {}
    for r in range(n):
        for c in range(n):
            box = (r // br) * br + c // bc
            for v in range(n):
                y[(r * n + c) * n + v] = (
                    r * n + c,
                    nn + r * n + v,
                    2 * nn + c * n + v,
                    3 * nn + box * n + v,
                )
    return y


def _select(
    x: dict[Column, set[Choice]],
    y: dict[Choice, tuple[Column, ...]],
    row: Choice,
    touched: list[Choice],
) -> tuple[list[set[Choice]], Column]:
    """Take ``row`` into the cover: cover its columns, removing every row that clashes.

    Returns what was removed, and a column this left with one row or none (-1 if none):
    the next column to choose, found without scanning them all. The rows removed are
    appended to ``touched``: their columns are the only ones that changed."""
    removed = []
    tight = -1
    own = y[row]
    for j in own:
        rows = x[j]
        touched.extend(rows)
        for i in rows:
            for k in y[i]:
                if k != j:
                    left = x[k]
                    left.discard(i)
                    if len(left) < 2 and (tight < 0 or not left) and k not in own:
                        tight = k
        removed.append(rows)
        x[j] = COVERED
    return removed, tight


def _deselect(
    x: dict[Column, set[Choice]],
    y: dict[Choice, tuple[Column, ...]],
    row: Choice,
    removed: list[set[Choice]],
) -> None:
    """Undo :func:`_select`, restoring the columns in reverse order."""
    for j in reversed(y[row]):
        x[j] = rows = removed.pop()
        for i in rows:
            for k in y[i]:
                if k != j:
                    x[k].add(i)


def _reduce(
    x: dict[Column, set[Choice]], y: dict[Choice, tuple[Column, ...]], cap: int, work: set[Column]
) -> list[Choice]:
    """Delete rows by column inclusion until none applies; the rows deleted, in order.

    If every row that covers column A also covers column B, B will be covered by A's row,
    so B's other rows can go. (In Sudoku terms this is pointing and claiming.) Such a B is
    a column of A's first row, and only columns of at most ``cap`` rows fit inside another.
    ``work`` holds the columns A to look at; the deletions add the columns they change.
    """
    deleted: list[Choice] = []
    while work:
        a = work.pop()
        rows = x[a]
        size = len(rows)
        if size < 2 or size > cap:
            continue
        for b in y[next(iter(rows))]:
            wider = x[b]
            if len(wider) > size and b != a and rows <= wider:
                for i in sorted(wider - rows):
                    for j in y[i]:
                        x[j].discard(i)
                        work.add(j)
                    deleted.append(i)
    return deleted


def _restore(
    x: dict[Column, set[Choice]], y: dict[Choice, tuple[Column, ...]], deleted: list[Choice]
) -> None:
    """Undo :func:`_reduce`."""
    for i in reversed(deleted):
        for j in y[i]:
            x[j].add(i)


@cache
def _variant_matrix(rules: Rules) -> tuple[dict[Choice, tuple[Column, ...]], int, int]:
    """The columns each choice covers under ``rules``, the number of columns, and the
    number of rows a solution chooses beyond its cells.

    Houses are columns like rows and columns (one per house and value). A cage's sum is
    made exact cover too: a column per (cage, value) that a cage cell holding the value
    covers, a column "the cage's combination" and a row per *combination* (the values
    that add up to the sum) covering that column and the (cage, value) columns of the
    values *not* in it. Choosing a combination row so leaves its values to be placed in
    the cage exactly once each. A cage without a sum has a row per value instead, each
    covering only its (cage, value) column: the value is absent from the cage.
    """
    shape = rules.shape
    n, nc = shape.size, shape.ncells
    lay = layout(rules)
    nh = len(lay.houses)
    cage_base = nc + nh * n
    pick_base = cage_base + len(rules.cages) * n
    y: dict[Choice, tuple[Column, ...]] = {}
    for cell in range(nc):
        in_cage = lay.cage_of[cell]
        for v in range(n):
            cols = [cell] + [nc + h * n + v for h in lay.cell_houses[cell]]
            if in_cage >= 0:
                cols.append(cage_base + in_cage * n + v)
            y[cell * n + v] = tuple(cols)
    row = n * nc
    extra = 0
    for i, cage in enumerate(rules.cages):
        if cage.total is None:
            for v in range(n):
                y[row] = (cage_base + i * n + v,)
                row += 1
            extra += n - len(cage.cells)
            continue
        k = len(cage.cells)
        # Worked out here, not taken from solver.rules.ruleset, to keep the oracle independent.
        combos = [
            sum(1 << v for v in combo)
            for combo in combinations(range(n), k)
            if sum(combo) + k == cage.total
        ]
        if len(combos) >= len(COVERED):
            raise ValueError(f"cage {i + 1} has too many combinations for the oracle")
        for combo in combos:
            left_out = [cage_base + i * n + v for v in range(n) if not combo >> v & 1]
            y[row] = (pick_base + i, *left_out)
            row += 1
        extra += 1
    return y, pick_base + len(rules.cages), extra


def _solutions(grid: Grid, limit: int, rules: Rules | None = None) -> list[list[Choice]]:
    """Up to ``limit`` solutions, each the list of choices the search made."""
    shape = grid.shape
    n = shape.size
    needed = n * n  # rows still to choose: one per empty cell (and per cage's choice)
    if rules is None or rules.is_classic:
        y = _matrix(shape)
        cap = max(shape.box_rows, shape.box_cols)  # the most rows two columns can share
        ncols = 4 * n * n
    else:
        if rules.shape != shape:
            raise ValueError(f"a {shape.label} grid cannot have {rules.shape.label} rules")
        if rules.constraints:
            raise ValueError("the Algorithm X oracle covers houses and cages, not constraints")
        y, ncols, extra = _variant_matrix(rules)
        cap = n
        needed += extra
    x: dict[Column, set[Choice]] = {j: set() for j in range(ncols)}
    for row, cols in y.items():
        for j in cols:
            x[j].add(row)
    if ncols != 4 * n * n:  # a cage without a sum has no combination column
        x = {j: rows for j, rows in x.items() if rows}
    touched: list[Choice] = []
    for cell, v in enumerate(grid.cells):
        if v:
            row = cell * n + v - 1
            if row not in x[y[row][0]] or any(x[j] is COVERED for j in y[row]):
                return []  # a given clashes with an earlier one
            _select(x, y, row, touched)
            needed -= 1
    tight = -1
    found: list[list[Choice]] = []
    # A frame: the rows left to try for its column, the row taken and what it removed, the
    # rows its reduction deleted, the length of ``touched`` when it was made, and where
    # ``touched`` stood after the last reduction on the path (-1: none yet).
    stack: list[tuple[list[Choice], Choice | None, list[set[Choice]], list[Choice], int, int]] = []
    chosen: list[Choice] = []
    descend = True
    while True:
        if descend:
            if len(chosen) == needed:
                found.append(list(chosen))
                if len(found) >= limit:
                    return found
            else:
                # A column with no row or one, else the fewest rows (ties: the first column).
                fewest = x[tight] if tight >= 0 else COVERED
                if len(fewest) > 1:  # no forced column known (or it was covered)
                    fewest = min(x.values(), key=len)
                deleted: list[Choice] = []
                since = stack[-1][5] if stack else -1
                if len(fewest) > 1:
                    # Only columns that lost rows since the last reduction can now fit.
                    work = set(x) if since < 0 else {j for i in touched[since:] for j in y[i]}
                    deleted = _reduce(x, y, cap, work)
                    if deleted:
                        fewest = min(x.values(), key=len)
                    since = len(touched)
                rows = sorted(fewest, reverse=True)
                stack.append((rows, None, [], deleted, len(touched), since))
        # Undo the last row taken at the top frame, then take the next one.
        if not stack:
            return found
        rows, taken, removed, deleted, mark, since = stack[-1]
        if taken is not None:
            _deselect(x, y, taken, removed)
            chosen.pop()
            del touched[mark:]
        if not rows:
            stack.pop()
            _restore(x, y, deleted)
            descend = False
            continue
        row = rows.pop()
        removed, tight = _select(x, y, row, touched)
        stack[-1] = (rows, row, removed, deleted, mark, since)
        chosen.append(row)
        descend = True


def dlx_solutions(grid: Grid, *, limit: int, rules: Rules | None = None) -> list[Grid]:
    """Up to ``limit`` solutions (under ``rules``, when given)."""
    n = grid.shape.size
    last = n * grid.shape.ncells  # rows from here on are a cage's choices
    out = []
    for chosen in _solutions(grid, limit, rules):
        cells = list(grid.cells)
        for row in chosen:
            if row >= last:
                continue
            cell, v = divmod(row, n)
            cells[cell] = v + 1
        out.append(Grid(grid.shape, tuple(cells)))
    return out


def dlx_count(grid: Grid, *, limit: int = 2, rules: Rules | None = None) -> int:
    """The number of solutions, counting no further than ``limit``."""
    return len(_solutions(grid, limit, rules)) if limit > 0 else 0


def dlx_solve(grid: Grid, *, rules: Rules | None = None) -> Grid | None:
    """A solution, or None when there is none."""
    found = dlx_solutions(grid, limit=1, rules=rules)
    return found[0] if found else None
