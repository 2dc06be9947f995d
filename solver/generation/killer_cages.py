"""Refining a Killer's cages until they alone have one solution.

Cages drawn at random rarely pin down one grid (9x9 with cages of two to four cells: about
one set in ten). Instead of drawing again, :func:`refine_cages` changes the cages where two
solutions differ: a cage holding a cell that differs is split in two (each part of two
cells or more, both connected), or a cell of a three-cell cage moves to a neighbouring cage
that lacks its value. Each change adds a sum, so the set of solutions only shrinks; a few
changes usually leave one. No cage of one cell is ever made.

A merge of two cages (:func:`merges`) can let a second solution in; the commonest kinds,
two values trading places (:func:`value_swaps`) and two lines trading values
(:func:`line_swaps`), show without a search (:func:`open_swap`): refining starts from the
first, and a merge or a shift (:func:`shifts`) that opens either is not graded.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Sequence
from itertools import combinations

from solver.generation.jigsaw_regions import neighbours
from solver.grid import Grid
from solver.rules.ruleset import Cage

SPLIT_TRIES = 6
MAX_CAGE = 5
Move = frozenset[tuple[int, ...]]
"""A change to two cages, named by their cells (and, for a shift, by the cell moved)."""


def _connected(cells: Sequence[int], n: int) -> bool:
    if not cells:
        return False
    inside = set(cells)
    seen = {cells[0]}
    stack = [cells[0]]
    while stack:
        c = stack.pop()
        for d in neighbours(c, n):
            if d in inside and d not in seen:
                seen.add(d)
                stack.append(d)
    return len(seen) == len(inside)


def _split(cells: list[int], n: int, rng: random.Random) -> tuple[list[int], list[int]] | None:
    """Two connected parts of two cells or more, or None when the tries find none."""
    for _ in range(SPLIT_TRIES):
        size = rng.randint(2, len(cells) - 2)
        part = [rng.choice(cells)]
        while len(part) < size:
            options = sorted(
                {d for c in part for d in neighbours(c, n) if d in cells and d not in part}
            )
            if not options:
                break
            part.append(rng.choice(options))
        rest = [c for c in cells if c not in part]
        if len(part) == size and _connected(rest, n):
            return sorted(part), sorted(rest)
    return None


def refine_cages(
    cages: Sequence[Cage], solution: Grid, other: Grid | None, rng: random.Random
) -> tuple[Cage, ...] | None:
    """The cages changed where ``solution`` and ``other`` differ so that ``other`` breaks a
    sum, or None when no cage holding a differing cell can change. ``other`` None (the
    search ran out of budget): a cage of four cells or more is split."""
    n = solution.size
    sol = solution.cells
    groups = [list(cage.cells) for cage in cages]
    cage_of = {c: i for i, cells in enumerate(groups) for c in cells}
    if other is None:
        differ = [c for cells in groups if len(cells) >= 4 for c in cells]
    else:
        differ = [c for c in range(len(sol)) if sol[c] != other.cells[c]]
    rng.shuffle(differ)
    for c in differ:
        i = cage_of[c]
        cells = groups[i]
        if len(cells) >= 4:
            parts = _split(cells, n, rng)
            if parts is not None and (
                other is None
                or any(sum(sol[x] for x in p) != sum(other.cells[x] for x in p) for p in parts)
            ):
                groups[i : i + 1] = list(parts)
                return _cages(groups, sol)
        elif len(cells) == 3 and other is not None:
            rest = [x for x in cells if x != c]
            if not _connected(rest, n):
                continue
            joins = sorted(
                {
                    cage_of[d]
                    for d in neighbours(c, n)
                    if cage_of[d] != i
                    and len(groups[cage_of[d]]) < MAX_CAGE
                    and all(sol[e] != sol[c] for e in groups[cage_of[d]])
                }
            )
            if joins:
                j = rng.choice(joins)
                groups[j] = sorted([*groups[j], c])
                groups[i] = rest
                return _cages(groups, sol)
    return None


def _cages(groups: list[list[int]], sol: Sequence[int]) -> tuple[Cage, ...]:
    return tuple(Cage(tuple(sorted(g)), sum(sol[x] for x in g)) for g in groups)


def merges(
    cages: Sequence[Cage],
    solution: Grid,
    rng: random.Random,
    *,
    largest: int = MAX_CAGE,
    skip: Collection[Move] = (),
) -> Iterator[tuple[Move, tuple[Cage, ...]]]:
    """Every way to make two neighbouring cages that hold no value twice one (of ``largest``
    cells at most), each once, in a random order, with the two cages' cells (the
    :data:`Move`); those in ``skip`` are left out. Fewer sums make a harder puzzle."""
    n = solution.size
    sol = solution.cells
    cage_of = {c: i for i, cage in enumerate(cages) for c in cage.cells}
    pairs = sorted(
        {
            (i, cage_of[d])
            for i, cage in enumerate(cages)
            for c in cage.cells
            for d in neighbours(c, n)
            if cage_of[d] > i
        }
    )
    rng.shuffle(pairs)
    for i, j in pairs:
        cells = [*cages[i].cells, *cages[j].cells]
        merge = frozenset((cages[i].cells, cages[j].cells))
        if (
            len(cells) <= largest
            and len({sol[c] for c in cells}) == len(cells)
            and merge not in skip
        ):
            groups = [list(c.cells) for k, c in enumerate(cages) if k not in (i, j)]
            yield merge, _cages([*groups, cells], sol)


def shifts(
    cages: Sequence[Cage],
    solution: Grid,
    rng: random.Random,
    *,
    largest: int = MAX_CAGE,
) -> Iterator[tuple[Move, tuple[Cage, ...]]]:
    """Every way to move a cell of a cage of three cells or more (the rest connected) to a
    neighbouring cage that lacks its value (of fewer than ``largest`` cells), in a random
    order, named by the two cages and the cell."""
    n = solution.size
    sol = solution.cells
    cage_of = {c: i for i, cage in enumerate(cages) for c in cage.cells}
    moves = sorted(
        {
            (c, cage_of[d])
            for i, cage in enumerate(cages)
            if len(cage.cells) >= 3
            for c in cage.cells
            for d in neighbours(c, n)
            if cage_of[d] != i
        }
    )
    rng.shuffle(moves)
    for c, j in moves:
        i = cage_of[c]
        target = cages[j].cells
        if len(target) >= largest or any(sol[e] == sol[c] for e in target):
            continue
        key = frozenset((cages[i].cells, target, (c,)))
        rest = [x for x in cages[i].cells if x != c]
        if not _connected(rest, n):
            continue
        groups = [list(x.cells) for k, x in enumerate(cages) if k not in (i, j)]
        yield key, _cages([*groups, rest, sorted([*target, c])], sol)


Swap = tuple[tuple[int, int], ...]
"""Cells of a grid and the values they take instead, leaving every house whole."""


def value_swaps(solution: Grid, houses: Sequence[Sequence[int]]) -> tuple[Swap, ...]:
    """Ways two values trade places in ``solution`` and leave each house (of ``houses``)
    whole: per pair of values a and b, the cells holding them fall in pieces tied by each
    house's a-cell and b-cell (a house meeting a piece holds both), and each piece or
    union of pieces may trade (the smallest, two boxes' deadly rectangle). The kind of
    second solution a Killer's drawn cages most often have."""
    sol = solution.cells
    out: list[Swap] = []
    for a in range(1, solution.size + 1):
        for b in range(a + 1, solution.size + 1):
            piece = {c: c for c, v in enumerate(sol) if v in (a, b)}
            for house in houses:
                ends = [c for c in house if sol[c] in (a, b)]
                if len(ends) == 2:
                    piece[_root(piece, ends[0])] = _root(piece, ends[1])
            pieces: dict[int, list[tuple[int, int]]] = {}
            for c in sorted(piece):
                pieces.setdefault(_root(piece, c), []).append((c, a + b - sol[c]))
            out += _unions(list(pieces.values()))
    return tuple(out)


def line_swaps(solution: Grid, houses: Sequence[Sequence[int]]) -> tuple[Swap, ...]:
    """Ways two rows of one band (or columns of one stack) of ``solution`` trade values in
    some columns and leave each house whole (``houses``: the rows, then the columns, then
    the boxes): the columns where the first row's values are the second's fall in cycles
    (a value of the first row sits in the second at the next column of the cycle), and
    each cycle or union of cycles may trade (a cycle of two: the deadly rectangle; of
    three: the six cells two solutions of a merged Killer most often differ by)."""
    sol = solution.cells
    n = solution.size
    box = [0] * len(sol)
    for i, cells in enumerate(houses[2 * n : 3 * n]):
        for c in cells:
            box[c] = i
    out: list[Swap] = []
    for parallel in (houses[:n], houses[n : 2 * n]):
        for i, first in enumerate(parallel):
            for second in parallel[i + 1 :]:
                if any(box[x] != box[y] for x, y in zip(first, second, strict=True)):
                    continue  # not of one band: the boxes would break
                at = {sol[c]: p for p, c in enumerate(first)}
                cycles: list[list[tuple[int, int]]] = []
                done: set[int] = set()
                for p in range(n):
                    cycle = []
                    while p not in done:
                        done.add(p)
                        x, y = first[p], second[p]
                        cycle += [(x, sol[y]), (y, sol[x])]
                        p = at[sol[y]]
                    if cycle:
                        cycles.append(cycle)
                out += _unions(cycles)
    return tuple(out)


def _unions(parts: list[list[tuple[int, int]]]) -> list[Swap]:
    """Each part and each union of parts, as a swap."""
    return [
        tuple(sorted(x for part in chosen for x in part))
        for k in range(1, len(parts) + 1)
        for chosen in combinations(parts, k)
    ]


def _root(piece: dict[int, int], c: int) -> int:
    """The cell naming ``c``'s piece (a union-find with path halving)."""
    while piece[c] != c:
        piece[c] = piece[piece[c]]
        c = piece[c]
    return c


def open_swap(
    cages: Sequence[Cage],
    solution: Grid,
    swaps: Sequence[Swap],
    near: Collection[int] | None = None,
) -> Swap | None:
    """A swap of ``swaps`` (meeting the cells ``near``, if given) after which every cage
    keeps its sum and holds no value twice: the cages then have a second solution, the
    swapped grid (:func:`swapped`). None: no such swap."""
    sol = solution.cells
    cage_of = {c: i for i, cage in enumerate(cages) for c in cage.cells}
    for swap in swaps:
        if near is not None and not any(c in near for c, _ in swap):
            continue
        change: dict[int, int] = {}
        for c, v in swap:
            i = cage_of[c]
            change[i] = change.get(i, 0) + v - sol[c]
        if any(change.values()):
            continue
        new = dict(swap)
        if all(_distinct([new.get(c, sol[c]) for c in cages[i].cells]) for i in change):
            return swap
    return None


def _distinct(values: list[int]) -> bool:
    return len(set(values)) == len(values)


def swapped(solution: Grid, swap: Swap) -> Grid:
    """``solution`` with the cells of ``swap`` changed."""
    cells = list(solution.cells)
    for c, v in swap:
        cells[c] = v
    return Grid(solution.shape, tuple(cells))
