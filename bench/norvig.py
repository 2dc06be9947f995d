"""The reference solver: Peter Norvig's constraint propagation and search, kept plain.

Strings of digits for candidates, dicts keyed by square name, ``assign``/``eliminate`` with
both of his strategies (a square with one value left; a unit with one place left for a
value), and search on the square with the fewest values. Generalised to any N x N grid with
r x c boxes, and given ``count`` (solutions up to a limit) for the uniqueness rows of the
benchmark. It is the yardstick every figure in ``make bench`` is divided by.
"""

from __future__ import annotations

from functools import cache

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


def cross(a, b):
    return [x + y for x in a for y in b]


@cache
def layout(box_rows: int, box_cols: int):
    """(squares, units, peers, digits) for an N x N grid; computed once per shape."""
    n = box_rows * box_cols
    digits = SYMBOLS[:n]
    rows = [f"R{i:02d}" for i in range(n)]
    cols = [f"C{i:02d}" for i in range(n)]
    squares = cross(rows, cols)
    unitlist = (
        [cross(rows, [c]) for c in cols]
        + [cross([r], cols) for r in rows]
        + [
            cross(rows[i : i + box_rows], cols[j : j + box_cols])
            for i in range(0, n, box_rows)
            for j in range(0, n, box_cols)
        ]
    )
    units = {s: [u for u in unitlist if s in u] for s in squares}
    peers = {s: set().union(*units[s]) - {s} for s in squares}
    return squares, units, peers, digits


def parse_grid(grid: str, box_rows: int, box_cols: int):
    """Convert grid to a dict of possible values, {square: digits}, or False on contradiction."""
    squares, units, peers, digits = layout(box_rows, box_cols)
    values = dict.fromkeys(squares, digits)
    for s, d in zip(squares, grid, strict=True):
        if d in digits and not assign(values, s, d, units, peers):
            return False
    return values


def assign(values, s, d, units, peers):
    """Eliminate all the other values (except d) from values[s] and propagate."""
    other_values = values[s].replace(d, "")
    if all(eliminate(values, s, d2, units, peers) for d2 in other_values):
        return values
    return False


def eliminate(values, s, d, units, peers):
    """Eliminate d from values[s]; propagate when values or places <= 1."""
    if d not in values[s]:
        return values
    values[s] = values[s].replace(d, "")
    if len(values[s]) == 0:
        return False
    elif len(values[s]) == 1:
        d2 = values[s]
        if not all(eliminate(values, s2, d2, units, peers) for s2 in peers[s]):
            return False
    for u in units[s]:
        dplaces = [s for s in u if d in values[s]]
        if not dplaces or (len(dplaces) == 1 and not assign(values, dplaces[0], d, units, peers)):
            return False
    return values


def search(values, squares, units, peers):
    """Using depth-first search and propagation, try all possible values."""
    if values is False:
        return False
    if all(len(values[s]) == 1 for s in squares):
        return values
    _, s = min((len(values[s]), s) for s in squares if len(values[s]) > 1)
    tries = (search(assign(values.copy(), s, d, units, peers), squares, units, peers)
             for d in values[s])  # fmt: skip
    return next(filter(None, tries), False)  # the first that succeeds


def count(values, squares, units, peers, limit):
    """The number of solutions below ``values``, up to ``limit``."""
    if values is False:
        return 0
    if all(len(values[s]) == 1 for s in squares):
        return 1
    _, s = min((len(values[s]), s) for s in squares if len(values[s]) > 1)
    total = 0
    for d in values[s]:
        total += count(
            assign(values.copy(), s, d, units, peers), squares, units, peers, limit - total
        )
        if total >= limit:
            break
    return total


def solve(grid: str, box_rows: int = 3, box_cols: int = 3) -> str | None:
    """The first solution as a line of symbols, or None."""
    squares, units, peers, _ = layout(box_rows, box_cols)
    result = search(parse_grid(grid, box_rows, box_cols), squares, units, peers)
    return "".join(result[s] for s in squares) if result else None


def count_solutions(grid: str, limit: int = 2, box_rows: int = 3, box_cols: int = 3) -> int:
    """The number of solutions up to ``limit``."""
    squares, units, peers, _ = layout(box_rows, box_cols)
    return count(parse_grid(grid, box_rows, box_cols), squares, units, peers, limit)
