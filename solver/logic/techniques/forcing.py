"""Trial and error: the search the grader falls back on when no technique applies.

A *trial* assumes one candidate and spreads singles from it on a copy of the masks. When
that ends in a contradiction (a cell left with no value, or a value with no place in a
unit), the candidate is false and can be removed. The shortest such trial is the one a
player is most likely to find, so :func:`shortest_contradiction` returns that one; its
*length* (the placements made before the contradiction) measures how deep the player had to
look. Trials spread naked singles first; only when none of those contradicts do they also
spread hidden singles (unless asked not to).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.logic.techniques.base import Board, Step, unit_spread

Masks = list[int]


@dataclass(frozen=True, slots=True)
class Trial:
    """A candidate whose assumption leads to a contradiction."""

    cell: int
    value: int
    length: int  # placements made before the contradiction
    broken: int  # the cell left empty, or -1 when a unit lost every place for a value
    hidden: bool  # True when hidden singles were needed too


def _spread_naked(
    masks: Masks, queue: list[int], peers: tuple[tuple[int, ...], ...], cap: int
) -> tuple[int, int]:
    """Spread placed values to peers; (placements, broken cell) or (placements, -2) if fine.

    Stops early (returning ``cap + 1``) once more than ``cap`` placements were made.
    """
    count = 0
    while queue:
        c = queue.pop()
        b = masks[c]
        for p in peers[c]:
            m = masks[p]
            if m & b:
                m ^= b
                if not m:
                    return count + 1, p
                masks[p] = m
                if not m & (m - 1):
                    count += 1
                    if count > cap:
                        return count, -2
                    queue.append(p)
    return count, -2


def _spread_all(board: Board, masks: Masks, queue: list[int], cap: int) -> tuple[int, int]:
    """Like :func:`_spread_naked` with hidden singles too; broken -1 for an emptied unit."""
    t = board.t
    peers, units, full = t.peers, t.units, t.all_mask
    total = 0
    while True:
        count, broken = _spread_naked(masks, queue, peers, cap - total)
        total += count
        if broken != -2 or total > cap:
            return total, broken
        for cells in units:
            once, single = unit_spread(masks, cells)
            if once != full:
                return total + 1, -1
            while single:
                b = single & -single
                single ^= b
                for c in cells:
                    if masks[c] & b:
                        break
                if masks[c] != b:
                    masks[c] = b
                    queue.append(c)
                    total += 1
        if not queue:
            return total, -2


def shortest_contradiction(board: Board, *, hidden: bool = True) -> Trial | None:
    """The candidate whose trial contradicts soonest (naked singles first), or None.

    With ``hidden=False`` only naked singles are spread, which is much cheaper.
    """
    cand, values = board.cand, board.values
    base = [(1 << (v - 1)) if v else m for v, m in zip(values, cand, strict=True)]
    order = sorted((c for c, m in enumerate(cand) if m), key=lambda c: (cand[c].bit_count(), c))
    peers = board.t.peers
    for with_hidden in (False, True) if hidden else (False,):
        best: Trial | None = None
        cap = board.t.ncells
        for c in order:
            m = cand[c]
            while m:
                b = m & -m
                m ^= b
                masks = base[:]
                masks[c] = b
                if with_hidden:
                    length, broken = _spread_all(board, masks, [c], cap)
                else:
                    length, broken = _spread_naked(masks, [c], peers, cap)
                if broken != -2 and (best is None or length < best.length):
                    best = Trial(c, b.bit_length(), length, broken, with_hidden)
                    cap = length - 1
        if best is not None:
            return best
    return None


def trial_step(board: Board, trial: Trial) -> Step:
    """The step that removes a trial's candidate, with the reason in one sentence."""
    c, v = trial.cell, trial.value
    spread = "all" if trial.hidden else "naked"
    params: dict[str, object] = {"cell": c, "value": v, "count": trial.length}
    if trial.broken >= 0:
        params.update(variant=f"{spread}_cell", broken_cell=trial.broken)
    else:
        params.update(variant=f"{spread}_unit")
    return board.step(
        "search",
        "Trial and Error",
        params=params,
        cells=(c,) if trial.broken < 0 else (c, trial.broken),
        eliminations=((c, v),),
    )
