"""Chains: simple colouring, X-chain, XY-chain.

- *Simple colouring*: for one value, the cells joined by conjugate pairs split into two
  colours, and one colour holds the value everywhere. A cell that sees both colours cannot
  hold it (colour trap); two cells of one colour that see each other make that colour false
  (colour wrap).
- *X-chain*: for one value, a chain start = a - b = c ... = end that alternates strong links
  (conjugate pairs: if one is not v the other is) and weak links (cells that see each other:
  if one is v the other is not), starting and ending with a strong link. If start is not v,
  end is, so a cell that sees both cannot be v.
- *XY-chain*: a chain of bivalue cells, each seeing the next and sharing a value with it.
  If the first cell is not x it is its other value, which forces the next cell, and so on
  until the last cell is x; so a cell that sees both ends cannot be x.

Each finder tries every start with a breadth-first search, so the chain it reports is the
shortest from that start, and yields the shortest chains first.
"""

from __future__ import annotations

from collections.abc import Iterator

from solver.grid import symbol
from solver.techniques.base import Board, Step, common_peers, values_of


def _strong_links(board: Board, b: int) -> dict[int, list[int]]:
    """cell -> the cells it forms a conjugate pair with for ``b`` (in any unit)."""
    cand, t = board.cand, board.t
    strong: dict[int, list[int]] = {}
    for cells in t.units:
        first = second = -1
        count = 0
        for c in cells:
            if cand[c] & b:
                count += 1
                if count == 1:
                    first = c
                elif count == 2:
                    second = c
                else:
                    break
        if count == 2:
            lst = strong.setdefault(first, [])
            if second not in lst:
                lst.append(second)
            lst = strong.setdefault(second, [])
            if first not in lst:
                lst.append(first)
    return strong


def simple_colourings(board: Board) -> Iterator[Step]:
    """Colour traps and colour wraps, value by value."""
    cand, t = board.cand, board.t
    peer_sets = t.peer_sets
    for b in (1 << i for i in range(t.n)):
        strong = _strong_links(board, b)
        if not strong:
            continue
        v = b.bit_length()
        coloured: set[int] = set()
        for root in sorted(strong):
            if root in coloured:
                continue
            colour = {root: 0}
            queue = [root]
            for c in queue:
                for d in strong[c]:
                    if d not in colour:
                        colour[d] = 1 - colour[c]
                        queue.append(d)
            coloured.update(colour)
            if len(colour) < 3:
                continue
            sides = (
                sorted(c for c, k in colour.items() if k == 0),
                sorted(c for c, k in colour.items() if k == 1),
            )
            chain = sides[0] + sides[1]
            for k in (0, 1):
                side = sides[k]
                clash = next(
                    (
                        (x, y)
                        for i, x in enumerate(side)
                        for y in side[i + 1 :]
                        if y in peer_sets[x]
                    ),
                    None,
                )
                if clash:
                    yield board.step(
                        "simple_colouring",
                        "Simple Colouring",
                        f"Linking the cells where {symbol(v)} fits only twice in a unit splits "
                        f"them into {board.cells(sides[k])} and {board.cells(sides[1 - k])}, one "
                        f"group all {symbol(v)}; {board.cell(clash[0])} and "
                        f"{board.cell(clash[1])} are in the first group and see each other, so "
                        f"that group is not {symbol(v)}: remove {symbol(v)} from "
                        f"{board.cells(side)}.",
                        cells=chain,
                        eliminations=[(c, v) for c in side],
                    )
                    break
            else:
                elim = sorted(
                    c
                    for c in range(t.ncells)
                    if cand[c] & b
                    and c not in colour
                    and any(x in peer_sets[c] for x in sides[0])
                    and any(y in peer_sets[c] for y in sides[1])
                )
                if elim:
                    yield board.step(
                        "simple_colouring",
                        "Simple Colouring",
                        f"Linking the cells where {symbol(v)} fits only twice in a unit splits "
                        f"them into {board.cells(sides[0])} and {board.cells(sides[1])}, one "
                        f"group all {symbol(v)}; {board.cells(elim)} "
                        f"{'sees' if len(elim) == 1 else 'see'} both groups, so "
                        f"{symbol(v)} can be removed from {'it' if len(elim) == 1 else 'them'}.",
                        cells=chain,
                        eliminations=[(c, v) for c in elim],
                    )


def _path(parent: dict[tuple[int, int], tuple[int, int]], state: tuple[int, int]) -> list[int]:
    cells = [state[0]]
    while state in parent:
        state = parent[state]
        cells.append(state[0])
    cells.reverse()
    return cells


def x_chains(board: Board, max_links: int = 15) -> Iterator[Step]:
    """Alternating strong/weak chains for one value, shortest first."""
    cand, t = board.cand, board.t
    peers = t.peers
    found: list[tuple[int, int, list[int], list[int]]] = []  # (length, value, path, elim)
    for b in (1 << i for i in range(t.n)):
        strong = _strong_links(board, b)
        if len(strong) < 4:
            continue
        v = b.bit_length()
        weak = {c: [p for p in peers[c] if cand[p] & b] for c in range(t.ncells) if cand[c] & b}
        for start in sorted(strong):
            # state (cell, 1): the cell is v if start is not; (cell, 0): the cell is not v.
            parent: dict[tuple[int, int], tuple[int, int]] = {}
            seen = {(start, 0)}
            frontier = [(start, 0)]
            links = 0
            hit = False
            while frontier and links < max_links and not hit:
                links += 1
                nxt = []
                for state in frontier:
                    cell, on = state
                    for d in strong.get(cell, ()) if not on else weak[cell]:
                        s2 = (d, 1 - on)
                        if s2 in seen or d == start:
                            continue
                        seen.add(s2)
                        parent[s2] = state
                        nxt.append(s2)
                        if s2[1] and links >= 3:
                            elim = common_peers(board, (start, d), b)
                            if elim:
                                found.append((links, v, _path(parent, s2), elim))
                                hit = True
                                break
                    if hit:
                        break
                frontier = nxt
    found.sort(key=lambda f: (f[0], f[1], f[2]))
    for _, v, path, elim in found:
        yield board.step(
            "x_chain",
            "X-Chain",
            f"Following {symbol(v)} along {' → '.join(board.cell(c) for c in path)} (where a "
            f"cell is not {symbol(v)}, the next one is; where it is, the next one is not), "
            f"{board.cell(path[0])} or {board.cell(path[-1])} is {symbol(v)}, so "
            f"{symbol(v)} can be removed from {board.cells(elim)}.",
            cells=path,
            eliminations=[(c, v) for c in elim],
        )


def xy_chains(board: Board, max_cells: int = 12) -> Iterator[Step]:
    """Chains of bivalue cells whose two ends are forced to share a value, shortest first."""
    cand, t = board.cand, board.t
    peers = t.peers
    bival = {c for c, m in enumerate(cand) if m and m.bit_count() == 2}
    if len(bival) < 3:
        return
    links = {c: [p for p in peers[c] if p in bival and cand[p] & cand[c]] for c in bival}
    found: list[tuple[int, int, list[int], list[int]]] = []
    for start in sorted(bival):
        for x in values_of(cand[start]):
            xb = 1 << (x - 1)
            first = (cand[start] & ~xb).bit_length()
            # state (cell, w): the cell is w if start is not x
            parent: dict[tuple[int, int], tuple[int, int]] = {}
            seen = {(start, first)}
            frontier = [(start, first)]
            depth = 1
            hit = False
            while frontier and depth < max_cells and not hit:
                depth += 1
                nxt = []
                for state in frontier:
                    cell, w = state
                    wb = 1 << (w - 1)
                    for d in links[cell]:
                        if d == start or not cand[d] & wb:
                            continue
                        s2 = (d, (cand[d] & ~wb).bit_length())
                        if s2 in seen:
                            continue
                        seen.add(s2)
                        parent[s2] = state
                        nxt.append(s2)
                        if s2[1] == x and depth >= 3:
                            elim = common_peers(board, (start, d), xb)
                            if elim:
                                found.append((depth, x, _path(parent, s2), elim))
                                hit = True
                                break
                    if hit:
                        break
                frontier = nxt
    found.sort(key=lambda f: (f[0], f[1], f[2]))
    for _, x, path, elim in found:
        yield board.step(
            "xy_chain",
            "XY-Chain",
            f"In the chain {' → '.join(board.cell(c) for c in path)}, each cell holds two "
            f"values and shares one with the next: if {board.cell(path[0])} is not "
            f"{symbol(x)}, each link forces the next until {board.cell(path[-1])} is "
            f"{symbol(x)}, so {symbol(x)} can be removed from {board.cells(elim)}.",
            cells=path,
            eliminations=[(c, x) for c in elim],
        )
