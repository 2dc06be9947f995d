"""Loops: X-cycles and continuous nice loops, found by the chain searches of :mod:`.chains`.

- *X-cycle*: an X-chain whose two ends see each other closes into a loop; the value then
  holds every other cell of the loop, and leaves every cell that sees both ends of a link.
- *Continuous nice loop*: an alternating inference chain whose end conflicts with its
  start. Round the loop, each link then holds exactly one true end whichever way it goes:
  a cell linking two of its values keeps only those two, and a value linking two cells
  leaves their common peers.

Both are scored by their length (see :mod:`solver.logic.grade`).
"""

from __future__ import annotations

from collections.abc import Iterator

from solver.logic.techniques.base import Board, Step, common_peers, values_of
from solver.logic.techniques.chains import (
    Node,
    State,
    _aic_search,
    _Graph,
    _path,
    single_value_chains,
)


def _loop_links(board: Board, loop: list[Node]) -> list[Node]:
    """What a continuous loop removes: every link holds exactly one true end, so a cell
    linking two values keeps only those, and a value linking two cells leaves their common
    peers outside the loop."""
    cand = board.cand
    cells = {c for c, _ in loop}
    out: set[Node] = set()
    for (c1, v1), (c2, v2) in zip(loop, loop[1:] + loop[:1], strict=True):
        if c1 == c2:
            keep = (1 << (v1 - 1)) | (1 << (v2 - 1))
            out.update((c1, v) for v in values_of(cand[c1] & ~keep))
        elif v1 == v2:
            out.update((c, v1) for c in common_peers(board, (c1, c2), 1 << (v1 - 1)))
    return sorted((c, v) for c, v in out if c not in cells or (c, v) not in loop)


def nice_loops(board: Board, max_strong: int = 8) -> Iterator[Step]:
    """Continuous nice loops: an alternating chain whose end conflicts with its start."""

    def close(graph: _Graph, s: int, ids: list[int]) -> list[Node]:
        if len(set(ids)) != len(ids):
            return []
        return _loop_links(board, [graph.nodes[x] for x in ids])

    for loop, removed in _aic_search(board, close, max_strong, chain=False):
        yield board.step(
            "nice_loop",
            "Continuous Nice Loop",
            params={"chain": loop, "start_cell": loop[0][0], "start_value": loop[0][1]},
            cells=tuple(dict.fromkeys(c for c, _ in loop)),
            eliminations=removed,
        )


def x_cycles(board: Board, max_links: int = 12) -> Iterator[Step]:
    """Continuous X-cycles: for one value, a loop of cells alternating strong and weak links,
    so the value holds every other cell; it leaves the cells that see both ends of a link."""
    peer_sets = board.t.peer_sets

    def close(
        b: int, start: int, end: int, parent: dict[State, State], state: State
    ) -> tuple[list[int], list[int]] | None:
        if start not in peer_sets[end]:  # the ends must see each other to close the loop
            return None
        path = _path(parent, state)
        if len(set(path)) != len(path):
            return None
        elim = _cycle_eliminations(board, path, b)
        return (path, elim) if elim else None

    found = single_value_chains(board, max_links, close)
    for _, v, path, elim in found:
        yield board.step(
            "x_cycle",
            "X-Cycle",
            params={"value": v, "path": path, "start_cell": path[0], "removed_cells": elim},
            cells=path,
            eliminations=[(c, v) for c in elim],
        )


def _cycle_eliminations(board: Board, loop: list[int], b: int) -> list[int]:
    out: set[int] = set()
    for c1, c2 in zip(loop, loop[1:] + loop[:1], strict=True):
        out.update(common_peers(board, (c1, c2), b))
    return sorted(out - set(loop))
