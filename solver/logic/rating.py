"""Each step's rating on Sukaku Explainer's scale, and the choice of the easiest chain.

Sukaku Explainer (SE) rates a puzzle by its hardest step, and at every position it takes the
lowest-rated step it can find. Our techniques map onto SE's as follows (``RATINGS`` holds
each technique's base figure):

- an *X-chain* is SE's chain of strong links for one value, rated by how many it has: 2
  (Turbot Fish, 4.0), 3 (5.4), 4 (5.8), 5 (6.2)... each 0.4 more; past that SE sees a
  forcing X-chain, 6.6 plus its length bonus, whichever is lower; an *X-cycle* the same,
  or a bidirectional X-cycle (6.5);
- an *ALS-XZ* where one set is a single bivalue cell is SE's wing of as many cells as the
  pair holds: WXYZ-Wing (4 cells, 5.5), VWXYZ-Wing (5 cells, 6.3); SE has no other ALS-XZ
  and finds it as a forcing chain (7.0 plus the length bonus of both sets' candidates);
- an *XY-chain* is a forcing Y-chain (6.6), a *W-Wing* a forcing chain of six candidates
  (7.0 + 0.1); an *AIC* or *continuous nice loop* is a forcing chain or bidirectional
  cycle (7.0; 6.6 and 6.5 when all its strong links are of one kind), plus the length
  bonus of its candidates.

SE's *length bonus* adds 0.1 for each of the ceilings 4, 6, 8, 12, 16, 24... that a chain's
length passes. A *trial* (the grader's trial and error) is rated like SE's Nishio forcing
chains, by the placements it needs.

:func:`cheapest` is how the logic engine applies that rule among the chain techniques
(``CHOSEN``): once one of them has a step, the others that could rate lower are asked too,
and the lowest-rated step is taken.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from solver.logic.techniques.base import Step

__all__ = [
    "CHOSEN",
    "RATINGS",
    "TRIAL_FREE_LENGTH",
    "cheapest",
    "length_bonus",
    "step_rating",
    "trial_rating",
]

RATINGS: dict[str, float] = {
    "full_house": 1.0,
    "hidden_single": 1.5,
    "naked_single": 2.3,
    "pointing": 2.6,
    "claiming": 2.8,
    "naked_pair": 3.0,
    "x_wing": 3.2,
    "hidden_pair": 3.4,
    "finned_x_wing": 3.4,
    "naked_triple": 3.6,
    "swordfish": 3.8,
    "hidden_triple": 4.0,
    "skyscraper": 4.0,
    "two_string_kite": 4.1,
    "finned_swordfish": 4.0,
    "xy_wing": 4.2,
    "empty_rectangle": 4.3,
    "xyz_wing": 4.4,
    "unique_rectangle_1": 4.5,
    "unique_rectangle_2": 4.6,
    "unique_rectangle_3": 4.6,
    "unique_rectangle_4": 4.6,
    "unique_rectangle_5": 4.6,
    "unique_rectangle_6": 4.6,
    "sue_de_coq": 4.8,
    "naked_quad": 5.0,
    "jellyfish": 5.2,
    "hidden_unique_rectangle": 5.2,
    "hidden_quad": 5.4,
    "simple_colouring": 5.35,
    "bug_plus_one": 5.6,
    "x_chain": 4.0,
    "x_cycle": 5.4,
    "als_xz": 4.6,
    "nice_loop": 6.5,
    "xy_chain": 6.6,
    "alternating_chain": 6.6,
    "w_wing": 7.1,
    "search": 7.5,
}
"""Each technique's rating on SE's scale: SE's own figure, or for a technique rated by its
instance (chains, loops, ALS-XZ) the lowest an instance can get."""

STRONG_LINKS_STEP = 0.4  # each strong link past three, in SE's chains of strong links
FORCING_X_CHAIN = 6.6
X_CYCLE = 6.5
FORCING_CHAIN = 7.0
ALS_WINGS = {3: 5.5, 4: 6.3}  # cells of the ALS beside the bivalue cell -> SE's wing
LENGTH_FREE = 4
TRIAL_FREE_LENGTH = 2

CHOSEN = (
    "bug_plus_one",
    "x_cycle",
    "x_chain",
    "w_wing",
    "xy_chain",
    "als_xz",
    "nice_loop",
    "alternating_chain",
)
"""The techniques among which the engine takes the lowest-rated step (see the docstring).
Simple colouring stays out: SE sees a colour trap as the X-chain it hides, which our rating
of the whole cluster overrates, so the X-chain finder would nearly always replace it."""


def length_bonus(length: int, free: int = LENGTH_FREE) -> float:
    """SE's length bonus: 0.1 for each of the ceilings free, x1.5, x4/3, x1.5... passed."""
    bonus, ceiling, odd = 0.0, free, False
    while length > ceiling:
        bonus += 0.1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return round(bonus, 1)


def _strong_links(links: int) -> float:
    if links <= 2:
        return RATINGS["x_chain"]
    return 5.4 + STRONG_LINKS_STEP * (links - 3)


def _mixed(links: Iterable[tuple[tuple[int, int], tuple[int, int]]]) -> tuple[bool, bool]:
    """(some strong link joins two values of a cell, some joins one value in two cells)."""
    kinds = {a[0] == b[0] for a, b in links}
    return True in kinds, False in kinds


def step_rating(step: Step) -> float:
    """The step's rating on SE's scale (see the module docstring)."""
    slug = step.technique
    params = dict(step.params)
    if slug in ("x_chain", "x_cycle"):
        length = len(params["path"])
        other = FORCING_X_CHAIN if slug == "x_chain" else X_CYCLE
        return round(min(_strong_links(length // 2), other + length_bonus(length)), 2)
    if slug == "xy_chain":
        return RATINGS[slug] + length_bonus(2 * len(params["path"]))
    if slug in ("alternating_chain", "nice_loop"):
        chain = params["chain"]
        if slug == "alternating_chain":
            cell_link, unit_link = _mixed(zip(chain[::2], chain[1::2], strict=False))
            base = FORCING_CHAIN if cell_link and unit_link else FORCING_X_CHAIN
        else:
            cell_link, unit_link = _mixed(zip(chain, chain[1:] + chain[:1], strict=True))
            base = FORCING_CHAIN if cell_link and unit_link else X_CYCLE
        return round(base + length_bonus(len(chain)), 2)
    if slug == "als_xz":
        small, big = sorted((len(params["first_cells"]), len(params["second_cells"])))
        if small == 1:
            return ALS_WINGS.get(big, RATINGS[slug])
        return round(FORCING_CHAIN + length_bonus(2 * (small + big)), 2)
    if slug == "simple_colouring":
        return round(RATINGS[slug] + length_bonus(len(step.cells)), 2)
    if slug == "search":
        return trial_rating(int(params.get("count", 0)))
    return RATINGS[slug]


def trial_rating(length: int) -> float:
    """A trial's rating: SE's Nishio figure plus the length bonus of its placements."""
    return round(RATINGS["search"] + length_bonus(length, TRIAL_FREE_LENGTH), 2)


def _floor(slug: str) -> float:
    return RATINGS[slug]


def cheapest(
    first: Step, others: Iterable[tuple[str, Callable[[], Step | None]]]
) -> tuple[Step, int]:
    """The lowest-rated step among ``first`` and the first step of each of ``others``
    (slug, finder) whose technique could rate lower, and how many finders were asked."""
    best, rating, asked = first, step_rating(first), 0
    for slug, find in sorted(others, key=lambda o: _floor(o[0])):
        if _floor(slug) >= rating:
            break
        asked += 1
        step = find()
        if step is not None:
            r = step_rating(step)
            if r < rating:
                best, rating = step, r
    return best, asked
