"""Constraints as data: one module per type, each a frozen dataclass (see :mod:`.base`).

:data:`KINDS` maps each JSON ``type`` to its class; :func:`from_dicts` reads the API's
``constraints`` list and :func:`read_fpuzzles` every constraint of an f-puzzles object.
Killer cages without sums are :class:`~solver.rules.ruleset.Cage` with no total, not
constraints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from solver.rules.constraints.antiking import AntiKing
from solver.rules.constraints.antiknight import AntiKnight
from solver.rules.constraints.arrow import Arrow
from solver.rules.constraints.base import Constraint, ConstraintError
from solver.rules.constraints.between import BetweenLine
from solver.rules.constraints.extra_region import ExtraRegion
from solver.rules.constraints.kropki import BlackDotsNegative, Kropki
from solver.rules.constraints.little_killer import LittleKiller
from solver.rules.constraints.nonconsecutive import NonConsecutive
from solver.rules.constraints.palindrome import Palindrome
from solver.rules.constraints.parity import Even, Odd
from solver.rules.constraints.region_sum import RegionSumLine
from solver.rules.constraints.renban import Renban
from solver.rules.constraints.sandwich import Sandwich
from solver.rules.constraints.thermometer import Thermometer
from solver.rules.constraints.whispers import Whispers
from solver.rules.constraints.xv import XV, XVNegative

if TYPE_CHECKING:
    from solver.grid import Shape

TYPES: tuple[type[Constraint], ...] = (
    Thermometer, Arrow, Kropki, BlackDotsNegative, XV, XVNegative, AntiKnight, AntiKing,
    NonConsecutive, Odd, Even, LittleKiller, Sandwich, Palindrome, Renban, Whispers,
    RegionSumLine, BetweenLine, ExtraRegion,
)  # fmt: skip
KINDS: dict[str, type[Constraint]] = {t.kind: t for t in TYPES}
FPUZZLES_KEYS = frozenset({
    "thermometer", "arrow", "difference", "ratio", "negative", "xv", "antiknight", "antiking",
    "nonconsecutive", "odd", "even", "littlekillersum", "sandwichsum", "palindrome", "renban",
    "whispers", "regionsumline", "betweenline", "extraregion",
})  # fmt: skip
MAX_CONSTRAINTS = 2000


def from_dicts(raw: Any, shape: Shape) -> tuple[Constraint, ...]:
    """The API's ``constraints`` list; ConstraintError names the first bad entry."""
    if raw is None:
        return ()
    if not isinstance(raw, list | tuple) or len(raw) > MAX_CONSTRAINTS:
        raise ConstraintError(f"constraints must be a list of at most {MAX_CONSTRAINTS}")
    out = []
    for i, item in enumerate(raw, start=1):
        if not isinstance(item, Mapping) or not isinstance(item.get("type"), str):
            raise ConstraintError(f"constraint {i}: an object with a type")
        kind = KINDS.get(item["type"])
        if kind is None:
            raise ConstraintError(f"constraint {i}: the {item['type']!r} constraint is not offered")
        out.append(kind.from_dict(item, shape))
    return tuple(out)


def read_fpuzzles(data: Mapping[str, Any], n: int) -> tuple[Constraint, ...]:
    """Every constraint of an f-puzzles object, in :data:`TYPES` order."""
    out: list[Constraint] = []
    for kind in TYPES:
        out += kind.read_fpuzzles(data, n)  # type: ignore[attr-defined]
    return tuple(out)


def write_fpuzzles(constraints: Sequence[Constraint], out: dict[str, Any], n: int) -> None:
    for con in constraints:
        con.write_fpuzzles(out, n)


__all__ = [
    "FPUZZLES_KEYS", "KINDS", "TYPES", "XV", "AntiKing", "AntiKnight", "Arrow", "BetweenLine",
    "BlackDotsNegative", "Constraint", "ConstraintError", "Even", "ExtraRegion", "Kropki",
    "LittleKiller", "NonConsecutive", "Odd", "Palindrome", "RegionSumLine", "Renban",
    "Sandwich", "Thermometer", "Whispers", "XVNegative", "from_dicts", "read_fpuzzles",
    "write_fpuzzles",
]  # fmt: skip
