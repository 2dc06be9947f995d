"""The rules of a puzzle: its houses (rows, columns, regions, extra houses) and its cages.

Glossary (see also :mod:`solver.grid`):
- a *house* is a set of N cells that holds every value once: a row, a column, a *region*
  (a box in a classic grid, an irregular shape in Jigsaw) or an *extra house* (the two
  diagonals of Diagonal Sudoku, Windoku's four extra boxes);
- ``regions`` gives every cell its region number 0..N-1, row by row; a classic grid is the
  one whose regions are its boxes;
- a *cage* is a set of cells whose values do not repeat and add up to its ``total`` (a
  cage may have no total: then only the no-repeat rule holds);
- the *peers* of a cell are the other cells of its houses and of its cage.

One :class:`Rules` serves every variant: Classic is boxes and nothing else, Diagonal adds
the two diagonals, Jigsaw changes the regions, Killer adds cages. The engines read the
houses and cages, never the variant's name; :attr:`Rules.variant` only names the puzzle
for people (and the API). The houses are numbered like :mod:`solver.grid`'s units: rows
0..N-1, columns N..2N-1, regions 2N..3N-1, then the extra houses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from solver.grid import Grid, Shape, tables, unit_name
from solver.rules.constraints import Constraint, ConstraintError, from_dicts

VARIANTS = ("classic", "diagonal", "jigsaw", "killer")
MAX_CAGES = 25 * 25
RULES_CACHED = 64
CONSTRAINED_CELLS = 8
"""The constraints' cells, counted once per constraint, add up to at most this many times
the grid's cells (a grid of dots on every pair of neighbours needs 4), so no input makes
the engines build tables without end."""
"""Tables derived from rules are kept for this many rules each, most recent first: a
Jigsaw generator draws new rules at every attempt, and a worker runs for days."""


class RulesError(ValueError):
    """Rules (or a puzzle in them) that make no sense; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Cage:
    """Cells whose values do not repeat and sum to ``total`` (None: no sum given)."""

    cells: tuple[int, ...]
    total: int | None = None


@dataclass(frozen=True, slots=True)
class Rules:
    """Houses and cages of one puzzle; checked when made (:class:`RulesError`)."""

    shape: Shape
    regions: tuple[int, ...]
    diagonals: bool = False
    windows: bool = False
    cages: tuple[Cage, ...] = field(default=())
    constraints: tuple[Constraint, ...] = field(default=())
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check(self)

    def __hash__(self) -> int:
        """The fields' hash, kept: every per-rules table is an lru_cache keyed on the rules,
        and hashing 81 regions and every cage on each look-up cost a Killer solve a tenth
        of its time."""
        if self._hash is None:
            fields = (
                self.shape,
                self.regions,
                self.diagonals,
                self.windows,
                self.cages,
                self.constraints,
            )
            object.__setattr__(self, "_hash", hash(fields))
        return self._hash  # type: ignore[return-value]

    # -- constructors -------------------------------------------------------------------

    @classmethod
    def classic(cls, shape: Shape | int) -> Rules:
        shape = _as_shape(shape)
        return cls(shape, tables(shape).box_of)

    @classmethod
    def make(
        cls,
        shape: Shape | int,
        *,
        regions: Iterable[int] | None = None,
        diagonals: bool = False,
        windows: bool = False,
        cages: Iterable[Cage | tuple[Iterable[int], int | None]] = (),
        constraints: Iterable[Constraint] = (),
    ) -> Rules:
        """Rules from plain values; ``regions`` None means the boxes."""
        shape = _as_shape(shape)
        regs = tables(shape).box_of if regions is None else tuple(regions)
        made = tuple(c if isinstance(c, Cage) else Cage(tuple(sorted(c[0])), c[1]) for c in cages)
        return cls(shape, regs, diagonals, windows, made, tuple(constraints))

    # -- what it is ---------------------------------------------------------------------

    @property
    def size(self) -> int:
        return self.shape.size

    @property
    def is_classic(self) -> bool:
        """True for boxes and nothing else: the engines then take the classic fast path."""
        return (
            not self.cages
            and not self.constraints
            and not self.diagonals
            and not self.windows
            and self.regions == tables(self.shape).box_of
        )

    @property
    def irregular(self) -> bool:
        """True when the regions are not the boxes (Jigsaw)."""
        return self.regions != tables(self.shape).box_of

    @property
    def variant(self) -> str:
        """The name people know it by; a mix takes the first of killer, jigsaw, diagonal."""
        if self.cages:
            return "killer"
        if self.irregular:
            return "jigsaw"
        if self.diagonals or self.windows:
            return "diagonal"
        return "classic"

    def houses(self) -> tuple[tuple[int, ...], ...]:
        return layout(self).houses

    def house_name(self, house: int) -> str:
        """``row 3``, ``box 7`` (a Jigsaw region too), ``diagonal 1`` (counted from 1)."""
        return layout(self).names[house]

    # -- the API's JSON -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """``variant``, ``regions`` (always), ``diagonals``, ``cages`` ({cells, sum})."""
        out: dict[str, Any] = {
            "variant": self.variant,
            "size": self.size,
            "regions": list(self.regions),
            "diagonals": self.diagonals,
            "cages": [{"cells": list(c.cells), "sum": c.total} for c in self.cages],
        }
        if self.windows:
            out["windows"] = True
        if self.constraints:
            out["constraints"] = [c.to_dict() for c in self.constraints]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape | int | None = None) -> Rules:
        """The inverse of :meth:`to_dict`; bad input raises :class:`RulesError`."""
        if not isinstance(data, Mapping):
            raise RulesError("the rules must be an object")
        size = data.get("size", shape.size if isinstance(shape, Shape) else shape)
        if not isinstance(size, int) or isinstance(size, bool):
            raise RulesError("size must be a whole number")
        try:
            grid_shape = shape if isinstance(shape, Shape) else Shape.for_size(size)
        except ValueError as exc:
            raise RulesError(f"size {size}: {exc}") from None
        regions = data.get("regions")
        if regions is not None and not isinstance(regions, list | tuple):
            raise RulesError("regions must be a list of region numbers, one per cell")
        raw_cages = data.get("cages") or []
        if not isinstance(raw_cages, list | tuple) or len(raw_cages) > MAX_CAGES:
            raise RulesError(f"cages must be a list of at most {MAX_CAGES} cages")
        cages = []
        for i, cage in enumerate(raw_cages, start=1):
            if not isinstance(cage, Mapping) or not isinstance(cage.get("cells"), list | tuple):
                raise RulesError(f"cage {i}: give its cells as a list of cell indexes")
            cells = cage["cells"]
            if len(cells) > grid_shape.ncells or not all(_is_int(c) for c in cells):
                raise RulesError(f"cage {i}: cells must be cell indexes")
            total = cage.get("sum")
            if total is not None and not _is_int(total):
                raise RulesError(f"cage {i}: sum must be a whole number")
            cages.append(Cage(tuple(sorted(cells)), total))
        for key in ("diagonals", "windows"):
            if not isinstance(data.get(key, False), bool):
                raise RulesError(f"{key} must be true or false")
        try:
            constraints = from_dicts(data.get("constraints"), grid_shape)
        except ConstraintError as exc:
            raise RulesError(str(exc)) from None
        return cls.make(
            grid_shape,
            regions=regions,
            diagonals=data.get("diagonals", False),
            windows=data.get("windows", False),
            cages=cages,
            constraints=constraints,
        )


def _rules_state(rules: Rules) -> list[Any]:
    """The fields to pickle, without the kept hash (a string's hash differs between
    processes); set after the class, since a slotted dataclass writes its own."""
    return [None if f.name == "_hash" else getattr(rules, f.name) for f in fields(rules)]


Rules.__getstate__ = _rules_state  # type: ignore[method-assign,assignment]


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _as_shape(shape: Shape | int) -> Shape:
    return shape if isinstance(shape, Shape) else Shape.for_size(shape)


def cage_bounds(size: int, n: int) -> tuple[int, int]:
    """The smallest and largest sum of ``size`` different values from 1..n."""
    return size * (size + 1) // 2, size * (2 * n - size + 1) // 2


def _check(rules: Rules) -> None:
    """Raise RulesError unless the regions are N connected cells each and the cages fit."""
    shape = rules.shape
    n, ncells = shape.size, shape.ncells
    regions = rules.regions
    if not isinstance(regions, tuple) or len(regions) != ncells:
        got = len(regions) if isinstance(regions, tuple | list) else "no"
        raise RulesError(f"regions: {got} region numbers, expected {ncells} (one per cell)")
    if not all(_is_int(r) and 0 <= r < n for r in regions):
        raise RulesError(f"regions: every region number must be 0 to {n - 1}")
    members: list[list[int]] = [[] for _ in range(n)]
    for cell, r in enumerate(regions):
        members[r].append(cell)
    for r, cells in enumerate(members):
        if len(cells) != n:
            raise RulesError(f"region {r + 1} has {len(cells)} cells, expected {n}")
        if not _connected(cells, n):
            raise RulesError(f"region {r + 1} is not connected")
    if rules.windows and n != 9:
        raise RulesError("windows (Windoku) are offered on 9x9 only")
    if len(rules.cages) > MAX_CAGES:
        raise RulesError(f"at most {MAX_CAGES} cages")
    seen: dict[int, int] = {}
    for i, cage in enumerate(rules.cages, start=1):
        if not isinstance(cage, Cage) or not cage.cells:
            raise RulesError(f"cage {i} has no cells")
        if len(cage.cells) > n:
            raise RulesError(f"cage {i} has {len(cage.cells)} cells; a cage holds at most {n}")
        if len(set(cage.cells)) != len(cage.cells):
            raise RulesError(f"cage {i} names a cell twice")
        for c in cage.cells:
            if not _is_int(c) or not 0 <= c < ncells:
                raise RulesError(f"cage {i}: cell {c!r} is not a cell of a {shape.label} grid")
            if c in seen:
                raise RulesError(f"cages {seen[c]} and {i} overlap")
            seen[c] = i
        if cage.total is not None:
            low, high = cage_bounds(len(cage.cells), n)
            if not _is_int(cage.total) or not low <= cage.total <= high:
                raise RulesError(
                    f"cage {i}: {len(cage.cells)} different values cannot add up to "
                    f"{cage.total} (only {low} to {high})"
                )
    drawn = sum(len(con.cells()) for con in rules.constraints if isinstance(con, Constraint))
    if drawn > CONSTRAINED_CELLS * ncells:
        raise RulesError(
            f"the constraints cover {drawn} cells in all; at most {CONSTRAINED_CELLS * ncells}"
        )
    if len(set(rules.constraints)) != len(rules.constraints):
        raise RulesError("a constraint is given twice")
    for con in rules.constraints:
        if not isinstance(con, Constraint):
            raise RulesError(f"{con!r} is not a constraint")
        try:
            con.check(rules)
        except ConstraintError as exc:
            raise RulesError(str(exc)) from None


def _connected(cells: list[int], n: int) -> bool:
    """True when ``cells`` form one piece, neighbours sharing a side."""
    inside = set(cells)
    todo = [cells[0]]
    seen = {cells[0]}
    while todo:
        c = todo.pop()
        r, k = divmod(c, n)
        for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
            d = rr * n + kk
            if 0 <= rr < n and 0 <= kk < n and d in inside and d not in seen:
                seen.add(d)
                todo.append(d)
    return len(seen) == len(inside)


# ---------------------------------------------------------------------------------------
# Derived tables, computed once per rules


@dataclass(frozen=True, slots=True)
class Layout:
    """The houses, names, cell houses, peers and cage tables of one :class:`Rules`."""

    houses: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    unit_ids: tuple[int, ...]  # per house: its unit number for names and steps (grid.UNIT_KINDS)
    cell_houses: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    cage_of: tuple[int, ...]  # per cell: its cage index, or -1
    mates: tuple[tuple[int, ...], ...]  # per cell: cells outside its houses it must differ from
    combos: tuple[tuple[int, ...], ...]  # per cage: the value masks it may hold


def extra_houses(shape: Shape, diagonals: bool, windows: bool) -> list[tuple[int, tuple[int, ...]]]:
    """The extra houses with their unit numbers: the two diagonals (3N, 3N+1), then
    Windoku's four boxes (4N..4N+3)."""
    n = shape.size
    out = []
    if diagonals:
        out.append((3 * n, tuple(i * n + i for i in range(n))))  # r1c1 to rNcN
        out.append((3 * n + 1, tuple((n - 1 - i) * n + i for i in range(n))))  # rNc1 to r1cN
    if windows:
        for k, (r0, c0) in enumerate(((1, 1), (1, 5), (5, 1), (5, 5))):
            cells = tuple((r0 + r) * n + c0 + c for r in range(3) for c in range(3))
            out.append((4 * n + k, cells))
    return out


def cage_combos(size: int, total: int | None, n: int) -> tuple[int, ...]:
    """The masks of every set of ``size`` different values from 1..n adding up to ``total``."""
    return _combos(size, total, n)


@cache
def _combos(size: int, total: int | None, n: int) -> tuple[int, ...]:
    out = []
    for combo in combinations(range(1, n + 1), size):
        if total is None or sum(combo) == total:
            out.append(sum(1 << (v - 1) for v in combo))
    return tuple(out)


@lru_cache(maxsize=RULES_CACHED)
def layout(rules: Rules) -> Layout:
    """The derived tables of ``rules``; cached, so call it freely."""
    shape = rules.shape
    n, ncells = shape.size, shape.ncells
    t = tables(shape)
    houses: list[tuple[int, ...]] = list(t.units[: 2 * n])
    members: list[list[int]] = [[] for _ in range(n)]
    for cell, r in enumerate(rules.regions):
        members[r].append(cell)
    houses += [tuple(m) for m in members]
    unit_ids = list(range(3 * n))
    for unit, cells in extra_houses(shape, rules.diagonals, rules.windows):
        houses.append(cells)
        unit_ids.append(unit)
    names = [unit_name(shape, u) for u in unit_ids]
    cell_houses: list[list[int]] = [[] for _ in range(ncells)]
    for h, cells in enumerate(houses):
        for c in cells:
            cell_houses[c].append(h)
    cage_of = [-1] * ncells
    for i, cage in enumerate(rules.cages):
        for c in cage.cells:
            cage_of[c] = i
    differ: list[set[int]] = [set() for _ in range(ncells)]
    for c in range(ncells):
        if cage_of[c] >= 0:
            differ[c].update(rules.cages[cage_of[c]].cells)
    for con in rules.constraints:
        for a, b in con.differ_pairs(rules):
            differ[a].add(b)
            differ[b].add(a)
    peers = []
    mates = []
    for c in range(ncells):
        p = {d for h in cell_houses[c] for d in houses[h]}
        mates.append(tuple(sorted(differ[c] - p - {c})))
        p.update(differ[c])
        p.discard(c)
        peers.append(tuple(sorted(p)))
    return Layout(
        houses=tuple(houses),
        names=tuple(names),
        unit_ids=tuple(unit_ids),
        cell_houses=tuple(tuple(h) for h in cell_houses),
        peers=tuple(peers),
        cage_of=tuple(cage_of),
        mates=tuple(mates),
        combos=tuple(cage_combos(len(c.cells), c.total, n) for c in rules.cages),
    )


# ---------------------------------------------------------------------------------------
# The plain check the engines are tested against


def check_puzzle(rules: Rules, puzzle: Grid) -> None:
    """Raise RulesError when ``puzzle`` does not fit ``rules`` or its givens break them."""
    if puzzle.shape != rules.shape:
        raise RulesError(f"a {puzzle.shape.label} grid cannot have {rules.shape.label} rules")
    lay = layout(rules)
    cells = puzzle.cells
    for h, house in enumerate(lay.houses):
        seen: dict[int, int] = {}
        for c in house:
            v = cells[c]
            if v and v in seen:
                raise RulesError(f"{lay.names[h]} holds {v} twice")
            if v:
                seen[v] = c
    for i, cage in enumerate(rules.cages, start=1):
        values = [cells[c] for c in cage.cells if cells[c]]
        if len(set(values)) != len(values):
            raise RulesError(f"cage {i} holds a value twice")
        if cage.total is not None and sum(values) > cage.total:
            raise RulesError(f"the givens of cage {i} add up to more than {cage.total}")
    for con in rules.constraints:
        if con.clashes(rules, cells):
            raise RulesError(f"the givens break the {con.describe(rules.size)}")
