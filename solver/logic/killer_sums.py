"""The Killer techniques past the first 45 rule: sums of any size, cage splitting, hidden
cages, killer pairs and triples.

**Known sums.** :func:`known_sums` lists, once per rules, every set of cells whose total
the rules give: the innies and outies of each group of :func:`solver.logic.innies.sum_groups`
(any number of cells: the rest of the group is a virtual cage whose sum is known); a cage
less a known-sum part inside it (*cage splitting*: the innies of a group are part of one
cage, so the rest of the cage adds up to its sum less theirs); and a house less a known-sum
part inside it (*hidden cage*: innies of two rows that lie in one box leave the rest of the
box a sum of its own). :func:`sum_sets` reads each on the board as a cage (the values
placed are taken off, the open cells must make the rest, different values wherever two of
them see each other) and removes the values no way of making the sum gives a cell.

**Killer pairs and triples** (:func:`killer_subsets`): two or three cages wholly inside one
house hold different values; when every way to fill them together uses a value, the rest
of the house loses it, and a cage loses a value that no way of filling them together
gives it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

from solver.logic.cages import _cage_state, cage_support
from solver.logic.houses import VBoard, readers_of
from solver.logic.innies import sum_groups
from solver.logic.techniques.base import Step, values_of
from solver.rules.ruleset import RULES_CACHED, Rules, layout

MAX_OPEN = 8
"""Open cells a known sum may have to be read (more leave too many ways to make it)."""
SEARCH_NODES = 1000
"""Nodes the search of one known sum may take before it gives up (no step)."""
MAX_SETS = 40
"""Value sets a cage may still have to take part in a killer pair or triple."""


class KnownSum(NamedTuple):
    """Cells whose values add up to ``total``; how it is known (``kind``) and from where
    (a named tuple: a Killer generator makes hundreds for each cage set it grades)."""

    kind: str  # innies, outies, split, hidden
    cells: tuple[int, ...]
    total: int
    houses: tuple[int, ...]
    cage: tuple[int, ...] = ()


@lru_cache(maxsize=RULES_CACHED)
def known_sums(rules: Rules) -> tuple[KnownSum, ...]:
    """Every known sum (see the module docstring), each set of cells once."""
    lay = layout(rules)
    n = rules.size
    house_total = n * (n + 1) // 2
    base: list[KnownSum] = []
    for g in sum_groups(rules):
        if g.innies:
            base.append(KnownSum("innies", g.innies, g.innie_total, g.houses))
        if g.outies:
            base.append(KnownSum("outies", g.outies, g.outie_total, g.houses))
    # Cell sets as bitmasks (a sum holds a cell once, so its mask names its set); a sum
    # that holds another holds its lowest cell, so only the sums holding that cell are
    # tried, in the order of the list they come from.
    seen = {k_mask for k_mask, _ in _masked(base)}
    seen.update(_mask(c.cells) for c in rules.cages)
    out = list(base)
    masks = _masked(base)
    cages = [
        (_mask(cage.cells), KnownSum("cage", cage.cells, cage.total, ()))
        for cage in rules.cages
        if cage.total is not None
    ]
    lows = 0  # the lowest cell of each sum that may lie inside another
    for a, _ in masks:
        lows |= a & -a
    holding: list[list[tuple[int, KnownSum]]] = [[] for _ in range(rules.shape.ncells)]
    for b, big in masks + cages:
        held = b & lows
        while held:
            bit = held & -held
            held ^= bit
            holding[bit.bit_length() - 1].append((b, big))
    house_masks = [_mask(house) for house in lay.houses]
    for a, small in masks:
        low = (a & -a).bit_length() - 1
        for b, big in holding[low]:
            if a & b == a and a != b:  # a known sum inside another, a cage or a virtual one
                rest = b & ~a
                if rest not in seen:
                    seen.add(rest)
                    cells = tuple(c for c in big.cells if not a >> c & 1)
                    cage = big.cells if big.kind == "cage" else ()
                    houses = small.houses + tuple(h for h in big.houses if h not in small.houses)
                    out.append(KnownSum("split", cells, big.total - small.total, houses, cage))
        if len(small.houses) > 1:
            for h in lay.cell_houses[low]:  # in house order, as a house holds no cell twice
                house, hm = lay.houses[h], house_masks[h]
                if a & hm == a and a != hm:
                    rest = hm & ~a
                    if rest not in seen:
                        seen.add(rest)
                        cells = tuple(c for c in house if not a >> c & 1)
                        out.append(KnownSum("hidden", cells, house_total - small.total, (h,)))
    return tuple(out)


def _mask(cells: tuple[int, ...]) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def _masked(sums: list[KnownSum]) -> list[tuple[int, KnownSum]]:
    return [(_mask(k.cells), k) for k in sums]


def sum_sets(board: VBoard, kinds: tuple[str, ...], *, min_open: int = 1) -> Iterator[Step]:
    """The known sums of ``kinds`` with at least ``min_open`` open cells (at most
    :data:`MAX_OPEN`), read as cages: a lone open cell is placed, the others lose the
    values no way of making the sum gives them."""
    values, cand = board.values, board.cand
    peers = peer_masks(board.rules)
    sums = _of_kinds(board.rules, kinds)
    todo = board.pending((sum_sets, kinds, min_open), _readers(board.rules, kinds))
    seeing_of = board.clean.setdefault(_seeing, {})  # open cells -> who sees whom
    placed = 0
    for c, v in enumerate(values):
        if v:
            placed |= 1 << c
    for i in todo.take(len(sums)):
        known, cells_mask = sums[i]
        if not min_open <= (cells_mask & ~placed).bit_count() <= MAX_OPEN:
            continue
        open_cells = tuple([c for c in known.cells if not values[c]])
        left = known.total
        for c in known.cells:
            left -= values[c]
        masks = tuple([cand[c] for c in open_cells])
        seeing = seeing_of.get(open_cells)
        if seeing is None:
            seeing = seeing_of[open_cells] = _seeing(peers, open_cells)
        support = _support(masks, left, seeing)
        if support is None or not any(support):
            continue  # too many ways to look at, or none (a broken board: no step)
        kind = "difference" if known.kind == "split" and not known.cage else known.kind
        if len(open_cells) == 1:
            c = open_cells[0]
            if support[0] == masks[0]:
                params = _params(board, known, open_cells, left)
                todo.again(i)
                yield board.step(
                    *_technique(known.kind),
                    {**params, "variant": f"{kind}_one", "cell": c, "value": left},
                    units=known.houses,
                    cells=open_cells,
                    placements=((c, left),),
                )
            continue
        if support == masks:
            continue  # the usual case: every candidate left has a way
        elim = [
            (c, v)
            for c, m, s in zip(open_cells, masks, support, strict=True)
            for v in values_of(m & ~s)
        ]
        if elim:
            params = _params(board, known, open_cells, left)
            todo.again(i)
            yield board.step(
                *_technique(known.kind),
                {**params, "variant": kind},
                units=known.houses,
                cells=open_cells,
                eliminations=elim,
            )


def _seeing(peers: tuple[int, ...], cells: tuple[int, ...]) -> tuple[int, ...]:
    """Per cell of ``cells`` the bits (by position in ``cells``) of those it sees."""
    out = []
    for c in cells:
        near = peers[c]
        bits = 0
        for j, d in enumerate(cells):
            if near >> d & 1:
                bits |= 1 << j
        out.append(bits)
    return tuple(out)


@lru_cache(maxsize=RULES_CACHED)
def peer_masks(rules: Rules) -> tuple[int, ...]:
    """Per cell its peers as a cell bitmask."""
    out = []
    for near in layout(rules).peers:
        m = 0
        for d in near:
            m |= 1 << d
        out.append(m)
    return tuple(out)


@lru_cache(maxsize=4 * RULES_CACHED)
def _of_kinds(rules: Rules, kinds: tuple[str, ...]) -> tuple[tuple[KnownSum, int], ...]:
    """The known sums of ``kinds`` in order, each with the mask of its cells."""
    return tuple((k, _mask(k.cells)) for k in known_sums(rules) if k.kind in kinds)


@lru_cache(maxsize=4 * RULES_CACHED)
def _readers(rules: Rules, kinds: tuple[str, ...]) -> tuple[int, ...]:
    """Per cell the sums of :func:`_of_kinds` holding it (for :meth:`VBoard.pending`)."""
    return readers_of((k.cells for k, _ in _of_kinds(rules, kinds)), rules.shape.ncells)


def _technique(kind: str) -> tuple[str, str]:
    if kind in ("innies", "outies"):
        return "innies_outies_large", "45 Rule (Many Cells)"
    if kind == "split":
        return "cage_split", "Cage Splitting"
    return "hidden_cage", "Hidden Cage"


def _params(board: VBoard, known: KnownSum, open_cells: tuple[int, ...], left: int) -> dict:
    ids = board.lay.unit_ids
    params = {"units": [ids[h] for h in known.houses], "cells": open_cells, "count": left}
    if known.cage:
        params["cage_cells"] = list(known.cage)
    return params


@lru_cache(maxsize=1 << 14)
def _support(masks: tuple[int, ...], total: int, seeing: tuple[int, ...]) -> tuple[int, ...] | None:
    """Per cell the values some way of making ``total`` gives it: each cell a value of its
    mask, different wherever ``seeing`` (per cell, the bits of the cells it sees) says;
    None when the search passes :data:`SEARCH_NODES` (but ``masks`` itself when no search
    is needed to see that every candidate has a way)."""
    k = len(masks)
    full = (1 << k) - 1
    distinct = cage_support(masks, total)[0]
    if all(s | (1 << i) == full for i, s in enumerate(seeing)):
        return distinct  # all see each other: a cage
    if distinct == masks:
        # Different values everywhere make the sum with every candidate, so fewer
        # differences do too: nothing to remove, and no search (which, past
        # SEARCH_NODES, would have said None: no step either).
        return masks
    if _every_way(masks, total, seeing, distinct):
        return masks  # the same answer, no step, for the few candidates left to show
    order = sorted(range(k), key=lambda i: masks[i].bit_count())
    low = [min(values_of(m), default=0) for m in masks]
    high = [max(values_of(m), default=0) for m in masks]
    rest_low = [sum(low[order[j]] for j in range(d, k)) for d in range(k + 1)]
    rest_high = [sum(high[order[j]] for j in range(d, k)) for d in range(k + 1)]
    # Per depth: the cell, the cells it sees, its (value, bit) pairs smallest first.
    seen_by = [[j for j in range(k) if seeing[i] >> j & 1] for i in range(k)]
    choices = [[(v, 1 << (v - 1)) for v in values_of(m)] for m in masks]
    support = [0] * k
    chosen = [0] * k  # per cell the bit of its value, 0 while open
    nodes = 0
    last = k - 1

    def last_cell(i: int, banned: int, left: int) -> bool:
        """The last cell's children at once: a node each for its values up to ``left``
        (as :func:`walk` would count them), and only ``left`` itself makes the sum."""
        nonlocal nodes
        allowed = masks[i] & ~banned & ((1 << left) - 1)
        nodes += allowed.bit_count()
        if nodes > SEARCH_NODES:
            raise _TooMany
        if not allowed or not allowed >> (left - 1) & 1:
            return False
        chosen[i] = 1 << (left - 1)
        for j in range(k):
            support[j] |= chosen[j]
        chosen[i] = 0
        return True

    def walk(d: int, left: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > SEARCH_NODES:
            raise _TooMany
        if d == k:
            if left:
                return False
            for i in range(k):
                support[i] |= chosen[i]
            return True
        if not rest_low[d] <= left <= rest_high[d]:
            return False
        i = order[d]
        banned = 0
        for j in seen_by[i]:
            banned |= chosen[j]
        if d == last:
            return last_cell(i, banned, left)
        found = False
        if d == last - 1:
            # The last cell's nodes here, not a call each (the same count: the search
            # gives up when its whole count passes SEARCH_NODES, whatever the order).
            final = order[last]
            low_last, high_last = rest_low[last], rest_high[last]
            for v, bit in choices[i]:
                if bit & banned:
                    continue
                if v > left:
                    break
                nodes += 1
                rest = left - v
                if low_last <= rest <= high_last:
                    chosen[i] = bit
                    near = 0
                    for j in seen_by[final]:
                        near |= chosen[j]
                    found |= last_cell(final, near, rest)
                    chosen[i] = 0
            if nodes > SEARCH_NODES:
                raise _TooMany
            return found
        for v, bit in choices[i]:
            if bit & banned:
                continue
            if v > left:
                break
            chosen[i] = bit
            found |= walk(d + 1, left - v)
            chosen[i] = 0
        return found

    try:
        walk(0, total)
    except _TooMany:
        return None
    finally:
        walk = None  # type: ignore[assignment]  # it calls itself: a cycle, freed now
    return tuple(support)


class _TooMany(Exception):
    pass


WITNESS_NODES = 400
"""Nodes :func:`_every_way` may take to show every candidate a way before it leaves the
question to :func:`_support`'s full search."""


def _every_way(
    masks: tuple[int, ...], total: int, seeing: tuple[int, ...], distinct: tuple[int, ...]
) -> bool:
    """True when each candidate that different values everywhere (``distinct``) give no
    way is shown one here: an assignment with that value, found by a search that aims
    each cell at the average still needed. False when one is not found within
    :data:`WITNESS_NODES` (there may be none). A sum :func:`_support` would give up on
    almost always has a way for every candidate (593 of 600 in 9x9 Killers), and this
    shows it in a few nodes a candidate where the full search takes a thousand."""
    k = len(masks)
    shown = list(distinct)
    seen_by = [[j for j in range(k) if seeing[i] >> j & 1] for i in range(k)]
    chosen = [0] * k
    nodes = 0
    top = 0
    for m in masks:
        top |= m
    top = top.bit_length()
    near = _nearest_first(top)

    def find(
        order: list[int], cur: list[int], low: list[int], high: list[int], d: int, left: int
    ) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > WITNESS_NODES:
            raise _TooMany
        if not low[d] <= left <= high[d]:
            return False
        i = order[d]
        banned = 0
        for j in seen_by[i]:
            banned |= chosen[j]
        allowed = cur[i] & ~banned & ((1 << left) - 1)
        if d == k - 1:
            if not allowed >> (left - 1) & 1:
                return False
            chosen[i] = 1 << (left - 1)
            return True
        aimed = near[min((2 * left + k - d) // (2 * (k - d)), top)]  # at the average
        for v, bit in aimed:
            if allowed & bit:
                chosen[i] = bit
                if find(order, cur, low, high, d + 1, left - v):
                    return True
        chosen[i] = 0
        return False

    try:
        for cell in range(k):
            for value in values_of(masks[cell] & ~shown[cell]):
                if shown[cell] >> (value - 1) & 1:
                    continue  # shown by an earlier way
                cur = list(masks)
                cur[cell] = 1 << (value - 1)
                order = sorted(range(k), key=lambda i: cur[i].bit_count())
                low = [0] * (k + 1)
                high = [0] * (k + 1)
                for d in range(k - 1, -1, -1):
                    m = cur[order[d]]
                    low[d] = low[d + 1] + (m & -m).bit_length()
                    high[d] = high[d + 1] + m.bit_length()
                if not find(order, cur, low, high, 0, total):
                    return False
                for j in range(k):
                    shown[j] |= chosen[j]
                    chosen[j] = 0
    except _TooMany:
        return False
    finally:
        find = None  # type: ignore[assignment]  # it calls itself: a cycle, freed now
    return True


@cache
def _nearest_first(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per aim 0..n, the values 1..n nearest it first (the smaller of two as near), each
    with its bit."""
    return tuple(
        tuple((v, 1 << (v - 1)) for v in sorted(range(1, n + 1), key=lambda v: (abs(v - a), v)))
        for a in range(n + 1)
    )


def innies_outies_large(board: VBoard) -> Iterator[Step]:
    """The 45 rule with four open innies or outies or more (a virtual cage)."""
    yield from sum_sets(board, ("innies", "outies"), min_open=4)


def cage_splits(board: VBoard) -> Iterator[Step]:
    """A cage less a known-sum part of it, read as a cage."""
    yield from sum_sets(board, ("split",))


def hidden_cages(board: VBoard) -> Iterator[Step]:
    """A house less a known-sum part of it, read as a cage."""
    yield from sum_sets(board, ("hidden",))


@lru_cache(maxsize=RULES_CACHED)
def house_cages(rules: Rules) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(house, the cages wholly inside it) for each house with two cages or more inside."""
    lay = layout(rules)
    out = []
    for h, house in enumerate(lay.houses):
        inside = set(house)
        cages = tuple(
            i
            for i, cage in enumerate(rules.cages)
            if cage.total is not None and set(cage.cells) <= inside
        )
        if len(cages) >= 2:
            out.append((h, cages))
    return tuple(out)


def killer_subsets(board: VBoard, k: int) -> Iterator[Step]:
    """Killer pairs (``k`` 2) and triples (3): see the module docstring."""
    cages, cand, values = board.rules.cages, board.cand, board.values
    slug, name = ("killer_pair", "Killer Pair") if k == 2 else ("killer_triple", "Killer Triple")
    for h, inside in house_cages(board.rules):
        sets = {}
        for i in inside:
            if all(values[c] for c in cages[i].cells):
                continue
            found = cage_support(_cage_state(board, cages[i].cells), cages[i].total)[1]
            if 0 < len(found) <= MAX_SETS:
                sets[i] = found
        for group in combinations(sorted(sets), k):
            together = _together([sets[i] for i in group])
            if not together:
                continue
            must = board.all_mask
            for combo in together:
                union = 0
                for s in combo:
                    union |= s
                must &= union
            cells = sorted(c for i in group for c in cages[i].cells)
            inside_cells = set(cells)
            elim = [
                (c, v)
                for c in board.lay.houses[h]
                if c not in inside_cells
                for v in values_of(cand[c] & must)
            ]
            for j, i in enumerate(group):
                allowed = 0
                for combo in together:
                    allowed |= combo[j]
                elim += [
                    (c, v)
                    for c in cages[i].cells
                    if not values[c]
                    for v in values_of(cand[c] & ~allowed)
                ]
            if elim:
                yield board.step(
                    slug,
                    name,
                    {
                        "variant": "locked" if must else "combinations",
                        "cells": cells,
                        "unit": board.lay.unit_ids[h],
                        "values": values_of(must),
                    },
                    units=(h,),
                    cells=cells,
                    eliminations=sorted(set(elim)),
                )


def _together(sets: list[frozenset[int]]) -> list[tuple[int, ...]]:
    """Every choice of one value set per cage, no value twice."""
    out: list[tuple[int, ...]] = []

    def walk(d: int, used: int, chosen: tuple[int, ...]) -> None:
        if d == len(sets):
            out.append(chosen)
            return
        for s in sets[d]:
            if not s & used:
                walk(d + 1, used | s, (*chosen, s))

    walk(0, 0, ())
    walk = None  # type: ignore[assignment]  # it calls itself: a cycle, freed now
    return out
