"""Digging variant puzzles, and the variant logic's level without the steps.

To *dig* is to visit the cells in a random order and remove a clue when the puzzle keeps
one solution (no solution puts another value in that cell: a search within a node
budget, :func:`solver.search.exact.has_other_solution`, a small one under a ceiling) and the
variant logic up to the asked level still solves it. When naked and hidden singles over
the houses put the removed clue back, they alone prove the removal; else the logic is
asked to put it back, which leaves it the puzzle before with more known (a puzzle it
solved). The level of the result is the full logic's, so a rare technique that more
knowledge stops from applying costs at worst an attempt.

:func:`logic_level` is the level and hardest technique
:func:`solver.logic.general.variant_logic_solve` gives, by the same steps in the same
order, without writing them: singles are found by plain scans and placed in the same
batches, and only the other techniques make steps (with no sentences).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable

from solver.grid import BudgetExceeded, Grid
from solver.logic.general import (
    LEVELS,
    SINGLES,
    VariantTechnique,
    techniques_for,
    variant_logic_solve,
)
from solver.logic.houses import VBoard
from solver.logic.techniques.base import Step
from solver.rules.ruleset import Rules, layout
from solver.search.exact import candidate_solutions, has_other_solution

SEARCH_BUDGET = 2000
BATCHED = ("pointing", "claiming")
"""Techniques whose steps the digger's question (``until``) applies all at once: cheap
scans that find many steps in a row, each costing a pass when taken one by one. The
answer is the same in practice (9x9 Jigsaw and Diagonal: the same puzzles)."""
CLOSURE_BATCHED = ("cage_combination",)
"""Easy techniques whose steps :func:`logic_level` always applies all at once: the logic
tries a harder technique only once the easy ones find nothing, and the board where they
find nothing is the same whatever order their steps came in (each only removes more when
more is known), so the harder steps, the level and the hardest technique are the same."""
CEILING_SEARCH_BUDGET = 60
"""The uniqueness search's budget when the logic up to a ceiling must then put the clue
back: a removal whose search needs more nodes is kept without asking the logic, which
rarely puts such a clue back (9x9 Jigsaw hard: 80% of them) and takes longest to say no.
A puzzle keeps a few more givens (Jigsaw hard: 0.3 more) and is made in three quarters of
the time."""


def logic_level(
    rules: Rules,
    grid: Grid,
    max_level: str | None = None,
    *,
    until: int | None = None,
    past_hard: Callable[[VBoard], bool] | None = None,
    stalled: Callable[[VBoard], object] | None = None,
    together: str | None = None,
) -> tuple[str, str | None]:
    """The level and the hardest technique (its slug) that
    :func:`~solver.logic.general.variant_logic_solve` finds for ``grid`` with techniques
    up to ``max_level`` (None: all); the level is ``master`` when they do not finish it.

    ``together`` a level: the steps each scan of a technique up to it finds are taken at
    once (see :data:`CLOSURE_BATCHED`): the same level, and the same hardest technique
    when it is past ``together``, in fewer passes.

    ``until`` a cell: stop once that cell is placed, as if the grid were solved (the
    digger's question: do the techniques put back the clue just taken out?), taking the
    steps of :data:`BATCHED` techniques together. ``past_hard``: asked once, the first
    time the techniques up to hard find nothing; False stops there (``master``: a caller
    that knows the puzzle cannot be finished, having found it a second solution, spares
    the expert techniques' long search for a step). ``stalled``: called with the board
    when the techniques stop short of the end."""
    board = VBoard.from_grid(rules, grid)
    if board is None:
        return "master", None
    board.explain, board.bare = False, True
    order = techniques_for(rules, max_level)
    index = {t.slug: i for i, t in enumerate(order)}
    rest = [(i, t) for i, t in enumerate(order) if t.slug not in SINGLES]
    hard = LEVELS.index("hard")
    cheap = [(i, t) for i, t in rest if LEVELS.index(t.level) <= hard]
    dear = [(i, t) for i, t in rest if LEVELS.index(t.level) > hard]
    values = board.values
    batched = set(CLOSURE_BATCHED) | (set(BATCHED) if until is not None else set())
    if together is not None:
        batched.update(t.slug for t in order if LEVELS.index(t.level) <= LEVELS.index(together))
    top = -1
    changed: list[int] | None = None  # cells a step took candidates from, if no more
    while not all(values) and (until is None or not values[until]):
        batch = _singles(board, changed)
        changed = None
        if batch is not None:
            i = index[batch[0]]
            if not _place_all(board, batch[1]):
                break
        else:
            found = _first_steps(board, cheap, batched)
            if found is None and dear:
                if past_hard is not None:
                    if not past_hard(board):
                        break
                    past_hard = None
                found = _first_steps(board, dear, batched)
            if found is None:
                break
            i, steps = found
            if not _apply_all(board, steps):
                break
            if not any(step.placements for step in steps):
                changed = sorted({c for step in steps for c, _ in step.eliminations})
        top = max(top, i)
    hardest = order[top].slug if top >= 0 else None
    if not (all(values) or (until is not None and values[until])):
        if stalled is not None:
            stalled(board)
        return "master", hardest
    return (order[top].level if top >= 0 else "easy"), hardest


def solutions_past_the_logic(rules: Rules, puzzle: Grid, *, limit: int = 2) -> list[Grid]:
    """Up to ``limit`` solutions of ``puzzle``, searched from the board where the logic
    stops (its candidates left out: :func:`~solver.search.exact.candidate_solutions`);
    the logic's own grid when it finishes. A givens-free master Killer takes the search
    a tenth of a second from there, and up to 20 s from the empty grid."""
    stopped: list[VBoard] = []
    level, _ = logic_level(rules, puzzle, stalled=stopped.append)
    if stopped:
        last = stopped[0]
        return candidate_solutions(rules, last.values, last.cand, limit=limit)
    if level == "master":
        return []  # the givens clash: the logic had no board to start from
    # finished, with no technique that assumes one solution
    return [variant_logic_solve(rules, puzzle, explain=False).grid]


def _first_steps(
    board: VBoard, techniques: list[tuple[int, VariantTechnique]], batched: Collection[str]
) -> tuple[int, list[Step]] | None:
    """The first technique's first step; for a technique in ``batched``, every step it
    finds on this board (each sound on it, so sound together)."""
    for i, tech in techniques:
        if tech.slug in batched:
            steps = list(tech.find(board))
            if steps:
                return i, steps
        else:
            step = next(tech.find(board), None)
            if step is not None:
                return i, [step]
    return None


def _apply_all(board: VBoard, steps: list[Step]) -> bool:
    """Apply steps found on one board, a value two of them place placed once; False on a
    contradiction."""
    if len(steps) == 1:
        return board.apply(steps[0])
    values = board.values
    for step in steps:
        if any(values[c] == v for c, v in step.placements):
            rest = tuple((c, v) for c, v in step.placements if values[c] != v)
            step = Step(
                step.technique, step.name, "", placements=rest, eliminations=step.eliminations
            )
        if not board.apply(step):
            return False
    return True


def _singles(
    board: VBoard, changed: list[int] | None = None
) -> tuple[str, list[tuple[int, int]]] | None:
    """The first kind of single the board has (full house, naked, hidden), with every one
    of that kind one scan finds: the batch the logic's solve places.

    ``changed``: the cells that lost candidates since a scan found no single (and nothing
    was placed): only they can be naked singles, only their houses hold hidden ones."""
    values, cand, all_mask = board.values, board.cand, board.all_mask
    houses = board.lay.houses
    if changed is not None:
        found = [(c, m.bit_length()) for c in changed if (m := cand[c]) and not m & (m - 1)]
        if found:
            return "naked_single", found
        near = sorted({h for c in changed for h in board.lay.cell_houses[c]})
        return _hidden_singles(cand, [houses[h] for h in near])
    found = []
    for h, left in enumerate(board.left if 1 in board.left else ()):
        if left == 1:
            missing, c = all_mask, -1
            for d in houses[h]:
                if values[d]:
                    missing &= ~(1 << (values[d] - 1))
                else:
                    c = d
            if missing & cand[c]:
                found.append((c, missing.bit_length()))
    if found:
        return "full_house", found
    found = [(c, m.bit_length()) for c, m in enumerate(cand) if m and not m & (m - 1)]
    if found:
        return "naked_single", found
    return _hidden_singles(cand, houses)


def _hidden_singles(
    cand: list[int], houses: Iterable[tuple[int, ...]]
) -> tuple[str, list[tuple[int, int]]] | None:
    found = []
    for house in houses:
        once = twice = 0
        for c in house:
            x = cand[c]
            twice |= once & x
            once |= x
        hidden = once & ~twice
        while hidden:
            b = hidden & -hidden
            hidden ^= b
            for c in house:
                if cand[c] & b:
                    if cand[c] != b:  # else it is a naked single
                        found.append((c, b.bit_length()))
                    break
    return ("hidden_single", found) if found else None


def _place_all(board: VBoard, placements: list[tuple[int, int]]) -> bool:
    """Place a batch of singles, skipping one an earlier single took; False on a
    contradiction (a cell left with no candidate)."""
    values, cand = board.values, board.cand
    peers = board.lay.peers
    for c, v in placements:
        if values[c] or not cand[c] >> (v - 1) & 1:
            continue
        board.place(c, v)
        for p in peers[c]:
            if not cand[p] and not values[p]:
                return False
    return True


def dig(
    rules: Rules,
    solution: Grid,
    rng: random.Random,
    ceiling: str | None,
    groups: Iterable[tuple[int, ...]] | None = None,
) -> tuple[Grid, int]:
    """The givens left after one pass over ``groups`` of cells (a symmetry's orbits; one
    cell each by default) in a random order, each group removed together when every cell
    of it is put back; the searches made. ``ceiling``: the hardest techniques allowed to
    put a clue back (None or master: any, as long as the puzzle keeps one solution)."""
    cells = list(solution.cells)
    order = list(groups) if groups is not None else [(c,) for c in range(len(cells))]
    rng.shuffle(order)
    searches = 0
    top = None if ceiling in (None, "master") else ceiling
    lay = layout(rules)
    houses, cell_houses = lay.houses, lay.cell_houses
    full = (1 << rules.size) - 1
    used = [sum(1 << (cells[c] - 1) for c in house) for house in houses]
    traps = rectangles(rules, solution) if top != "easy" else []
    budget = SEARCH_BUDGET if top is None else CEILING_SEARCH_BUDGET
    for group in order:
        for c in group:
            bit = 1 << (cells[c] - 1)
            for h in cell_houses[c]:
                used[h] ^= bit
            cells[c] = 0
        kept = True
        for c in group:
            bit = 1 << (solution.cells[c] - 1)
            if forced(c, bit, cells, used, houses, cell_houses, full):
                continue  # a single over the givens puts it back: same solution, same level
            if singles_solve(rules, cells, target=c, used=used):
                # Singles over the rest put it back: solving this puzzle is singles, then
                # the puzzle before, so it keeps one solution and its level.
                continue
            if top != "easy" and not any(
                all(not cells[q] for q in corners) for corners in traps[c]
            ):  # else no given is left in a rectangle whose values may swap: two solutions
                searches += 1
                puzzle = Grid(rules.shape, tuple(cells))
                try:
                    unique = not has_other_solution(
                        puzzle, c, solution.cells[c], budget=budget, rules=rules
                    )
                except BudgetExceeded:
                    unique = False
                if unique and (
                    top is None or logic_level(rules, puzzle, top, until=c)[0] != "master"
                ):
                    continue
            kept = False
            break
        if kept:
            continue
        for c in group:
            cells[c] = solution.cells[c]
            bit = 1 << (cells[c] - 1)
            for h in cell_houses[c]:
                used[h] |= bit
    return Grid(rules.shape, tuple(cells)), searches


def rectangles(rules: Rules, solution: Grid) -> list[list[tuple[int, ...]]]:
    """Per cell, the rectangles through it whose values may swap: the corners of two rows
    and two columns holding x, y over y, x, such that every house stays whole once the
    two values change places. A puzzle with no given in one has a second solution."""
    n = rules.size
    lay = layout(rules)
    s = solution.cells
    out: list[list[tuple[int, ...]]] = [[] for _ in s]
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            column_of = {(s[r1 * n + k], s[r2 * n + k]): k for k in range(n)}
            for k1 in range(n):
                k2 = column_of.get((s[r2 * n + k1], s[r1 * n + k1]))
                if k2 is None or k2 < k1:
                    continue
                corners = (r1 * n + k1, r1 * n + k2, r2 * n + k1, r2 * n + k2)
                x, y = s[corners[0]], s[corners[1]]
                swapped = dict(zip(corners, (y, x, x, y), strict=True))
                if all(
                    len({swapped.get(e, s[e]) for e in lay.houses[h]}) == n
                    for c in corners
                    for h in lay.cell_houses[c]
                ):
                    for c in corners:
                        out[c].append(corners)
    return out


def forced(
    c: int,
    bit: int,
    cells: list[int],
    used: list[int],
    houses: tuple[tuple[int, ...], ...],
    cell_houses: tuple[tuple[int, ...], ...],
    full: int,
) -> bool:
    """True when the givens alone make ``bit`` a naked or hidden single at ``c``."""
    seen = 0
    for h in cell_houses[c]:
        seen |= used[h]
    if seen | bit == full:
        return True
    for h in cell_houses[c]:
        for e in houses[h]:
            if e != c and not cells[e] and not any(used[g] & bit for g in cell_houses[e]):
                break
        else:
            return True
    return False


def singles_solve(
    rules: Rules, cells: list[int], target: int | None = None, used: list[int] | None = None
) -> bool:
    """True when naked and hidden singles over the houses fill the grid (so one solution),
    or, given a ``target`` cell, fill that cell. ``used``: per house the mask of the
    values ``cells`` holds there, if known.

    Naked singles are followed from cell to cell as they appear; a pass over the houses
    for hidden singles runs only when they run dry. Cage sums are not read, so rules with
    cages always answer False."""
    if rules.cages:
        return False
    lay = layout(rules)
    houses, cell_houses, peers = lay.houses, lay.cell_houses, lay.peers
    full = (1 << rules.size) - 1
    values = list(cells)
    if used is None:
        used = []
        for house in houses:
            m = 0
            for c in house:
                if values[c]:
                    m |= 1 << (values[c] - 1)
            used.append(m)
    cand = [0] * len(values)
    queue = []
    empty = 0
    for c, v in enumerate(values):
        if v:
            continue
        empty += 1
        m = full
        for h in cell_houses[c]:
            m &= ~used[h]
        if not m & (m - 1):
            if not m:
                return False
            queue.append(c)
        cand[c] = m
    while True:
        while queue:
            c = queue.pop()
            m = cand[c]
            if values[c]:
                continue
            if not m:
                return False  # two singles of the same value in one house
            values[c] = m.bit_length()
            cand[c] = 0
            empty -= 1
            if c == target:
                return True
            for p in peers[c]:
                x = cand[p]
                if x & m:
                    x ^= m
                    cand[p] = x
                    if not x & (x - 1):
                        queue.append(p)
        if not empty:
            return True
        for house in houses:
            once = twice = 0
            for c in house:
                x = cand[c]
                twice |= once & x
                once |= x
            hidden = once & ~twice
            if hidden:
                for c in house:
                    x = cand[c] & hidden
                    if x:
                        if x & (x - 1):
                            return False  # two values with no other place than this cell
                        cand[c] = x
                        queue.append(c)
        if not queue:
            return False
