"""The techniques of the logic engine, easiest first, with their level and score per use.

Every technique is a generator of steps over a :class:`~solver.logic.techniques.base.Board`; the
engine takes the first step of the first technique that has one. The table below is the
single source of the order, the levels and the scores (see :mod:`solver.logic.grade`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from solver.logic.techniques import (
    als,
    chains,
    fish,
    intersections,
    loops,
    singles,
    subsets,
    uniqueness,
    wings,
)
from solver.logic.techniques.base import Board, Step

LEVELS = ("easy", "medium", "hard", "expert", "master")

Finder = Callable[[Board], Iterator[Step]]


@dataclass(frozen=True, slots=True)
class Technique:
    slug: str
    name: str
    level: str
    score: int
    find: Finder


ORDER: tuple[Technique, ...] = (
    # easy: SE 1.0-2.3
    Technique("full_house", "Full House", "easy", 3, singles.full_houses),
    Technique("naked_single", "Naked Single", "easy", 2, singles.naked_singles),
    Technique("hidden_single", "Hidden Single", "easy", 10, singles.hidden_singles),
    # medium: SE 2.6-3.6
    Technique("pointing", "Pointing", "medium", 60, intersections.pointing),
    Technique("claiming", "Claiming", "medium", 60, intersections.claiming),
    Technique("naked_pair", "Naked Pair", "medium", 15, partial(subsets.naked_subsets, k=2)),
    Technique("hidden_pair", "Hidden Pair", "medium", 55, partial(subsets.hidden_subsets, k=2)),
    Technique("naked_triple", "Naked Triple", "medium", 25, partial(subsets.naked_subsets, k=3)),
    Technique("x_wing", "X-Wing", "medium", 60, partial(fish.fish, k=2)),
    # hard: SE 3.8-5.4
    Technique("hidden_triple", "Hidden Triple", "hard", 80, partial(subsets.hidden_subsets, k=3)),
    Technique("naked_quad", "Naked Quad", "hard", 150, partial(subsets.naked_subsets, k=4)),
    Technique("hidden_quad", "Hidden Quad", "hard", 150, partial(subsets.hidden_subsets, k=4)),
    Technique("skyscraper", "Skyscraper", "hard", 60, fish.skyscrapers),
    Technique("two_string_kite", "2-String Kite", "hard", 60, fish.two_string_kites),
    Technique("finned_x_wing", "Finned X-Wing", "hard", 130, partial(fish.finned_fish, k=2)),
    Technique("swordfish", "Swordfish", "hard", 400, partial(fish.fish, k=3)),
    Technique("xy_wing", "XY-Wing", "hard", 60, wings.xy_wings),
    Technique("xyz_wing", "XYZ-Wing", "hard", 60, wings.xyz_wings),
    Technique(
        "unique_rectangle_1", "Unique Rectangle Type 1", "hard", 80, uniqueness.unique_rectangles
    ),
    Technique(
        "unique_rectangle_2", "Unique Rectangle Type 2", "hard", 80, uniqueness.unique_rectangles_2
    ),
    Technique(
        "unique_rectangle_4", "Unique Rectangle Type 4", "hard", 60, uniqueness.unique_rectangles_4
    ),
    Technique(
        "unique_rectangle_5", "Unique Rectangle Type 5", "hard", 100, uniqueness.unique_rectangles_5
    ),
    Technique(
        "unique_rectangle_6", "Unique Rectangle Type 6", "hard", 100, uniqueness.unique_rectangles_6
    ),
    Technique(
        "hidden_unique_rectangle",
        "Hidden Unique Rectangle",
        "hard",
        100,
        uniqueness.hidden_unique_rectangles,
    ),
    Technique(
        "unique_rectangle_3", "Unique Rectangle Type 3", "hard", 100, uniqueness.unique_rectangles_3
    ),
    Technique("finned_swordfish", "Finned Swordfish", "hard", 470, partial(fish.finned_fish, k=3)),
    Technique("empty_rectangle", "Empty Rectangle", "hard", 120, fish.empty_rectangles),
    Technique("jellyfish", "Jellyfish", "hard", 750, partial(fish.fish, k=4)),
    Technique("sue_de_coq", "Sue de Coq", "hard", 250, als.sue_de_coq),
    # expert: SE 5.5-7.2, BUG+1, chains, loops and almost locked sets
    Technique("bug_plus_one", "BUG+1", "expert", 250, uniqueness.bug_plus_one),
    Technique("simple_colouring", "Simple Colouring", "expert", 60, chains.simple_colourings),
    Technique("x_cycle", "X-Cycle", "expert", 400, loops.x_cycles),
    Technique("x_chain", "X-Chain", "expert", 400, chains.x_chains),
    Technique("w_wing", "W-Wing", "expert", 400, wings.w_wings),
    Technique("xy_chain", "XY-Chain", "expert", 400, chains.xy_chains),
    Technique("als_xz", "ALS-XZ", "expert", 300, als.als_xz),
    Technique("nice_loop", "Continuous Nice Loop", "expert", 400, loops.nice_loops),
    Technique(
        "alternating_chain",
        "Alternating Inference Chain",
        "expert",
        400,
        chains.alternating_chains,
    ),
)

BY_SLUG = {t.slug: t for t in ORDER}
SINGLES = ("full_house", "naked_single", "hidden_single")

__all__ = ["BY_SLUG", "LEVELS", "ORDER", "SINGLES", "Board", "Step", "Technique"]
