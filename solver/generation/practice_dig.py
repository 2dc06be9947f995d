"""Digging a puzzle whose logic solution needs one chosen technique, from scratch.

An attempt of :func:`dig_requiring` draws a solution from the seed and digs it with the
technique T's level as the ceiling, remembering any puzzle on the way whose solution uses T.
Most digs meet none; after the first :data:`DIG_FIRST` attempts (fresh digs are cheap, and
enough for a technique that seldom hides behind an earlier one), such an attempt then
*walks* (:func:`_walk`): a step takes out a given and puts back givens until the puzzle
again has one solution within the ceiling, and keeps the new puzzle when it still needs T's
level and is no further from needing T. How far is measured by the *rivals* of T
(:func:`logic_path`): where T applies on the engine's way, how many earlier techniques
apply too (the engine takes the first). The walk is a climb towards no rival at all; it
stops after :data:`WALK_PATIENCE` steps that come no nearer. A step costs a search or two
and a logic solve, where a dig pays dozens of searches for one or two puzzles at the level.
Attempts are bounded (:func:`require_attempts`); then
:class:`~solver.generation.classic.GenerationFailed`.

Some patterns hide behind a smaller one unless some cells stay open, so the attempt keeps
them open (:func:`_kept_open`): a whole unit for the quads, every cell of one value for a
Jellyfish and the single-value chains, a rectangle's corners for Unique Rectangles Types 5
and 6, a box for a naked pair on 6x6.

The logic solves here place singles without making steps (:func:`logic_path`): the same way
through as the engine's, for a fraction of the cost.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from solver.generation.classic_dig import (
    Generated,
    GenerationFailed,
    _Digger,
    _search_budget,
    orbits,
)
from solver.grid import BudgetExceeded, Grid, Shape, tables
from solver.logic.classic import harder_step, techniques_up_to
from solver.logic.grade import grade
from solver.logic.rating import CHOSEN
from solver.logic.techniques import BY_SLUG, LEVELS, SINGLES, Technique
from solver.logic.techniques.base import Board, Step, unit_spread
from solver.search.exact import count_solutions, random_solution, solutions

__all__ = ["REQUIRE_ATTEMPTS", "dig_requiring", "logic_path", "require_attempts"]

REQUIRE_ATTEMPTS = {6: 5000, 9: 1500}
"""Attempts of ``generate(require=...)`` before :class:`GenerationFailed`; many times the
expected number at the rarest technique's measured rate (``python -m bench learning``),
but for the techniques in :data:`RARE_ATTEMPTS`."""
RARE_ATTEMPTS = {(9, "unique_rectangle_5"): 4000}
"""Attempts for a technique that needs many more: Unique Rectangle Type 5 takes hundreds on
9x9 (cheap ones: its walks stop early)."""


def require_attempts(shape: Shape, slug: str) -> int:
    """The attempts ``generate(shape, require=slug)`` makes before it gives up."""
    return RARE_ATTEMPTS.get((shape.size, slug), REQUIRE_ATTEMPTS.get(shape.size, 100))


def dig_requiring(
    shape: Shape,
    slug: str,
    symmetry: str,
    seed: int | str,
    attempts: int,
    stop: Callable[[], bool] | None = None,
) -> Generated:
    """A puzzle whose logic solution uses ``slug`` and nothing above its level.

    Each attempt digs with the technique's level as the ceiling, remembering the last puzzle
    on its way (every removal it accepted left one solution within the ceiling) whose
    solution used the technique. After the first :data:`DIG_FIRST` attempts, one that met
    none walks on from the dug puzzle (:func:`_walk`). ``stop``, asked before each attempt
    after the first, ends the search early (GenerationFailed) when it answers True.
    """
    tech = BY_SLUG[slug]
    easy = tech.level == LEVELS[0]
    digger = _TargetDigger(shape, _search_budget(shape), tech)
    base = f"{shape.box_rows}x{shape.box_cols}:require={slug}:{symmetry}:{seed}"
    for attempt in range(1, attempts + 1):
        if attempt > 1 and stop is not None and stop():
            break
        rng = random.Random(f"{base}:{attempt}")
        solution = random_solution(shape, rng)
        kept = _kept_open(shape, slug, solution.cells, rng)
        order = _dig_order(shape, symmetry, kept, rng)
        digger.hit = None
        cells, _ = digger.dig(solution.cells, order, tech.level)
        if easy:
            digger.hit = tuple(cells)
        elif digger.hit is None and attempt > DIG_FIRST:
            _walk(digger, solution.cells, cells, kept, symmetry, rng, stop)
        if digger.hit is None:
            continue
        puzzle = Grid(shape, digger.hit)
        rated = grade(puzzle, solution=solution)
        if slug in rated.techniques and rated.level == tech.level:
            return Generated(puzzle, solution, rated, symmetry, seed, attempt, digger.searches)
    raise GenerationFailed(
        f"no {shape.label} puzzle needing {tech.name} in {attempts} attempts for seed {seed!r}"
    )


def _dig_order(
    shape: Shape, symmetry: str, order_first: frozenset[int], rng: random.Random
) -> list[tuple[int, ...]]:
    """The orbits in a random order, those holding a cell of ``order_first`` first (the dig
    takes the first removals at once, so they all end up empty)."""
    order = list(orbits(shape, symmetry))
    rng.shuffle(order)
    if not order_first:
        return order
    return [o for o in order if order_first & set(o)] + [
        o for o in order if not order_first & set(o)
    ]


KEPT_VALUE = ("jellyfish", "empty_rectangle", "simple_colouring", "x_cycle")
"""Techniques whose attempt keeps every cell of one value open."""
KEPT_RECTANGLE = ("unique_rectangle_5", "unique_rectangle_6")
"""Techniques whose walk keeps a rectangle's corners open (it helps these two only)."""


def _kept_open(
    shape: Shape, slug: str, solution: tuple[int, ...], rng: random.Random
) -> frozenset[int]:
    """Cells the dig empties first and the walk never gives back, where the technique's
    pattern needs them open.

    A quad hides behind the complementary subset of its unit (the engine looks for pairs
    and triples, naked and hidden, first), so its unit needs eight or nine open cells: a
    whole unit is kept open. A Jellyfish of a value hides behind the complementary smaller
    fish unless the value is open in eight or nine rows, and the single-value chains (Empty
    Rectangle, Simple Colouring, X-Cycle) need a value with many candidates left: every
    cell of one value is kept open. A unique rectangle needs its four corners open, and the
    solution must not hold its two values crosswise there (the puzzle would have two
    solutions): the corners of a rectangle over two boxes where the solution holds three
    values are kept open. On 6x6 a naked pair needs room before pointing takes its cells: a
    whole box is kept open.
    """
    t = tables(shape)
    if slug in ("naked_quad", "hidden_quad"):
        return frozenset(t.units[rng.randrange(len(t.units))])
    if slug == "naked_pair" and shape.size == 6:
        return frozenset(t.units[2 * t.n + rng.randrange(t.n)])
    if slug in KEPT_VALUE:
        value = rng.randint(1, shape.size)
        return frozenset(c for c, v in enumerate(solution) if v == value)
    if slug in KEPT_RECTANGLE:
        n, box_of = t.n, t.box_of
        found = []
        for r1 in range(n):
            for r2 in range(r1 + 1, n):
                for c1 in range(n):
                    for c2 in range(c1 + 1, n):
                        corners = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                        if len({box_of[k] for k in corners}) != 2:
                            continue
                        if len({solution[k] for k in corners}) == 3:
                            found.append(corners)
        if found:
            return frozenset(rng.choice(found))
    return frozenset()


DIG_FIRST = 10
"""Attempts that only dig, before the walks start: a technique an earlier technique seldom
hides (Finned Swordfish, nice loops) comes sooner from fresh digs, which cost a twentieth
of a walk."""
WALK_STEPS = 300
"""Steps of :func:`_walk` per attempt."""
WALK_PATIENCE = 100
"""Steps the walk goes on without coming nearer to the technique."""
WALK_REPAIRS = 6
"""Givens one walk step may put back before it gives up."""


def _walk(
    digger: _TargetDigger,
    solution: tuple[int, ...],
    cells: list[int],
    kept: frozenset[int],
    symmetry: str,
    rng: random.Random,
    stop: Callable[[], bool] | None = None,
) -> None:
    """Walk from ``cells`` through puzzles with one solution within the ceiling, until the
    digger records a hit, the steps run out or the walk stops coming nearer.

    A step takes out a random given, then puts back givens until the puzzle has one solution
    that the logic up to the ceiling finds: while a second solution exists, a given where
    it differs from ours; while the logic gets stuck, a given among the cells it left open.
    It keeps the new puzzle when it needs the technique's level and has no more rivals
    (see :func:`logic_path`). Givens go and come an orbit at a time, so a symmetric
    pattern of givens stays symmetric; the cells in ``kept`` stay open.
    """
    shape = digger.shape
    orbit_of = {c: orbit for orbit in orbits(shape, symmetry) for c in orbit}
    movable = [o for o in orbits(shape, symmetry) if kept.isdisjoint(o)]
    score = NOT_SEEN
    last_better = 0
    for step in range(WALK_STEPS):
        if step - last_better > WALK_PATIENCE:
            return
        if stop is not None and step % 8 == 7 and stop():
            return
        trial = list(cells)
        givens = [o for o in movable if trial[o[0]]]
        if not givens:
            return
        taken = rng.sample(givens, 1)[0]
        for c in taken:
            trial[c] = 0
        if not repair(digger, solution, trial, kept.union(taken), orbit_of, rng, score):
            continue
        if digger.at_level and digger.rivals <= score:
            if digger.rivals < score:
                last_better = step
            cells, score = trial, digger.rivals
        if digger.hit is not None:
            return


def repair(
    digger: _TargetDigger,
    solution: tuple[int, ...],
    trial: list[int],
    closed: frozenset[int],
    orbit_of: dict[int, tuple[int, ...]],
    rng: random.Random,
    cap: int = 0,
) -> bool:
    """Put givens of ``solution`` back into ``trial`` (in place), an orbit at a time and
    never in a ``closed`` cell, until it has one solution that the logic up to the ceiling
    finds: while a second solution exists, a given where it differs from ours; while the
    logic gets stuck, a given among the cells it left open. True when it got there (the
    digger's ``hit``, ``at_level`` and, up to ``cap``, ``rivals`` then describe the
    puzzle); False when :data:`WALK_REPAIRS` givens or the search budget ran out first."""
    shape = digger.shape
    for _ in range(WALK_REPAIRS):
        try:
            found = solutions(Grid(shape, tuple(trial)), limit=2, budget=digger.budget)
        except BudgetExceeded:
            return False
        digger.searches += 1
        if len(found) > 1:
            other = found[1].cells if found[0].cells == solution else found[0].cells
            open_ = [c for c, v in enumerate(other) if v != solution[c]]
        else:
            board = digger.solve(trial, cap)
            if board is None:
                return True
            open_ = board.empty_cells()
        open_ = [c for c in open_ if c not in closed]
        if not open_:
            return False
        for c in orbit_of[rng.choice(open_)]:
            trial[c] = solution[c]
    return False


class _TargetDigger(_Digger):
    """A digger that remembers, as ``hit``, the last puzzle on its way (each accepted removal
    leaves one solution within the ceiling) whose logic solution used the technique."""

    def __init__(self, shape: Shape, budget: int | None, tech: Technique) -> None:
        super().__init__(shape, budget)
        self.slug = tech.slug
        self.tech = tech
        self.rivals = NOT_SEEN  # see logic_path
        self.harder = tuple(t for t in techniques_up_to(tech.level) if t.slug not in SINGLES)
        self.level_slugs = {t.slug for t in self.harder if t.level == tech.level}
        self.hit: tuple[int, ...] | None = None
        self.at_level = False  # whether the last puzzle solved needed the technique's level

    def _unique_within(self, cells: list[int], ceiling: str | None) -> bool:
        self.searches += 1
        try:
            if count_solutions(Grid(self.shape, tuple(cells)), limit=2, budget=self.budget) != 1:
                return False
        except BudgetExceeded:
            return False  # not proven unique cheaply: keep the clue
        return self.solve(cells) is None

    def solve(self, cells: list[int], cap: int = 0) -> Board | None:
        """Solve ``cells`` (one solution) with the techniques up to the ceiling; None when
        they do, recording a hit if they used the technique, else the board they stop on.
        ``rivals`` is then the fewest rivals of the technique (see :func:`logic_path`), if
        at most ``cap``."""
        board = _QuietBoard.from_values(self.shape, cells)
        assert board is not None  # the givens have a solution
        found = logic_path(board, self.harder, self.tech if cap else None, cap)
        if found is None:
            return board
        path, self.rivals = found
        self.at_level = not self.level_slugs.isdisjoint(path)
        if self.slug in path:
            self.hit = tuple(cells)
        return None


class _QuietBoard(Board):
    """A board whose steps carry no sentence: the generator reads only what a step does
    (and the parameters a chain's rating is read from), and rendering sentences would cost
    a tenth of its time."""

    __slots__ = ()

    def step(self, technique: str, name: str, sentence: str | None = None, **parts: Any) -> Step:
        return super().step(technique, name, "", **parts)


NOT_SEEN = 1000


def logic_path(
    board: Board,
    harder: tuple[Technique, ...],
    watch: Technique | None = None,
    cap: int = NOT_SEEN,
) -> tuple[list[str], int] | None:
    """The slugs of the steps beyond singles that the logic engine takes on a board with
    one solution (in place), using ``harder`` only, and the fewest *rivals* of ``watch``;
    None when they do not solve it.

    The same steps as :func:`solver.logic.classic.run`: singles are placed until none is left (in
    any order: on a puzzle with one solution each is the solution's value, so where they
    stop does not depend on the order), then the first step of the first technique that
    has one, or among the chains the lowest-rated (:func:`solver.logic.classic.harder_step`).
    Singles are placed directly, without making steps (or their sentences).

    Where ``watch`` applies but an earlier technique takes the step, its rivals there are
    the earlier techniques that apply; the fewest over the positions (0 when the engine
    uses ``watch``, :data:`NOT_SEEN` when it never applies) tells how near the puzzle is
    to needing it. Counts above ``cap`` are not looked for.
    """
    path: list[str] = []
    best = NOT_SEEN
    while _place_singles(board):
        if board.is_solved():
            return path, best
        look = watch  # until the engine tries it
        for i, tech in enumerate(harder):
            step = next(tech.find(board), None)
            if tech is look:
                look = None
                if step is not None:
                    best = 0
            if step is None:
                continue
            if look is not None and best > 1 and next(look.find(board), None) is not None:
                limit, count = min(best, cap + 1), 1
                for rival in harder[i + 1 : harder.index(look)]:
                    if count >= limit:
                        break
                    count += next(rival.find(board), None) is not None
                if count < limit:
                    best = count
            if step.technique in CHOSEN:  # as the engine: the lowest-rated chain step
                step = harder_step(board, harder[i:])
                assert step is not None
            board.apply(step)
            path.append(step.technique)
            break
        else:
            return None
    return None


def _place_singles(board: Board) -> bool:
    """Place naked and hidden singles until none is left; False on a contradiction."""
    values, cand, t = board.values, board.cand, board.t
    place = board.place
    ncells = t.ncells
    units = t.units
    while True:
        placed = False
        for c in range(ncells):
            m = cand[c]
            if not m & (m - 1) and not values[c]:
                if not m or not place(c, m.bit_length()):
                    return False
                placed = True
        for cells in units:
            _, single = unit_spread(cand, cells)
            while single:
                b = single & -single
                single ^= b
                for c in cells:
                    if cand[c] & b:
                        break
                else:
                    return False
                if not place(c, b.bit_length()):
                    return False
                placed = True
        if not placed:
            return True
