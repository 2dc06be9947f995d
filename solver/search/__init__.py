"""Exact search: solving, counting and drawing grids, under any rules.

- :mod:`~solver.search.exact`: the functions callers use (:func:`solve`,
  :func:`solutions`, :func:`count_solutions`, :func:`random_solution`,
  :func:`has_other_solution`); it picks the lanes for a grid's rules in one place;
- :mod:`~solver.search.lanes`: the engine, lane bitboards with propagation and a
  depth-first search, and the classic's lanes with locked candidates over bands of boxes
  (the fast case: boxes and nothing else);
- :mod:`~solver.search.house_lanes`: the lanes of any houses and cages, the same search;
- :mod:`~solver.search.dlx`: an independent Algorithm X engine, the tests' oracle.
"""

from solver.search.exact import (
    DEFAULT_NODE_BUDGET,
    count_solutions,
    has_other_solution,
    random_solution,
    solutions,
    solve,
)

__all__ = [
    "DEFAULT_NODE_BUDGET",
    "count_solutions",
    "has_other_solution",
    "random_solution",
    "solutions",
    "solve",
]
