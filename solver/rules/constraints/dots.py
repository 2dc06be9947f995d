"""What kropki dots and XV share: a clue between two orthogonal neighbours, and the
negative constraint ("every such clue is given") over the unmarked neighbours."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from solver.rules.constraints.base import Constraint, ConstraintError, Propagator, append, pair

if TYPE_CHECKING:
    from solver.grid import Shape
    from solver.rules.constraints.base import RulesView
    from solver.rules.symmetry import Move


def check_neighbours(kind: str, a: int, b: int, n: int) -> None:
    ra, ka = divmod(a, n)
    rb, kb = divmod(b, n)
    if abs(ra - rb) + abs(ka - kb) != 1:
        raise ConstraintError(f"{kind}: its two cells must be orthogonal neighbours")


def neighbour_pairs(n: int) -> Iterator[tuple[int, int]]:
    """Every pair of orthogonal neighbours, the smaller cell first."""
    for c in range(n * n):
        if c % n < n - 1:
            yield c, c + 1
        if c + n < n * n:
            yield c, c + n


def unmarked_pairs(rules: RulesView, marked: Callable[[object], bool]) -> list[tuple[int, int]]:
    """The neighbour pairs that carry no constraint ``marked`` picks."""
    taken = set()
    for con in rules.constraints:
        if marked(con):
            a, b = con.cells()
            taken.add((min(a, b), max(a, b)))
    return [p for p in neighbour_pairs(rules.size) if p not in taken]


class NegativeDots(Constraint):
    """Every clue of one sort is given: the unmarked neighbours break its rule
    (``forbidden``). A subclass says which clues it completes (``marked``) and its
    f-puzzles ``negative`` entry."""

    negative_key: ClassVar[str]

    @staticmethod
    def marked(con: object) -> bool:
        raise NotImplementedError

    @staticmethod
    def forbidden(x: int, y: int) -> bool:
        raise NotImplementedError

    def unmarked(self, rules: RulesView) -> list[tuple[int, int]]:
        return unmarked_pairs(rules, self.marked)

    def moved(self, move: Move) -> NegativeDots:
        return self  # its marked pairs move with their own constraints

    def propagators(self, rules: RulesView) -> list[Propagator]:
        n, forbidden = rules.size, self.forbidden
        return [pair(a, b, n, lambda x, y: not forbidden(x, y)) for a, b in self.unmarked(rules)]

    def clashes(self, rules: RulesView, values: Sequence[int]) -> list[tuple[int, ...]]:
        return [
            (a, b)
            for a, b in self.unmarked(rules)
            if values[a] and values[b] and self.forbidden(values[a], values[b])
        ]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], shape: Shape) -> NegativeDots:
        return cls()

    @classmethod
    def read_fpuzzles(cls, data: Mapping[str, Any], n: int) -> list[Constraint]:
        return [cls()] if cls.negative_key in negatives(data) else []

    def write_fpuzzles(self, out: dict[str, Any], n: int) -> None:
        append(out, "negative", self.negative_key)


def negatives(data: Mapping[str, Any]) -> list[str]:
    raw = data.get("negative") or []
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise ConstraintError('negative must be a list such as ["ratio", "xv"]')
    unknown = sorted(set(raw) - {"ratio", "xv"})
    if unknown:
        raise ConstraintError(f"the negative constraint for {unknown[0]!r} is not offered here")
    return raw
