"""Chains: simple colouring, X-chain, XY-chain, alternating inference chain.

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

- *Alternating inference chain* (AIC): the same over every candidate, mixing values (see
  :func:`alternating_chains`). Loops (X-cycles, nice loops) are in :mod:`.loops`.

Each finder tries every start with a breadth-first search, so the chain it reports is the
shortest from that start, and yields the shortest chains first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from solver.logic.techniques.base import (
    Board,
    Step,
    bit_indexes,
    common_peers,
    conjugate_pairs,
    values_of,
)


def _strong_links(board: Board, b: int) -> dict[int, list[int]]:
    """cell -> the cells it forms a conjugate pair with for ``b`` (in any unit)."""
    strong: dict[int, list[int]] = {}
    for _, first, second in conjugate_pairs(board, b):
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
                        params={
                            "variant": "wrap",
                            "value": v,
                            "first_cells": sides[k],
                            "second_cells": sides[1 - k],
                            "first_cell": clash[0],
                            "second_cell": clash[1],
                        },
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
                        params={
                            "variant": "trap_one" if len(elim) == 1 else "trap",
                            "value": v,
                            "first_cells": sides[0],
                            "second_cells": sides[1],
                            "removed_cells": elim,
                        },
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


Chain = tuple[int, int, list[int], list[int]]
"""(links, value, cells of the chain, cells that lose the value)."""
State = tuple[int, int]
Close = Callable[[int, int, int, dict[State, State], State], tuple[list[int], list[int]] | None]


def single_value_chains(board: Board, max_links: int, close: Close) -> list[Chain]:
    """The shortest alternating strong/weak chain of one value from each strong-link cell
    that ``close`` accepts, breadth first, sorted by length, value and cells.

    A state ``(cell, 1)`` means the cell is the value if the start is not; ``(cell, 0)``, the
    cell is not. ``close(b, start, end, parent, state)`` is asked of each 'on' state at least
    three links out and answers the chain's cells and eliminations, or None to go on (X-chains
    and X-cycles differ only there)."""
    cand, t = board.cand, board.t
    peers = t.peers
    found: list[Chain] = []
    for b in (1 << i for i in range(t.n)):
        strong = _strong_links(board, b)
        if len(strong) < 4:
            continue
        v = b.bit_length()
        weak = {c: [p for p in peers[c] if cand[p] & b] for c in range(t.ncells) if cand[c] & b}
        for start in sorted(strong):
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
                            closed = close(b, start, d, parent, s2)
                            if closed:
                                found.append((links, v, *closed))
                                hit = True
                                break
                    if hit:
                        break
                frontier = nxt
    found.sort(key=lambda f: (f[0], f[1], f[2]))
    return found


def x_chains(board: Board, max_links: int = 15) -> Iterator[Step]:
    """Alternating strong/weak chains for one value, shortest first."""

    def close(
        b: int, start: int, end: int, parent: dict[State, State], state: State
    ) -> tuple[list[int], list[int]] | None:
        elim = common_peers(board, (start, end), b)
        return (_path(parent, state), elim) if elim else None

    found = single_value_chains(board, max_links, close)
    for _, v, path, elim in found:
        yield board.step(
            "x_chain",
            "X-Chain",
            params={
                "value": v,
                "path": path,
                "start_cell": path[0],
                "end_cell": path[-1],
                "removed_cells": elim,
            },
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
            params={
                "path": path,
                "start_cell": path[0],
                "end_cell": path[-1],
                "value": x,
                "removed_cells": elim,
            },
            cells=path,
            eliminations=[(c, x) for c in elim],
        )


Node = tuple[int, int]  # (cell, value)


class _Graph:
    """Every candidate as a node, with its strong links (lists) and weak links (bitsets)."""

    __slots__ = ("index", "nodes", "strong", "weak")

    def __init__(self, board: Board) -> None:
        cand, t = board.cand, board.t
        peers = t.peers
        self.nodes: list[Node] = []
        self.index: dict[Node, int] = {}
        for c, m in enumerate(cand):
            for v in values_of(m):
                self.index[(c, v)] = len(self.nodes)
                self.nodes.append((c, v))
        index, count = self.index, len(self.nodes)
        self.weak = [0] * count
        self.strong: list[list[int]] = [[] for _ in range(count)]
        for i, (c, v) in enumerate(self.nodes):
            b = 1 << (v - 1)
            w = 0
            for v2 in values_of(cand[c] & ~b):
                w |= 1 << index[(c, v2)]
            for p in peers[c]:
                if cand[p] & b:
                    w |= 1 << index[(p, v)]
            self.weak[i] = w
            if cand[c].bit_count() == 2:
                self.strong[i].append(index[(c, (cand[c] & ~b).bit_length())])
        pos = board.positions()
        for u, cells in enumerate(t.units):
            for k, s in enumerate(pos[u]):
                if s.bit_count() == 2:
                    low = s & -s
                    i = index[(cells[low.bit_length() - 1], k + 1)]
                    j = index[(cells[(s ^ low).bit_length() - 1], k + 1)]
                    if j not in self.strong[i]:
                        self.strong[i].append(j)
                        self.strong[j].append(i)


Closer = Callable[[_Graph, int, list[int]], list[Node]]


def _aic_search(
    board: Board, closer: Closer, max_strong: int, *, chain: bool
) -> Iterator[tuple[list[Node], list[Node]]]:
    """(chain, eliminations) for chains from "start is false" alternating strong and weak
    links to "end is true", every start searched in step, one strong link at a time, so
    the first ones found are the shortest. ``closer`` names the eliminations a chain ending
    at its last node makes (none: go on); it is asked only when the end conflicts with
    something the start conflicts with (``chain``) or with the start itself (a loop)."""
    graph = _Graph(board)
    count = len(graph.nodes)
    if count < 4:
        return
    strong, weak = graph.strong, graph.weak
    starts = [i for i in range(count) if strong[i]]
    # per start: (off_seen, on_seen, frontier of off nodes, parent links)
    state: list[tuple[int, int, list[int], dict[tuple[int, int], tuple[int, int]]]] = [
        (1 << s, 0, [s], {}) for s in starts
    ]
    for links in range(1, max_strong + 1):
        found: list[tuple[list[Node], list[Node]]] = []
        for k, s in enumerate(starts):
            off_seen, on_seen, frontier, parent = state[k]
            if not frontier:
                continue
            new_on = []
            for i in frontier:
                for j in strong[i]:
                    if not on_seen >> j & 1:
                        on_seen |= 1 << j
                        parent[(j, 1)] = (i, 0)
                        new_on.append(j)
            hit = False
            if links >= 2:
                for j in new_on:
                    if j == s or not (weak[s] & weak[j] if chain else weak[s] >> j & 1):
                        continue
                    path = [(j, 1)]
                    while path[-1] in parent:
                        path.append(parent[path[-1]])
                    path.reverse()
                    ids = [x for x, _ in path]
                    removed = closer(graph, s, ids)
                    if removed:
                        found.append(([graph.nodes[x] for x in ids], removed))
                        hit = True
                        break
            if hit:
                state[k] = (off_seen, on_seen, [], parent)
                continue
            new_off = []
            for j in new_on:
                m = weak[j] & ~off_seen
                off_seen |= m
                while m:
                    low = m & -m
                    m ^= low
                    x = low.bit_length() - 1
                    parent[(x, 0)] = (j, 1)
                    new_off.append(x)
            state[k] = (off_seen, on_seen, new_off, parent)
        yield from sorted(found)


def _chain_ends(graph: _Graph, s: int, ids: list[int]) -> list[Node]:
    """A chain's eliminations: the candidates that conflict with both of its ends."""
    return [graph.nodes[x] for x in bit_indexes(graph.weak[s] & graph.weak[ids[-1]])]


def alternating_chains(board: Board, max_strong: int = 12) -> Iterator[Step]:
    """Alternating inference chains over every candidate, shortest first.

    A node is a candidate (cell, value). A strong link joins two nodes of which at least one
    is true (the two values of a bivalue cell, the two positions of a value in a unit); a
    weak link joins two nodes that cannot both be true (two values of one cell, one value in
    two cells that see each other). Starting from "start is false" and alternating strong
    and weak links reaches "end is true", so start or end is true, and a candidate that
    conflicts with both is false.
    """
    for chain, removed in _aic_search(board, _chain_ends, max_strong, chain=True):
        start, end = chain[0], chain[-1]
        yield board.step(
            "alternating_chain",
            "Alternating Inference Chain",
            params={
                "chain": chain,
                "start_cell": start[0],
                "start_value": start[1],
                "end_cell": end[0],
                "end_value": end[1],
            },
            cells=tuple(dict.fromkeys(c for c, _ in chain)),
            eliminations=removed,
        )
