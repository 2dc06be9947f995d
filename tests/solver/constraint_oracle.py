"""An independent check of constraints for the tests: each rule written plainly from its
JSON (the API's shape), and a brute-force count that shares no code with the engines."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from solver.rules.ruleset import Rules


def _neighbours(n: int) -> list[tuple[int, int]]:
    out = []
    for r in range(n):
        for k in range(n):
            if k + 1 < n:
                out.append((r * n + k, r * n + k + 1))
            if r + 1 < n:
                out.append((r * n + k, (r + 1) * n + k))
    return out


def _apart(n: int, steps: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    for r, k in itertools.product(range(n), repeat=2):
        for dr, dk in steps:
            for sr, sk in ((dr, dk), (-dr, -dk)):
                if 0 <= r + sr < n and 0 <= k + sk < n:
                    out.append((r * n + k, (r + sr) * n + k + sk))
    return out


def holds(
    con: dict[str, Any],
    all_cons: list[dict[str, Any]],
    g: Sequence[int],
    n: int,
    regions: Sequence[int],
) -> bool:
    """True when the full grid ``g`` obeys ``con`` (written from the rules, not the engine)."""
    kind = con["type"]
    cells = con.get("cells", [])
    v = [g[c] for c in cells]
    if kind == "thermometer":
        return all(a < b for a, b in itertools.pairwise(v))
    if kind == "arrow":
        number = int("".join(str(g[c]) for c in con["circle"]))
        return sum(g[c] for c in con["line"]) == number
    if kind == "kropki":
        a, b = v
        if con["colour"] == "white":
            return abs(a - b) == con["value"]
        return a == con["value"] * b or b == con["value"] * a
    if kind == "xv":
        return sum(v) == con["sum"]
    if kind in ("black_dots_negative", "xv_negative", "nonconsecutive"):
        want = {"black_dots_negative": "kropki", "xv_negative": "xv", "nonconsecutive": "kropki"}[
            kind
        ]
        colour = {"black_dots_negative": "black", "nonconsecutive": "white"}.get(kind)
        marked = {
            frozenset(o["cells"])
            for o in all_cons
            if o["type"] == want and (colour is None or o["colour"] == colour)
        }
        for a, b in _neighbours(n):
            if frozenset((a, b)) in marked:
                continue
            x, y = g[a], g[b]
            if kind == "black_dots_negative" and (x == 2 * y or y == 2 * x):
                return False
            if kind == "xv_negative" and x + y in (5, 10):
                return False
            if kind == "nonconsecutive" and abs(x - y) == 1:
                return False
        return True
    if kind == "antiknight":
        return all(g[a] != g[b] for a, b in _apart(n, [(1, 2), (2, 1), (1, -2), (2, -1)]))
    if kind == "antiking":
        return all(g[a] != g[b] for a, b in _apart(n, [(1, 1), (1, -1)]))
    if kind == "odd":
        return g[con["cell"]] % 2 == 1
    if kind == "even":
        return g[con["cell"]] % 2 == 0
    if kind == "little_killer":
        r, k = con["clue"]
        dr = 1 if con["direction"][0] == "D" else -1
        dk = 1 if con["direction"][1] == "R" else -1
        total = 0
        r, k = r + dr, k + dk
        while 0 <= r < n and 0 <= k < n:
            total += g[r * n + k]
            r, k = r + dr, k + dk
        return total == con["sum"]
    if kind == "sandwich":
        i = con["index"]
        line = (
            [g[i * n + k] for k in range(n)]
            if con["line"] == "row"
            else [g[r * n + i] for r in range(n)]
        )
        a, b = sorted((line.index(1), line.index(n)))
        return sum(line[a + 1 : b]) == con["sum"]
    if kind == "palindrome":
        return v == v[::-1]
    if kind == "renban":
        return sorted(v) == list(range(min(v), min(v) + len(v)))
    if kind == "whispers":
        d = con.get("difference", (n + 1) // 2)
        return all(abs(a - b) >= d for a, b in itertools.pairwise(v))
    if kind == "region_sum":
        sums: dict[int, int] = {}
        for c in cells:
            sums[regions[c]] = sums.get(regions[c], 0) + g[c]
        return len(set(sums.values())) <= 1
    if kind == "between":
        lo, hi = sorted((v[0], v[-1]))
        return all(lo < x < hi for x in v[1:-1])
    if kind == "extra_region":
        return len(set(v)) == len(v)
    raise AssertionError(f"no oracle for {kind}")


def sudoku_grids(n: int) -> list[tuple[int, ...]]:
    """Every 4x4 sudoku grid (boxes 2x2), by brute force."""
    assert n == 4
    rows = list(itertools.permutations(range(1, 5)))
    out = []
    for grid in itertools.product(rows, repeat=4):
        if all(len({row[c] for row in grid}) == 4 for c in range(4)):
            cells = tuple(x for row in grid for x in row)
            boxes = [
                [cells[(br + r) * 4 + bc + k] for r in range(2) for k in range(2)]
                for br in (0, 2)
                for bc in (0, 2)
            ]
            if all(len(set(b)) == 4 for b in boxes):
                out.append(cells)
    return out


def brute_count(rules: Rules, givens: Sequence[int], grids: list[tuple[int, ...]]) -> int:
    """How many of ``grids`` keep the givens and obey every constraint."""
    cons = [c.to_dict() for c in rules.constraints]
    n = rules.size
    return sum(
        all(x in (0, y) for x, y in zip(givens, g, strict=False))
        and all(holds(c, cons, g, n, rules.regions) for c in cons)
        for g in grids
    )


def backtrack_count(rules: Rules, givens: Sequence[int], limit: int) -> int:
    """Solutions up to ``limit``, cell by cell; a constraint is checked once its cells are
    all filled (whole-grid rules at the end)."""
    n = rules.size
    cons = [c.to_dict() for c in rules.constraints]
    box_r = {4: 2, 6: 2, 9: 3}[n]
    box_c = n // box_r
    last: dict[int, list[dict[str, Any]]] = {}
    for con in cons:
        cells = [*con.get("cells", []), *con.get("circle", [])]
        if con["type"] == "arrow":
            cells += con["line"]
        if con["type"] == "sandwich":
            i = con["index"]
            cells = (
                [i * n + k for k in range(n)]
                if con["line"] == "row"
                else [r * n + i for r in range(n)]
            )
        if "cell" in con:
            cells = [con["cell"]]
        if con["type"] == "little_killer" or not cells:
            cells = [n * n - 1]
        last.setdefault(max(cells), []).append(con)
    g = list(givens)
    count = 0

    def ok(c: int, x: int) -> bool:
        r, k = divmod(c, n)
        br, bk = r // box_r * box_r, k // box_c * box_c
        for d in range(n * n):
            if (
                d != c
                and g[d] == x
                and (
                    d // n == r
                    or d % n == k
                    or (d // n // box_r * box_r == br and d % n // box_c * box_c == bk)
                )
            ):
                return False
        return True

    def walk(c: int) -> bool:
        nonlocal count
        if c == n * n:
            count += 1
            return count >= limit
        options = [g[c]] if givens[c] else range(1, n + 1)
        for x in options:
            if not ok(c, x):
                continue
            g[c] = x
            done = last.get(c, [])
            if all(holds(con, cons, g, n, rules.regions) for con in done) and walk(c + 1):
                return True
            if not givens[c]:
                g[c] = 0
        return False

    walk(0)
    return count
