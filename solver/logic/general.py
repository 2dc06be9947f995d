"""The logic engine on any :class:`~solver.rules.ruleset.Rules`: techniques over houses and cages.

Every technique here iterates houses (rows, columns, regions, diagonals, windows) from
:func:`solver.rules.ruleset.layout`, never a variant's name, so Diagonal, Jigsaw and Killer use
the same code: a *locked candidate* is any house whose positions for a value lie inside
another house (a box and a line, but also a diagonal and a box, or an irregular region
and a row). Killer adds three techniques:

- **cage combination**: the sets of different values with the cage's sum that its cells
  can still hold (by an exact search over the cage's few cells); values no such set
  assigns to a cell leave it;
- **cage-house interaction**: a value every remaining set holds must go in the cage; when
  the cells that may take it share a house, the rest of the house loses it;
- **45 rule** (innies and outies, :mod:`solver.logic.innies`): a house, a run of
  neighbouring rows or columns, or two or three neighbouring regions, sums
  to k * N(N+1)/2; the cages wholly inside account for part of it, so the cells left
  inside (innies), or the cells of the crossing cages left outside (outies), add up to a
  known sum: one such cell is placed, two or three lose the values that cannot make it.

From Skyscraper on, the harder techniques are the classic engine's own finders run on the
houses (:mod:`solver.logic.classic_on_houses`): strong links come from houses only, since a cage
need not hold every value, and weak links from every peer, cage mates included. The
techniques that rest on uniqueness (unique rectangles, BUG) are not used: a cage or an
extra house can break the deadly pattern they assume. A step reads like the classic
engine's (:mod:`solver.logic.sentences`) and a house's unit number names it there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

from solver.grid import Grid
from solver.logic.cages import cage_combinations, cage_houses
from solver.logic.classic_on_houses import on_houses
from solver.logic.constraint_steps import constraint_steps
from solver.logic.houses import (
    VBoard,
    full_houses,
    hidden_singles,
    hidden_subsets,
    locked,
    naked_singles,
    naked_subsets,
    x_wings,
)
from solver.logic.innies import innies_outies
from solver.logic.killer_combinations import house_combinations
from solver.logic.killer_sums import cage_splits, hidden_cages, innies_outies_large, killer_subsets
from solver.logic.techniques import als, chains, fish, loops, wings
from solver.logic.techniques.base import Step
from solver.rules.ruleset import Rules

LEVELS = ("easy", "medium", "hard", "expert", "master")
Finder = Callable[[VBoard], Iterator[Step]]


@dataclass(frozen=True, slots=True)
class VariantTechnique:
    slug: str
    name: str
    level: str
    find: Finder


ORDER: tuple[VariantTechnique, ...] = (
    VariantTechnique("full_house", "Full House", "easy", full_houses),
    VariantTechnique("naked_single", "Naked Single", "easy", naked_singles),
    VariantTechnique("hidden_single", "Hidden Single", "easy", hidden_singles),
    VariantTechnique("constraint", "Constraint", "easy", constraint_steps),
    VariantTechnique("cage_combination", "Cage Combination", "easy", cage_combinations),
    VariantTechnique("pointing", "Pointing", "medium", partial(locked, pointing=True)),
    VariantTechnique("claiming", "Claiming", "medium", partial(locked, pointing=False)),
    VariantTechnique("innies_outies", "45 Rule", "medium", innies_outies),
    VariantTechnique("cage_house", "Cage-House Interaction", "medium", cage_houses),
    VariantTechnique("killer_pair", "Killer Pair", "medium", partial(killer_subsets, k=2)),
    VariantTechnique("naked_pair", "Naked Pair", "medium", partial(naked_subsets, k=2)),
    VariantTechnique("hidden_pair", "Hidden Pair", "medium", partial(hidden_subsets, k=2)),
    VariantTechnique("naked_triple", "Naked Triple", "medium", partial(naked_subsets, k=3)),
    VariantTechnique("x_wing", "X-Wing", "medium", partial(x_wings, k=2)),
    VariantTechnique("innies_outies_large", "45 Rule (Many Cells)", "hard", innies_outies_large),
    VariantTechnique("cage_split", "Cage Splitting", "hard", cage_splits),
    VariantTechnique("hidden_cage", "Hidden Cage", "hard", hidden_cages),
    VariantTechnique("killer_triple", "Killer Triple", "hard", partial(killer_subsets, k=3)),
    VariantTechnique("hidden_triple", "Hidden Triple", "hard", partial(hidden_subsets, k=3)),
    VariantTechnique("naked_quad", "Naked Quad", "hard", partial(naked_subsets, k=4)),
    VariantTechnique("hidden_quad", "Hidden Quad", "hard", partial(hidden_subsets, k=4)),
    # From here on the classic's own finders, on the houses and peers
    # (solver.logic.classic_on_houses)
    VariantTechnique("skyscraper", "Skyscraper", "hard", on_houses(fish.skyscrapers)),
    VariantTechnique("two_string_kite", "2-String Kite", "hard", on_houses(fish.two_string_kites)),
    VariantTechnique(
        "finned_x_wing", "Finned X-Wing", "hard", on_houses(partial(fish.finned_fish, k=2))
    ),
    VariantTechnique("swordfish", "Swordfish", "hard", partial(x_wings, k=3)),
    VariantTechnique("xy_wing", "XY-Wing", "hard", on_houses(wings.xy_wings)),
    VariantTechnique("xyz_wing", "XYZ-Wing", "hard", on_houses(wings.xyz_wings)),
    VariantTechnique(
        "finned_swordfish", "Finned Swordfish", "hard", on_houses(partial(fish.finned_fish, k=3))
    ),
    VariantTechnique(
        "empty_rectangle", "Empty Rectangle", "hard", on_houses(fish.empty_rectangles)
    ),
    VariantTechnique("jellyfish", "Jellyfish", "hard", on_houses(partial(fish.fish, k=4))),
    VariantTechnique("sue_de_coq", "Sue de Coq", "hard", on_houses(als.sue_de_coq)),
    VariantTechnique("house_combination", "House Combinations", "expert", house_combinations),
    VariantTechnique(
        "simple_colouring", "Simple Colouring", "expert", on_houses(chains.simple_colourings)
    ),
    VariantTechnique("x_cycle", "X-Cycle", "expert", on_houses(loops.x_cycles)),
    VariantTechnique("x_chain", "X-Chain", "expert", on_houses(chains.x_chains)),
    VariantTechnique("w_wing", "W-Wing", "expert", on_houses(wings.w_wings)),
    VariantTechnique("xy_chain", "XY-Chain", "expert", on_houses(chains.xy_chains)),
    VariantTechnique("als_xz", "ALS-XZ", "expert", on_houses(als.als_xz)),
    VariantTechnique("nice_loop", "Continuous Nice Loop", "expert", on_houses(loops.nice_loops)),
    VariantTechnique(
        "alternating_chain",
        "Alternating Inference Chain",
        "expert",
        on_houses(chains.alternating_chains),
    ),
)
"""The classic's order and levels (docs/solver.md) for every technique but those resting
on uniqueness, with Killer's own placed among them; a puzzle these cannot finish needs
trial, is ``master`` here and is offered as expert."""
BY_SLUG = {t.slug: t for t in ORDER}
KILLER_ONLY = (
    "cage_combination",
    "innies_outies",
    "cage_house",
    "killer_pair",
    "innies_outies_large",
    "cage_split",
    "hidden_cage",
    "killer_triple",
    "house_combination",
)
"""The techniques that read cages, left out for rules without any."""
SINGLES = ("full_house", "naked_single", "hidden_single")


@dataclass(frozen=True, slots=True)
class VariantLogicResult:
    """What :func:`variant_logic_solve` reached: the steps, whether it finished, the grid."""

    steps: list[Step]
    solved: bool
    grid: Grid
    hardest: str | None = None
    level: str = "master"
    techniques: dict[str, int] = field(default_factory=dict)


def techniques_for(rules: Rules, max_level: str | None = None) -> tuple[VariantTechnique, ...]:
    """The techniques that apply to ``rules`` up to ``max_level`` (None: all), in order."""
    top = LEVELS.index(max_level) if max_level is not None else len(LEVELS)
    killer = bool(rules.cages)
    return tuple(
        t
        for t in ORDER
        if LEVELS.index(t.level) <= top
        and (killer or t.slug not in KILLER_ONLY)
        and (rules.constraints or t.slug != "constraint")
    )


def variant_logic_solve(
    rules: Rules,
    grid: Grid,
    *,
    max_level: str | None = None,
    max_steps: int = 2000,
    explain: bool = True,
) -> VariantLogicResult:
    """Solve ``grid`` under ``rules`` step by step, easiest technique first.

    Stops when solved, when no technique up to ``max_level`` applies, or on a
    contradiction. ``level`` is the level of the hardest technique used (``master`` when
    the techniques could not finish). Singles are taken in batches: every single one scan
    finds is its own step. ``explain=False`` leaves the sentences out (for the generator,
    which only asks whether the puzzle is solved)."""
    board = VBoard.from_grid(rules, grid)
    if board is None:
        return VariantLogicResult([], False, grid)
    board.explain = explain
    order = techniques_for(rules, max_level)
    steps: list[Step] = []
    used: dict[str, int] = {}
    top = -1
    hardest = None
    while not board.is_solved() and len(steps) < max_steps:
        found = _first_step(board, order)
        if found is None:
            break
        index, step = found
        slug = order[index].slug
        batch = list(order[index].find(board)) if slug in SINGLES else [step]
        for step in batch:
            cell, value = step.placements[0] if step.placements else (0, 0)
            if slug in SINGLES and (board.values[cell] or not board.cand[cell] >> (value - 1) & 1):
                continue  # an earlier single of the batch took its place
            if not board.apply(step):
                return VariantLogicResult(steps, False, board.grid(), hardest, "master", used)
            steps.append(step)
            used[slug] = used.get(slug, 0) + 1
        if index > top:
            top, hardest = index, slug
    solved = board.is_solved()
    level = "master"
    if solved:
        level = order[top].level if top >= 0 else "easy"
    return VariantLogicResult(steps, solved, board.grid(), hardest, level, used)


def _first_step(board: VBoard, order: tuple[VariantTechnique, ...]) -> tuple[int, Step] | None:
    for i, tech in enumerate(order):
        step = next(tech.find(board), None)
        if step is not None:
            return i, step
    return None


def variant_next_step(rules: Rules, grid: Grid) -> Step | None:
    """The easiest step from ``grid`` (givens plus entries), or None when none applies."""
    board = VBoard.from_grid(rules, grid)
    if board is None or board.is_solved():
        return None
    for tech in techniques_for(rules):
        step = next(tech.find(board), None)
        if step is not None:
            return step
    return None


def candidates(rules: Rules, grid: Grid) -> list[int] | None:
    """Per cell its candidate mask from the houses and cages (0 for a filled cell)."""
    board = VBoard.from_grid(rules, grid)
    return None if board is None else board.cand[:]


__all__ = [
    "BY_SLUG",
    "LEVELS",
    "ORDER",
    "VariantLogicResult",
    "VariantTechnique",
    "candidates",
    "techniques_for",
    "variant_logic_solve",
    "variant_next_step",
]
