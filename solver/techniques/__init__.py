"""The techniques of the logic engine, easiest first, with their level and score per use.

Every technique is a generator of steps over a :class:`~solver.techniques.base.Board`; the
engine takes the first step of the first technique that has one. The table below is the
single source of the order, the levels and the scores (see :mod:`solver.grade`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from solver.techniques import chains, fish, intersections, singles, subsets, uniqueness, wings
from solver.techniques.base import Board, Step

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
    Technique("full_house", "Full House", "easy", 3, singles.full_houses),
    Technique("naked_single", "Naked Single", "easy", 2, singles.naked_singles),
    Technique("hidden_single", "Hidden Single", "easy", 10, singles.hidden_singles),
    Technique("pointing", "Pointing", "medium", 60, intersections.pointing),
    Technique("claiming", "Claiming", "medium", 60, intersections.claiming),
    Technique("naked_pair", "Naked Pair", "medium", 15, partial(subsets.naked_subsets, k=2)),
    Technique("hidden_pair", "Hidden Pair", "medium", 55, partial(subsets.hidden_subsets, k=2)),
    Technique("naked_triple", "Naked Triple", "medium", 25, partial(subsets.naked_subsets, k=3)),
    Technique("hidden_triple", "Hidden Triple", "hard", 80, partial(subsets.hidden_subsets, k=3)),
    Technique("x_wing", "X-Wing", "hard", 60, partial(fish.fish, k=2)),
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
    Technique("naked_quad", "Naked Quad", "hard", 150, partial(subsets.naked_subsets, k=4)),
    Technique("hidden_quad", "Hidden Quad", "hard", 150, partial(subsets.hidden_subsets, k=4)),
    Technique("bug_plus_one", "BUG+1", "hard", 250, uniqueness.bug_plus_one),
    Technique("skyscraper", "Skyscraper", "hard", 60, fish.skyscrapers),
    Technique("two_string_kite", "2-String Kite", "hard", 60, fish.two_string_kites),
    Technique("w_wing", "W-Wing", "hard", 400, wings.w_wings),
    Technique("simple_colouring", "Simple Colouring", "hard", 60, chains.simple_colourings),
    Technique("swordfish", "Swordfish", "expert", 400, partial(fish.fish, k=3)),
    Technique("jellyfish", "Jellyfish", "expert", 750, partial(fish.fish, k=4)),
    Technique("x_chain", "X-Chain", "expert", 400, chains.x_chains),
    Technique("xy_chain", "XY-Chain", "expert", 400, chains.xy_chains),
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
