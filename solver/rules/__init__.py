"""What a puzzle is: its rules, and the plain checks of a grid against them.

- :mod:`~solver.rules.ruleset`: :class:`Rules` (the houses: rows, columns, regions, extra
  houses; and the cages), :class:`Cage`, :class:`RulesError`, and :func:`layout`, the
  tables every engine reads (houses, peers, unit numbers);
- :mod:`~solver.rules.checks`: the rules written plainly, :func:`conflicts` and
  :func:`is_solution` for the classic, :func:`is_variant_solution` for any rules: the
  independent checks the engines are tested against;
- :mod:`~solver.rules.canon`: the canonical form of a classic grid, so two puzzles that
  differ only by a symmetry are known as one.

Every engine reads the rules (houses, cages), never a variant's name.
"""

from solver.rules.canon import canonical_form, canonical_key
from solver.rules.checks import Conflict, conflicts, is_solution, is_variant_solution
from solver.rules.ruleset import (
    VARIANTS,
    Cage,
    Layout,
    Rules,
    RulesError,
    check_puzzle,
    layout,
)

__all__ = [
    "VARIANTS",
    "Cage",
    "Conflict",
    "Layout",
    "Rules",
    "RulesError",
    "canonical_form",
    "canonical_key",
    "check_puzzle",
    "conflicts",
    "is_solution",
    "is_variant_solution",
    "layout",
]
