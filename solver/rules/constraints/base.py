"""What every constraint is, and the propagators they are made of.

A *constraint* is one drawn rule beyond houses and cages: a thermometer, a dot, a line,
a clue outside the grid, or a rule over the whole grid (anti-knight). Each type is a frozen
dataclass (so :class:`~solver.rules.ruleset.Rules` stays hashable) in a module of its own,
and says:

- :meth:`Constraint.differ_pairs`: pairs of cells that must hold different values (the
  engines make them peers, so placing a value clears it from the partner);
- :meth:`Constraint.propagators`: what it forbids, as :class:`Propagator` objects that
  take the candidate masks of their cells and return them pruned (None: no fill is left);
- :meth:`Constraint.clashes`: the groups of filled cells that already break it (on a
  full grid, none means it holds), written plainly from the rule;
- :meth:`Constraint.to_dict` / :meth:`Constraint.from_dict`: its JSON for the API;
- ``read_fpuzzles`` (a module function) and :meth:`Constraint.write_fpuzzles`: f-puzzles;
- :meth:`Constraint.moved`, :meth:`Constraint.complemented` and ``any_labels``: how it
  follows the grid under a symmetry of the square and a renaming of the digits (what a
  puzzle's canonical key reads, so a rotated or relabelled copy is known as the same).

A *mask* is an int whose bit v-1 stands for value v, as everywhere in :mod:`solver`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeGuard

if TYPE_CHECKING:
    from solver.grid import Shape
    from solver.rules.symmetry import Move

Masks = tuple[int, ...]
MEMO = 4096
"""States remembered per propagator, then forgotten all at once."""


class RulesView(Protocol):
    """What a constraint reads of the rules it lives in (:class:`solver.rules.ruleset.Rules`
    is one): named here so that the arrow between the two modules points one way."""

    @property
    def size(self) -> int: ...

    @property
    def shape(self) -> Shape: ...

    @property
    def regions(self) -> tuple[int, ...]: ...

    @property
    def constraints(self) -> tuple[Constraint, ...]: ...


class ConstraintError(ValueError):
    """A constraint that makes no sense; the message says what is wrong."""


# ---------------------------------------------------------------------------------------
# Propagators


class Propagator:
    """Prunes the candidate masks of ``cells``; remembers what it worked out per state."""

    __slots__ = ("cells", "memo")

    def __init__(self, cells: Sequence[int]) -> None:
        self.cells = tuple(cells)
        self.memo: dict[Masks, Masks | None] = {}

    def __call__(self, masks: Masks) -> Masks | None:
        found = self.memo.get(masks, False)
        if found is False:
            if len(self.memo) >= MEMO:
                self.memo.clear()
            found = self.memo[masks] = self.prune(masks)
        return found  # type: ignore[return-value]

    def prune(self, masks: Masks) -> Masks | None:
        raise NotImplementedError


def relation_table(n: int, allowed: Callable[[int, int], bool]) -> tuple[int, ...]:
    """Per value a (1..n, at index a-1): the mask of the values b with ``allowed(a, b)``."""
    return tuple(
        sum(1 << (b - 1) for b in range(1, n + 1) if allowed(a, b)) for a in range(1, n + 1)
    )


def support(table: Sequence[int], mask: int) -> int:
    """The values some value of ``mask`` allows, by ``table``."""
    out = 0
    while mask:
        low = mask & -mask
        out |= table[low.bit_length() - 1]
        mask ^= low
    return out


class Pair(Propagator):
    """Two cells whose values must be related by ``table`` (see :func:`relation_table`);
    ``back`` is the relation read from the second cell (the same for a symmetric one)."""

    __slots__ = ("back", "table")

    def __init__(self, a: int, b: int, table: tuple[int, ...], back: tuple[int, ...]) -> None:
        super().__init__((a, b))
        self.table, self.back = table, back

    def prune(self, masks: Masks) -> Masks | None:
        ma, mb = masks
        mb &= support(self.table, ma)
        ma &= support(self.back, mb)  # a value of b keeps its support: the relation is mutual
        if not ma or not mb:
            return None
        return ma, mb


def pair(a: int, b: int, n: int, allowed: Callable[[int, int], bool]) -> Pair:
    """The :class:`Pair` of cells a, b with ``allowed(value at a, value at b)``."""
    return Pair(a, b, relation_table(n, allowed), relation_table(n, lambda x, y: allowed(y, x)))


_VALUES: dict[int, tuple[int, ...]] = {}


def bit_values(mask: int) -> tuple[int, ...]:
    """The values of ``mask``, smallest first (remembered per mask)."""
    found = _VALUES.get(mask)
    if found is None:
        out = []
        m = mask
        while m:
            low = m & -m
            out.append(low.bit_length())
            m ^= low
        found = tuple(out)
        if len(_VALUES) < 1 << 17:
            _VALUES[mask] = found
    return found


class LinearSum(Propagator):
    """``sum(weight * value)`` over the cells lies in ``totals`` (a set of ints); values may
    repeat. Reachable sums are bitsets, forward and backward, so a value stays exactly when
    some fill of the other cells (ignoring their own rules) completes the sum."""

    __slots__ = ("offset", "totals", "weights")

    def __init__(self, cells: Sequence[int], weights: Sequence[int], totals: Iterable[int], n: int):
        super().__init__(cells)
        self.weights = tuple(weights)
        self.offset = sum(min(0, w) * n for w in self.weights)  # the lowest sum is -offset
        self.totals = sum(1 << (t - self.offset) for t in totals if t >= self.offset)

    def prune(self, masks: Masks) -> Masks | None:
        out = linear_prune(masks, self.weights, self.totals, self.offset)
        return out


def linear_prune(masks: Masks, weights: Sequence[int], totals: int, offset: int) -> Masks | None:
    """See :class:`LinearSum`; ``totals`` is a bitset of sums less ``offset``."""
    k = len(masks)
    values = [bit_values(m) for m in masks]
    forward = [1 << -offset]  # bit s - offset: a sum s reachable by the first i cells
    for i in range(k):
        reach = 0
        w = weights[i]
        here = forward[i]
        for v in values[i]:
            by = w * v
            reach |= here << by if by >= 0 else here >> -by
        forward.append(reach)
    if not forward[k] & totals:
        return None
    need = totals  # sums of the first i cells that the rest can complete
    out = [0] * k
    for i in range(k - 1, -1, -1):
        w = weights[i]
        here = forward[i]
        keep = 0
        before = 0
        for v in values[i]:
            by = w * v
            back = need >> by if by >= 0 else need << -by
            if back & here:
                keep |= 1 << (v - 1)
                before |= back
        if not keep:
            return None
        out[i] = keep
        need = before & here
    return tuple(out)


# ---------------------------------------------------------------------------------------
# The constraint interface


class Constraint:
    """One constraint of a puzzle; see the module docstring. Subclasses are frozen
    dataclasses with ``kind`` (their JSON ``type``)."""

    kind: ClassVar[str] = ""
    any_labels: ClassVar[bool] = False
    """It holds under every renaming of the digits: it only says which cells differ."""

    def cells(self) -> tuple[int, ...]:
        """The cells it is drawn on (none for a rule over the whole grid)."""
        return ()

    def check(self, rules: RulesView) -> None:
        """Raise ConstraintError when it does not fit ``rules``' grid."""
        ncells = rules.shape.ncells
        for c in self.cells():
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < ncells:
                raise ConstraintError(f"{self.kind}: {c!r} is not a cell of the grid")

    def differ_pairs(self, rules: RulesView) -> Iterable[tuple[int, int]]:
        return ()

    def propagators(self, rules: RulesView) -> list[Propagator]:
        return []

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        """The groups of cells whose values (0: empty) already break it."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> Constraint:
        raise NotImplementedError

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        """Add itself to the f-puzzles object ``out``."""
        raise NotImplementedError

    def moved(self, move: Move) -> Constraint:
        """The same constraint on the grid moved by ``move``, in its *normal order*: cells
        whose order says nothing (a renban's, a dot's two) sorted, so that two copies of
        one puzzle write their constraints alike."""
        raise NotImplementedError

    def complemented(self, rules: RulesView) -> Constraint | None:
        """The constraint a grid obeys exactly when the grid with every digit d written as
        N + 1 - d obeys this one; None when no constraint says that (then the complement
        is not a renaming the puzzle allows)."""
        return None

    def describe(self, n: int) -> str:
        """A short English name for messages (``thermometer from r1c1``)."""
        cells = self.cells()
        return f"{self.kind.replace('_', ' ')} at {cell_name(n, cells[0])}" if cells else self.kind


def all_pairs(cells: Sequence[int]) -> list[tuple[int, int]]:
    return [(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :]]


# ---------------------------------------------------------------------------------------
# Reading JSON and f-puzzles


def is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def cell_list(
    data: Mapping[str, Any], key: str, kind: str, shape: Shape, least: int = 1
) -> tuple[int, ...]:
    """``data[key]`` as a list of at least ``least`` distinct cell indexes of ``shape``."""
    raw = data.get(key)
    if not isinstance(raw, list | tuple) or not least <= len(raw) <= shape.ncells:
        raise ConstraintError(f"{kind}: {key} must be a list of at least {least} cell indexes")
    if not all(is_int(c) and 0 <= c < shape.ncells for c in raw):
        raise ConstraintError(f"{kind}: {key} must be cell indexes 0 to {shape.ncells - 1}")
    if len(set(raw)) != len(raw):
        raise ConstraintError(f"{kind}: {key} names a cell twice")
    return tuple(raw)


def whole(data: Mapping[str, Any], key: str, kind: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if not is_int(value):
        raise ConstraintError(f"{kind}: {key} must be a whole number")
    return value


def cell_name(n: int, cell: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def cell_ref(n: int, cell: int) -> str:
    """``R6C3`` for a cell index (f-puzzles' spelling)."""
    return f"R{cell // n + 1}C{cell % n + 1}"


_REF = re.compile(r"^[Rr](-?\d{1,2})[Cc](-?\d{1,2})$")


def ref_position(ref: Any, where: str) -> tuple[int, int]:
    """The 0-based (row, column) of ``R6C3``, which may lie outside the grid (R0C1)."""
    match = _REF.match(ref) if isinstance(ref, str) else None
    if match is None:
        raise ConstraintError(f"{where}: {ref!r} is not a cell like R6C3")
    return int(match[1]) - 1, int(match[2]) - 1


def parse_ref(ref: Any, n: int, where: str) -> int:
    r, k = ref_position(ref, where)
    if not (0 <= r < n and 0 <= k < n):
        raise ConstraintError(f"{where}: {ref} is outside a {n}x{n} grid")
    return r * n + k


def parse_refs(refs: Any, n: int, where: str, least: int = 1) -> tuple[int, ...]:
    if not isinstance(refs, list) or not least <= len(refs) <= n * n:
        raise ConstraintError(f"{where}: give at least {least} cells like R6C3")
    cells = tuple(parse_ref(ref, n, where) for ref in refs)
    if len(set(cells)) != len(cells):
        raise ConstraintError(f"{where} names a cell twice")
    return cells


def entries(data: Mapping[str, Any], key: str, n: int) -> list[dict[str, Any]]:
    """The list of objects under f-puzzles' ``key`` (missing: none)."""
    raw = data.get(key)
    if raw in (None, False, ""):
        return []
    if not isinstance(raw, list) or len(raw) > 4 * n * n:
        raise ConstraintError(f"{key} must be a list of at most {4 * n * n} entries")
    for i, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            raise ConstraintError(f"{key} {i} must be an object")
    return raw


def fpuzzles_lines(
    data: Mapping[str, Any], key: str, n: int, least: int = 2
) -> list[tuple[int, ...]]:
    """Every line of every entry of a line key (``{"lines": [["R1C1", ...]]}``)."""
    out = []
    for i, item in enumerate(entries(data, key, n), start=1):
        lines = item.get("lines")
        if not isinstance(lines, list):
            raise ConstraintError(f"{key} {i} must have lines, lists of cells like R6C3")
        for line in lines:
            out.append(parse_refs(line, n, f"{key} {i}", least))
    return out


def fpuzzles_number(value: Any, where: str, default: int | None = None) -> int:
    """A clue's number, which f-puzzles writes as text or as a number."""
    if value in (None, "") and default is not None:
        return default
    text = str(value).strip() if is_int(value) or isinstance(value, str) else ""
    if not (text.isascii() and text.isdigit() and len(text) <= 4):
        raise ConstraintError(f"{where}: {value!r} is not a whole number")
    return int(text)


def append(out: dict[str, Any], key: str, item: Any) -> None:
    out.setdefault(key, []).append(item)
