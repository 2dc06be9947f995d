"""Generation of Diagonal, Jigsaw and Killer puzzles at a level, from a seed.

- **Diagonal**: a random grid that obeys the diagonals, then clues dug as for the classic.
- **Jigsaw**: regions drawn at random (:func:`random_regions`: the boxes, then cells swapped
  between neighbouring regions while both stay connected), checked to admit a filled grid
  (a random fill within a node budget; a layout that fails is drawn again), then dug.
- **Killer**: a random classic grid, cages drawn over it (:func:`draw_cages`: connected
  cells, mostly 2 to 5, no value twice), refined where two solutions differ until one
  remains, then merged (harder), split (easier) or a cell shifted between two cages
  towards the level (:func:`_to_level`);
  hard and up have no givens, easy and medium take givens where the logic stalls.

Diagonal and Jigsaw are dug as :mod:`solver.generation.general_dig` says. The level is the variant
logic's (:func:`solver.logic.general.variant_logic_solve`); Killer's expert is the level
with no givens (and more than singles and cage combinations needed), found by
:func:`solver.generation.general_dig.logic_level` (the same steps, none written) with only the
techniques that can tell whether an attempt is at the asked level (:func:`_cap`); a
Killer that passes them is graded in full for its hardest technique.
Every answer is a pure function of the arguments.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from solver.generation.classic_dig import SYMMETRIES, orbits
from solver.generation.general_dig import dig, logic_level, singles_solve
from solver.generation.jigsaw_regions import neighbours, random_regions
from solver.generation.killer_cages import (
    Move,
    Swap,
    line_swaps,
    merges,
    open_swap,
    refine_cages,
    shifts,
    swapped,
    value_swaps,
)
from solver.grid import BudgetExceeded, Grid, Shape
from solver.logic.general import LEVELS, variant_logic_solve
from solver.logic.houses import VBoard
from solver.rules.ruleset import VARIANTS, Cage, Rules, layout
from solver.search.exact import (
    candidate_solutions,
    random_solution,
    solutions,
)

GENERATED_LEVELS = ("easy", "medium", "hard", "expert", "master")
FILL_TRIES = 10
"""Random fills of a Jigsaw layout, a node per cell each, before the layout is dropped:
how long a random fill takes varies widely, so many short tries find one sooner than a
few long ones (9x9: 90% of layouts filled in 2.4 ms, against 78% in 3.3 ms with three
tries of four nodes per cell)."""
REFINE_BUDGET = 120
"""Nodes the search for a second solution may take while a Killer's cages are refined
(:func:`~solver.generation.killer_cages.refine_cages`); past it a large cage is split.
Splitting early costs less than searching long: with :data:`MAX_MOVES` at 30 (from
16), 9x9 medium 1.39x, hard 1.32x and expert 1.48x the puzzles per CPU second of a budget
of 300 (same process, interleaved, 16-60 seeds)."""
BIG_CAGES = 7
"""Cages of four cells or more (at 9x9; in proportion at other sizes) from which a Killer's
cages are split without a search while they are refined: with that many, the search ran
out of its :data:`REFINE_BUDGET` 85% of the time (9x9 expert) and a big cage was split
anyway. 9x9 expert 1.18x, master 1.12x the puzzles per CPU second (5 and 9: 1.15x and
1.05x)."""
PROOF_BUDGET = 3000
"""Nodes the search from the board where every technique stalls may take to prove that a
master Killer's merge has one solution (:func:`_merge_level`): there the board is at its
smallest, and 3000 nodes made 1.16x the puzzles of 1000 (10,000 no more than 3000)."""
STALL_BUDGET = 300
"""Nodes the search from the logic's board may take where a merge's techniques up to hard
stall: for expert, to find a second solution (:func:`_worth_the_expert_techniques`); for
master, to settle one or two (:func:`_merge_level`)."""
EXPERT_CANDIDATES = 0.7
"""The share of its candidates a Killer's board may keep where the techniques up to hard
stall for a merge to be graded on with the expert techniques: none of 30 9x9 experts
made kept more than 0.69, and 37 of 59 merges past expert did (0.70 to 0.88), each
costing the expert techniques 45 ms on average to give up."""
MAX_ATTEMPTS = 400
MAX_REFINES = 40
"""Changes to a cage set (:func:`refine_cages`) before it is drawn again."""
MAX_MOVES = 30
"""Cage merges kept (:func:`~solver.generation.killer_cages.merges`: harder) and splits
(easier) made to bring a cage set to its level."""
MAX_REJECTS = 8
"""Merges past the level tried from one cage set before the attempt is dropped: from
some sets every merge goes past it, and a new draw costs less than trying them all."""
LARGER_MERGES = {"hard": 6, "expert": 6, "master": 6}
"""Cells a merged cage may have at these levels once every merge of five or fewer is past
the level: a cage of six now and then (2% of 9x9 expert cages) saves the attempts whose
merges run out (9x9 expert 1.10x and hard 1.11x the puzzles per CPU second)."""
MAX_SHIFTS = 8
"""Cells moved to a neighbouring cage (:func:`~solver.generation.killer_cages.shifts`) tried
when no merge is left, each kept only when it lands at the level (9x9 expert 1.15x and hard
1.06x the puzzles per CPU second; kept when it only stays below the level, 0.8x)."""
MAX_EASING_GIVENS = 12
"""Givens an easy or medium Killer may be given to bring it down to its level."""
CAGE_SIZES = {
    "easy": (2, 2, 2, 2, 3, 3, 3, 3, 3, 4),
    "medium": (2, 2, 2, 3, 3, 3, 3, 4),
    "hard": (2, 2, 3, 3, 3, 4, 4),
    "expert": (2, 3, 3, 3, 4, 4, 5),
    "master": (2, 3, 3, 4, 4, 5),
}
"""The cage sizes drawn per level: mostly 2 to 4 cells, as printed Killers have. A cage of
one cell (a given in all but name) is never drawn; at easy, a cell left alone by the cages
around it may stay one."""
GIVENS_FREE = ("hard", "expert", "master")
"""The Killer levels made without givens, as enthusiasts expect of them; easy and medium
take givens when their cages alone grade harder."""


def supported_variant_levels(variant: str, size: int) -> tuple[str, ...]:
    """The levels :func:`generate_variant` offers for ``variant`` at ``size``: every one at
    9x9 and 8x8; at 6x6 every one but master for Diagonal and Jigsaw, and Killer's up to
    hard (givens-free 6x6 cages the techniques cannot finish are rare); 4x4 is easy."""
    if size == 4:
        return ("easy",)
    if size == 6:
        return GENERATED_LEVELS[:3] if variant == "killer" else GENERATED_LEVELS[:4]
    return GENERATED_LEVELS


class VariantGenerationFailed(RuntimeError):
    """No attempt reached the asked level (rare; another seed will do)."""


@dataclass(frozen=True, slots=True)
class VariantGenerated:
    """A generated variant puzzle: its rules, givens, solution and level."""

    rules: Rules
    puzzle: Grid
    solution: Grid
    level: str
    hardest: str | None
    seed: int | str
    attempts: int = field(default=1, compare=False)
    searches: int = field(default=0, compare=False)
    symmetry: str = "none"


def generate_variant(
    variant: str,
    size: int = 9,
    *,
    level: str | None = None,
    seed: int | str = 0,
    stop: Callable[[], bool] | None = None,
    symmetry: str | None = None,
) -> VariantGenerated:
    """A ``variant`` puzzle (``diagonal``, ``jigsaw``, ``killer``) with exactly one solution,
    graded by the full variant logic at ``level`` (None: whatever the first attempt makes).

    ``symmetry`` (Diagonal and Jigsaw: one of ``SYMMETRIES``, rotational by default) is the
    pattern of the givens; a Killer's givens, when it has any, follow none. Raises
    ValueError for an unknown variant, size, level or symmetry,
    :class:`VariantGenerationFailed` when no attempt reached the level, or when ``stop``
    answers True before an attempt (the first attempt is always made: a caller with a time
    budget finishes the attempt under way)."""
    if variant not in VARIANTS or variant == "classic":
        raise ValueError(f"unknown variant {variant!r}: use diagonal, jigsaw or killer")
    if size not in (4, 6, 8, 9):
        raise ValueError(f"{variant} puzzles are made in 4x4, 6x6, 8x8 and 9x9, not {size}")
    if level is not None and level not in GENERATED_LEVELS:
        raise ValueError(f"unknown level {level!r}: use one of {', '.join(GENERATED_LEVELS)}")
    if level is not None and level not in supported_variant_levels(variant, size):
        offered = ", ".join(supported_variant_levels(variant, size))
        raise ValueError(f"{variant} {size}x{size} puzzles reach only {offered}")
    if symmetry is None:
        symmetry = "none" if variant == "killer" else "rotational"
    if symmetry not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}: use one of {', '.join(SYMMETRIES)}")
    shape = Shape.for_size(size)
    searches = 0
    for attempt in range(1, MAX_ATTEMPTS + 1):
        if stop is not None and attempt > 1 and stop():
            raise VariantGenerationFailed(f"stopped after {attempt - 1} attempts for {seed!r}")
        rng = random.Random(f"{variant}:{size}:{level}:{symmetry}:{seed}:{attempt}")
        if variant == "killer":
            made = _killer(shape, level, rng)
            if made is None:
                continue
            rules, puzzle, solution, n_searches, graded = made
            symmetry_made = "none"
        else:
            drawn = _rules_and_fill(variant, shape, rng)
            if drawn is None:
                continue
            rules, solution = drawn
            puzzle, n_searches = dig(rules, solution, rng, level, orbits(shape, symmetry))
            symmetry_made = symmetry
            graded = None
        searches += n_searches
        rated, hardest = graded or graded_level(rules, puzzle, level)
        if level is None or rated == level:
            return VariantGenerated(
                rules, puzzle, solution, rated, hardest, seed, attempt, searches, symmetry_made
            )
    raise VariantGenerationFailed(
        f"no {level} {variant} {shape.label} puzzle in {MAX_ATTEMPTS} attempts for {seed!r}"
    )


def graded_level(
    rules: Rules,
    puzzle: Grid,
    level: str | None,
    past_hard: Callable[[VBoard], bool] | None = None,
) -> tuple[str, str | None]:
    """The full variant grader's level of ``puzzle`` and its hardest technique, found with no
    more techniques than it takes to tell whether it is at ``level``: the logic up to
    ``level`` takes the same steps as the full logic while they finish the puzzle, so
    when they do, that is the full grade; when they do not, it is past ``level``.
    ``past_hard``: see :func:`~solver.generation.general_dig.logic_level`. From hard up,
    the steps of the medium techniques are taken a scan at a time (``together``: the same
    level, and the same hardest technique, which is then past medium)."""
    if level in (None, "master"):
        return logic_level(rules, puzzle)
    together = "medium" if LEVELS.index(level) >= LEVELS.index("hard") else None
    found, hardest = logic_level(rules, puzzle, level, past_hard=past_hard, together=together)
    if found == "master":  # past the level: which level does not matter here
        return LEVELS[LEVELS.index(level) + 1], hardest
    return found, hardest


def _rules_and_fill(variant: str, shape: Shape, rng: random.Random) -> tuple[Rules, Grid] | None:
    """Rules for Diagonal or Jigsaw, and a random grid that obeys them (None: none found)."""
    if variant == "diagonal":
        rules = Rules.make(shape, diagonals=True)
        return rules, random_solution(shape, rng, rules=rules)
    rules = Rules.make(shape, regions=random_regions(shape, rng))
    if not rules.irregular:
        return None  # the swaps undid one another: the boxes, a classic layout
    for _ in range(FILL_TRIES):
        found = _fill(rules, rng, budget=shape.ncells)
        if found is not None:
            return rules, found
    return None  # this layout may admit no grid at all: draw another


def _fill(rules: Rules, rng: random.Random, budget: int) -> Grid | None:
    """A random grid obeying ``rules`` within ``budget`` nodes; None if none was found."""
    from solver.search.house_lanes import variant_lanes
    from solver.search.lanes import _grid_of, _search, _start

    lz = variant_lanes(rules)
    empty = Grid.empty(rules.shape)
    start = _start(empty, lz)
    if start is None:
        return None
    try:
        for board in _search(start, lz, budget, rng=rng):
            return _grid_of(rules.shape, board, lz)
    except BudgetExceeded:
        return None
    return None


# ---------------------------------------------------------------------------------------
# Killer


def draw_cages(
    solution: Grid, rng: random.Random, sizes: tuple[int, ...], *, ones: bool = True
) -> tuple[Cage, ...] | None:
    """Cages over ``solution``: from each uncaged cell in a random order, a cage grown to a
    size drawn from ``sizes`` by adding neighbours whose value it does not hold yet.

    A cage left with one cell where none was drawn (its neighbours all taken) joins a
    neighbouring cage that lacks its value; ``ones`` False: a cage of one cell is never
    kept (None when one cannot join any)."""
    n = solution.size
    sol = solution.cells
    cage_of = [-1] * len(sol)
    cages: list[list[int]] = []
    order = list(range(len(sol)))
    rng.shuffle(order)
    lone = []
    for start in order:
        if cage_of[start] >= 0:
            continue
        target = rng.choice(sizes)
        cells = [start]
        held = 1 << sol[start]
        cage_of[start] = len(cages)
        while len(cells) < target:
            options = sorted(
                {
                    d
                    for c in cells
                    for d in neighbours(c, n)
                    if cage_of[d] < 0 and not held >> sol[d] & 1
                }
            )
            if not options:
                break
            d = rng.choice(options)
            cells.append(d)
            held |= 1 << sol[d]
            cage_of[d] = len(cages)
        if len(cells) == 1 and target > 1:
            lone.append(len(cages))
        cages.append(cells)
    for i in lone:
        (c,) = cages[i]
        joins = sorted(
            {
                cage_of[d]
                for d in neighbours(c, n)
                if 1 < len(cages[cage_of[d]]) < max(sizes)
                and all(sol[e] != sol[c] for e in cages[cage_of[d]])
            }
        )
        if joins:
            j = min(joins, key=lambda j: (len(cages[j]), j))
            cages[j].append(c)
            cages[i] = []
            cage_of[c] = j
    if not ones and any(len(c) == 1 for c in cages):
        return None
    return tuple(Cage(tuple(sorted(c)), sum(sol[x] for x in c)) for c in cages if c)


def _killer(
    shape: Shape, level: str | None, rng: random.Random
) -> tuple[Rules, Grid, Grid, int, tuple[str, str | None] | None] | None:
    """One Killer attempt: rules, givens, solution, searches and the level with the hardest
    technique when they are known already (no givens); None when the cages drawn do not
    make the level. The cages are refined until they alone have one solution
    (:func:`solver.generation.killer_cages.refine_cages`, where a second solution differs:
    one that two values trading places gives, found without a search, else a search's;
    9x9 hard 1.4x and expert 1.4x the puzzles per CPU second), then brought to the level by
    :func:`_to_level`; easy and medium then take givens where the logic up to the level
    stalls, until it finishes the puzzle."""
    solution = random_solution(shape, rng)
    cages = draw_cages(solution, rng, CAGE_SIZES[level or "medium"], ones=level == "easy")
    if cages is None:
        return None
    searches = 0
    empty = Grid.empty(shape)
    houses = layout(Rules.make(shape)).houses
    swaps = value_swaps(solution, houses)
    big_enough = BIG_CAGES * shape.ncells // 81
    for _ in range(MAX_REFINES):
        rules = Rules.make(shape, cages=cages)
        swap = open_swap(cages, solution, swaps)
        if swap is not None:
            other: Grid | None = swapped(solution, swap)  # a second solution, no search
        elif sum(len(cage.cells) >= 4 for cage in cages) >= big_enough:
            other = None  # a search would most likely run out: split a big cage now
        else:
            searches += 1
            try:
                found = solutions(empty, limit=2, rules=rules, budget=REFINE_BUDGET)
            except BudgetExceeded:
                found = []  # cages that take long to prove: split one
            if len(found) == 1:
                break
            other = (found[0] if found[0] != solution else found[1]) if found else None
        refined = refine_cages(cages, solution, other, rng)
        if refined is None:
            return None
        cages = refined
    else:
        return None
    cells = [0] * shape.ncells
    if level is None:
        return rules, Grid(shape, tuple(cells)), solution, searches, None
    more_swaps = swaps + line_swaps(solution, houses)  # what merges may open as well
    reached = _to_level(shape, cages, solution, more_swaps, level, rng)
    if reached is None:
        return None
    rules, graded, more = reached
    searches += more
    if graded[0] == level:
        return rules, Grid(shape, tuple(cells)), solution, searches, graded
    if level in GIVENS_FREE:
        return None
    for _ in range(MAX_EASING_GIVENS):
        result = variant_logic_solve(
            rules, Grid(shape, tuple(cells)), max_level=level, explain=False
        )
        if result.solved:
            return rules, Grid(shape, tuple(cells)), solution, searches, None
        stalled = [c for c in range(shape.ncells) if not result.grid.cells[c]]
        c = rng.choice(stalled)
        cells[c] = solution.cells[c]
    return None


def _to_level(
    shape: Shape,
    cages: tuple[Cage, ...],
    solution: Grid,
    swaps: tuple[Swap, ...],
    level: str,
    rng: random.Random,
) -> tuple[Rules, tuple[str, str | None], int] | None:
    """Cages with one solution (a search said so) brought to ``level`` by merges (harder)
    and splits (easier): the rules, their level and hardest technique, the searches made;
    None when the moves run out. Past the level, easy and medium stop there (givens bring
    them down).

    The logic is the proof of one solution: cages it finishes have one, so a merge it
    finishes at the level or below needs no search, and one past the level (or with more
    solutions) is taken back (:func:`_merge_level`). Only master, which the logic never
    finishes, rests on a search. A merge that went past is not tried again after later
    merges (fewer sums do not bring it back), and one that lets two values trade places
    (:func:`~solver.generation.killer_cages.open_swap`: a second solution) is not graded
    (9x9 hard 1.20x and expert 1.18x the puzzles per CPU second, the same puzzles; two
    lines trading values, 1.03x more; refining by those made it 0.8x, so refining looks
    at two values trading only). From a cage set whose merges all go past the level, or
    where none is left, a few shifts of a cell are tried (:func:`_harder`) before the
    attempt is dropped."""
    empty = Grid.empty(shape)
    top = LEVELS.index(level)
    rules = Rules.make(shape, cages=cages)
    graded = graded_level(rules, empty, level)
    searches = 0
    past: set[Move] = set()  # merges that went past the level: fewer sums do not undo it
    for _ in range(MAX_MOVES):
        if graded[0] == level:
            break
        if LEVELS.index(graded[0]) > top:
            if level not in GIVENS_FREE:
                break  # too hard: givens bring easy and medium down below
            # too hard as drawn: a cage split in two (one more sum)
            split = refine_cages(cages, solution, None, rng)
            if split is None:
                return None
            cages = split
            past.clear()  # one more sum: what went past may not now
            rules = Rules.make(shape, cages=cages)
            graded = graded_level(rules, empty, level)
            continue
        moved = _harder(shape, cages, solution, swaps, level, rng, past)
        if moved is None:
            break
        cages, rules, graded, graded_count = moved
        searches += graded_count if level == "master" else 0
    return rules, graded, searches


def _harder(
    shape: Shape,
    cages: tuple[Cage, ...],
    solution: Grid,
    swaps: tuple[Swap, ...],
    level: str,
    rng: random.Random,
    past: set[Move],
) -> tuple[tuple[Cage, ...], Rules, tuple[str, str | None], int] | None:
    """The next cage set on the way up to ``level``, with its rules, level and
    the merges and shifts graded: a merge the logic still finishes at ``level`` or below
    (after :data:`MAX_REJECTS` past it, or none left, no merge); else a cell shifted to a
    neighbouring cage (:data:`MAX_SHIFTS` tries), kept when it lands at ``level``.
    None: neither."""
    top = LEVELS.index(level)
    graded_count = 0
    for merge, merged in _merges(cages, solution, level, rng, past):
        if _opens_a_swap(merged, merge, solution, swaps):
            past.add(merge)
            continue
        if graded_count == MAX_REJECTS:
            break  # the merges here all go past the level
        graded_count += 1
        rules = Rules.make(shape, cages=merged)
        found = _merge_level(rules, level)
        if found is None or LEVELS.index(found[0]) > top:
            past.add(merge)  # past the level, or more than one solution: another merge
            continue
        return merged, rules, found, graded_count
    for tried, (move, moved) in enumerate(shifts(cages, solution, rng)):
        if tried == MAX_SHIFTS:
            break
        if _opens_a_swap(moved, move, solution, swaps):
            continue
        graded_count += 1
        rules = Rules.make(shape, cages=moved)
        found = _merge_level(rules, level)
        if found is not None and found[0] == level:
            return moved, rules, found, graded_count
    return None


def _opens_a_swap(
    cages: tuple[Cage, ...], move: Move, solution: Grid, swaps: tuple[Swap, ...]
) -> bool:
    """True when the cages a ``move`` made let a swap of ``swaps`` through (a second
    solution, so past any level): only swaps meeting the cages it changed can."""
    return open_swap(cages, solution, swaps, {c for cells in move for c in cells}) is not None


def _merges(
    cages: tuple[Cage, ...], solution: Grid, level: str, rng: random.Random, past: set[Move]
) -> Iterator[tuple[Move, tuple[Cage, ...]]]:
    """The merges :func:`_to_level` tries: of five cells at most, then at the levels of
    :data:`LARGER_MERGES`, once those are all past, larger."""
    yield from merges(cages, solution, rng, skip=past)
    if level in LARGER_MERGES:
        yield from merges(cages, solution, rng, skip=past, largest=LARGER_MERGES[level])


def _merge_level(rules: Rules, level: str) -> tuple[str, str | None] | None:
    """The level and hardest technique of merged cages, None when they have more than one
    solution (or none was proved). Up to expert the logic up to ``level`` answers (what it
    cannot finish is past the level or ambiguous alike). For master the logic comes
    first, and a search from its candidates where the techniques up to hard stall: from
    there it settles in :data:`STALL_BUDGET` nodes what from the empty grid it mostly
    could not (9x9: 386 of 637 searches a puzzle ran out; 0.07 to 0.39 puzzles per CPU
    second on the same seeds). What it leaves open, a search where every technique
    stalls settles within :data:`PROOF_BUDGET` (1.34x the puzzles again)."""
    empty = Grid.empty(rules.shape)
    if level != "master":
        return graded_level(rules, empty, level, past_hard=_worth_the_expert_techniques)
    at_stall: list[list[Grid] | None] = []  # what the search where hard stalls found

    def search_at_stall(board: VBoard) -> bool:
        at_stall.append(_board_solutions(board, STALL_BUDGET))
        return at_stall[0] is None or len(at_stall[0]) < 2

    at_end: list[VBoard] = []  # the board where every technique stalls: the smallest
    found = logic_level(rules, empty, past_hard=search_at_stall, stalled=at_end.append)
    if found[0] != "master":
        return found  # finished by the logic: one solution
    proof = at_stall[0] if at_stall and at_stall[0] is not None else None
    if proof is None:  # the search where hard stalled ran out: again, from the end
        proof = _board_solutions(at_end[0], PROOF_BUDGET)
    return found if proof is not None and len(proof) == 1 else None


def _board_solutions(board: VBoard, budget: int) -> list[Grid] | None:
    """Up to two solutions of the logic's ``board``; None past ``budget`` nodes."""
    try:
        return candidate_solutions(board.rules, board.values, board.cand, limit=2, budget=budget)
    except BudgetExceeded:
        return None


def _worth_the_expert_techniques(board: VBoard) -> bool:
    """False when the logic's ``board``, where the techniques up to hard stall, keeps more
    than :data:`EXPERT_CANDIDATES` of its candidates (the expert techniques rarely finish
    such a board and take longest to say so), or has a second solution (found within
    :data:`STALL_BUDGET` nodes: they cannot finish it, and a search from what the easier
    ones found says so sooner than they do)."""
    left = sum(m.bit_count() for m in board.cand)
    if left > EXPERT_CANDIDATES * board.rules.shape.ncells * board.n:
        return False
    found = _board_solutions(board, STALL_BUDGET)
    return found is None or len(found) < 2


__all__ = [
    "GENERATED_LEVELS",
    "LEVELS",
    "VariantGenerated",
    "VariantGenerationFailed",
    "draw_cages",
    "generate_variant",
    "graded_level",
    "random_regions",
    "singles_solve",
    "supported_variant_levels",
]
