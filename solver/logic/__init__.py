"""Logic: solving the way a player does, one explained step at a time, and grading.

- :mod:`~solver.logic.engines`: the one interface, :func:`engine_for` (rules or a shape)
  returns a :class:`LogicEngine` (candidates, techniques, placements, the next step, the
  whole path); it picks the classic engine for boxes and nothing else, else the general one;
- the classic engine, the fast case: :mod:`~solver.logic.classic` (:func:`logic_solve`,
  :func:`next_step`) over a bitmask board, with its techniques in
  :mod:`solver.logic.techniques` (one module per family: singles, subsets, fish, wings,
  chains, loops, ALS, uniqueness, forcing);
- the general engine, on any :class:`~solver.rules.Rules`: :mod:`~solver.logic.general`
  (its technique order), :mod:`~solver.logic.houses` (its board and the techniques over
  houses), :mod:`~solver.logic.house_masks` (the board's bitmask tables),
  :mod:`~solver.logic.cages` (Killer's cage combinations and cage-house interaction),
  :mod:`~solver.logic.innies` (the 45 rule) and :mod:`~solver.logic.classic_on_houses`
  (the classic's harder finders run on houses);
- :mod:`~solver.logic.placement` (the easiest technique that places a value),
  :mod:`~solver.logic.sentences` (a step's sentence from its parameters),
  :mod:`~solver.logic.grade` and :mod:`~solver.logic.rating` (a puzzle's level and score,
  a step's rating on SE's scale).
"""

from solver.logic.classic import (
    LogicResult,
    MultipleSolutions,
    NoSolution,
    Step,
    logic_solve,
    next_step,
)
from solver.logic.engines import LogicEngine, engine_for
from solver.logic.general import variant_logic_solve, variant_next_step
from solver.logic.grade import GRADER_VERSION, LEVELS, TECHNIQUES, Grade

__all__ = [
    "GRADER_VERSION",
    "LEVELS",
    "TECHNIQUES",
    "Grade",
    "LogicEngine",
    "LogicResult",
    "MultipleSolutions",
    "NoSolution",
    "Step",
    "engine_for",
    "logic_solve",
    "next_step",
    "variant_logic_solve",
    "variant_next_step",
]
