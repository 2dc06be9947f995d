"""What kropki dots and XV share: a clue between two orthogonal neighbours, and the
negative constraint ("every such clue is given") over the unmarked neighbours."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from solver.rules.constraints.base import ConstraintError

if TYPE_CHECKING:
    from solver.rules.constraints.base import RulesView


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
