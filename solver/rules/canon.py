"""Canonical form: one key per class of puzzles that are the same Sudoku in disguise.

Two puzzles are *equivalent* when one becomes the other by relabelling the symbols and by
the validity-preserving geometry: permuting rows within a band, bands, columns within a
stack, stacks, and (for square boxes) transposing. The *canonical form* of a puzzle is the
lexicographically smallest grid over that whole group, reading cells row by row with an
empty cell as 0 (so empties sort first) and relabelling symbols 1, 2, 3... in order of
first appearance. Equal keys mean equivalent puzzles and equivalent puzzles get equal keys:
the key is exact, for every size.

How it stays fast (``make bench`` times it per set): the form is built row by row.
Each *state* is a partial transformation: the orientation, the original rows placed so
far, the label map, and what is known of the column order. Because empties sort first,
the columns still unordered are exactly those empty in every placed row; they are kept as
one tied set per stack (``E``), and stacks empty in every placed row are kept as one tied
set (``T``), so empty columns never cause branching. At each level every surviving state
tries every allowed next row; the smallest row over all of them wins and only the states
that reach it go on (branch and bound on the prefix). A state branches only where new
symbols appear in tied columns or tied stacks, because their order fixes their labels.
Rows with no givens are interchangeable, so only one per band is tried (likewise one of
several empty bands).

Sizes: the same exact algorithm serves every shape. Boxes with more rows than columns
(say 3x2) are transposed first, so a 6x6 puzzle with 3x2 boxes and its transpose with 2x3
boxes share a key; transposition is otherwise used only for square boxes, where it keeps
the shape. The work is bounded by ``max_states`` (states alive at one level). That count
is the same for every puzzle of a class, so a class either always gets its exact key or,
past the bound, always gets the weaker key ``<shape>~<puzzle relabelled by first
appearance>``: still sound (equal keys only for equivalent puzzles) but it tells apart
geometric variants. 9x9 puzzles are never bounded (a complete 9x9 grid, where every first
row ties, is their slowest case). The default bound is well above what puzzles need, the
dense 25x25 puzzles of the shared set included. Complete grids of 16x16 and up (every
symbol new in the first row) go past it at once (the count is known before the states are
made) and get the weaker key.

The grid's givens are assumed not to clash (two equal values in a row or column break the
reasoning that tied columns are empty ones); for such a grid the form is still an
equivalent grid, so the key stays sound, but it may not be canonical.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations, product
from math import factorial, prod
from operator import itemgetter

from solver.grid import Grid, Shape, format_line

# A new symbol sorts after every label already given (labels are at most 25).
NEW = 99
DEFAULT_MAX_STATES = 50_000

# A state: (orientation, used bands mask, current band, used rows mask, T, S, labels,
# next label, plan).
# T: stacks empty in every placed row, tied, in result stack slots 0..len(T)-1.
# S: the other stacks in result order, each (E: tied columns still empty, F: ordered columns).
# labels[v]: the label of value v, NEW if it has none yet; labels[0] = 0.
# plan: S as steps that read a row: an int (one column), a tuple (tied columns, to sort),
# or an itemgetter (a run of ordered columns).
Stack = tuple[tuple[int, ...], tuple[int, ...]]
Step = int | tuple[int, ...] | Callable[[list[int]], tuple[int, ...]]
State = tuple[
    int, int, int, int, tuple[int, ...], tuple[Stack, ...], tuple[int, ...], int, tuple[Step, ...]
]


class _TooMuchWork(Exception):
    """The search for the exact form went past ``max_states``."""


def transpose(grid: Grid) -> Grid:
    """The grid reflected in its main diagonal (box shape r x c becomes c x r)."""
    n = grid.size
    cells = grid.cells
    shape = Shape(grid.shape.box_cols, grid.shape.box_rows)
    return Grid(shape, tuple(cells[c * n + r] for r in range(n) for c in range(n)))


def relabelled(grid: Grid) -> Grid:
    """The grid with its symbols renamed 1, 2, 3... in order of first appearance."""
    labels: dict[int, int] = {}
    out = []
    for v in grid.cells:
        if v and v not in labels:
            labels[v] = len(labels) + 1
        out.append(labels[v] if v else 0)
    return grid.with_cells(out)


def canonical_form(grid: Grid, *, max_states: int | None = None) -> Grid | None:
    """The lexicographically smallest equivalent grid; None if it needs more than
    ``max_states`` states at one level (None = no bound)."""
    if grid.shape.box_rows > grid.shape.box_cols:
        grid = transpose(grid)
    try:
        rows = _minlex_rows(grid, max_states)
    except _TooMuchWork:
        return None
    return grid.with_cells([v for row in rows for v in row])


def canonical_key(grid: Grid, *, max_states: int | None = DEFAULT_MAX_STATES) -> str:
    """A text key equal for two grids exactly when they are equivalent (see the module doc).

    ``"3x3:" + canonical form`` as one line; past ``max_states`` (never for 9x9) the sound
    but weaker ``"<r>x<c>~" + relabelled grid``.
    """
    shape = grid.shape
    if shape.box_rows > shape.box_cols:
        grid = transpose(grid)
        shape = grid.shape
    prefix = f"{shape.box_rows}x{shape.box_cols}"
    bound = None if shape.size == 9 else max_states
    form = canonical_form(grid, max_states=bound)
    if form is None:
        return f"{prefix}~{format_line(relabelled(grid))}"
    return f"{prefix}:{format_line(form)}"


def _minlex_rows(grid: Grid, max_states: int | None) -> list[tuple[int, ...]]:
    """The rows of the canonical form, level by level (see the module docstring)."""
    shape = grid.shape
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    cells = grid.cells
    orientations = [tuple(cells[r * n : (r + 1) * n] for r in range(n))]
    if br == bc:
        orientations.append(tuple(cells[r::n] for r in range(n)))
    stack_cols = tuple(tuple(range(s * bc, (s + 1) * bc)) for s in range(n // bc))
    nbands = n // br
    row_empty = [[not any(row) for row in rows] for rows in orientations]
    band_empty = [[all(empty[b * br : (b + 1) * br]) for b in range(nbands)] for empty in row_empty]
    labels = (0,) + (NEW,) * n
    all_stacks = tuple(range(n // bc))
    states: list[State] = [
        (o, 0, -1, 0, all_stacks, (), labels, 1, ()) for o in range(len(orientations))
    ]
    result: list[tuple[int, ...]] = []
    for level in range(n):
        at_band_start = level % br == 0
        best: tuple[int, ...] | None = None
        winners: list[tuple[State, int]] = []
        for state in states:
            o, used_bands, band, used_rows = state[:4]
            rows = orientations[o]
            for r in _candidates(
                at_band_start, used_bands, band, used_rows, nbands, br, row_empty[o], band_empty[o]
            ):
                line = _row_string(state, rows[r], stack_cols)
                if best is None or line < best:
                    best = line
                    winners = [(state, r)]
                elif line == best:
                    winners.append((state, r))
        assert best is not None
        result.append(best)
        if level == n - 1:
            break
        states = []
        for state, r in winners:
            room = None if max_states is None else max_states - len(states)
            states.extend(_successors(state, r, orientations[state[0]][r], stack_cols, br, room))
    return result


def _candidates(
    at_band_start: bool,
    used_bands: int,
    band: int,
    used_rows: int,
    nbands: int,
    br: int,
    row_empty: list[bool],
    band_empty: list[bool],
) -> list[int]:
    """The rows that may come next; of several interchangeable empty rows, only the first."""
    if at_band_start:
        bands = []
        seen_empty_band = False
        for b in range(nbands):
            if used_bands >> b & 1:
                continue
            if band_empty[b]:
                if seen_empty_band:
                    continue
                seen_empty_band = True
            bands.append(b)
    else:
        bands = [band]
    out = []
    for b in bands:
        seen_empty = False
        for r in range(b * br, (b + 1) * br):
            if used_rows >> r & 1:
                continue
            if row_empty[r]:
                if seen_empty:
                    continue
                seen_empty = True
            out.append(r)
    return out


def _row_string(
    state: State, vals: tuple[int, ...], stack_cols: tuple[tuple[int, ...], ...]
) -> tuple[int, ...]:
    """The smallest row that ``vals`` can become as the next row of ``state``."""
    labels = state[6]
    mapped = [labels[v] for v in vals]
    out: list[int] = []
    tied = state[4]
    if tied:
        segs = sorted(sorted([mapped[c] for c in stack_cols[s]]) for s in tied)
        for seg in segs:
            out.extend(seg)
    for step in state[8]:
        if type(step) is int:
            out.append(mapped[step])
        elif type(step) is tuple:
            out.extend(sorted([mapped[c] for c in step]))
        else:
            out.extend(step(mapped))  # type: ignore[operator]
    if NEW in out:  # new symbols take the next labels in order of appearance
        nxt = state[7]
        for i, x in enumerate(out):
            if x == NEW:
                out[i] = nxt
                nxt += 1
    return tuple(out)


def _split(
    cols: tuple[int, ...], mapped: list[int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Tied columns for one row: (still empty, labelled in label order, new symbols)."""
    empty = tuple(c for c in cols if not mapped[c])
    known = tuple(sorted((c for c in cols if 0 < mapped[c] < NEW), key=mapped.__getitem__))
    new = tuple(c for c in cols if mapped[c] == NEW)
    return empty, known, new


def _plan(stacks: tuple[Stack, ...]) -> tuple[Step, ...]:
    """The steps that read a row in the order of ``stacks`` (see State)."""
    plan: list[Step] = []
    run: list[int] = []
    for empty, fixed in stacks:
        if empty:
            if run:
                plan.append(run[0] if len(run) == 1 else itemgetter(*run))
                run = []
            plan.append(empty if len(empty) > 1 else empty[0])
        run.extend(fixed)
    if run:
        plan.append(run[0] if len(run) == 1 else itemgetter(*run))
    return tuple(plan)


def _successors(
    state: State,
    r: int,
    vals: tuple[int, ...],
    stack_cols: tuple[tuple[int, ...], ...],
    br: int,
    room: int | None,
) -> list[State]:
    """Every state that places row ``r`` next with the smallest row string; raises
    _TooMuchWork, before making them, when there would be more than ``room``."""
    o, used_bands, _, used_rows, tied, stacks, labels, nxt, _ = state
    b = r // br
    used_bands |= 1 << b
    used_rows |= 1 << r
    mapped = [labels[v] for v in vals]
    still_tied = []
    segs = []
    for s in tied:
        empty, known, new = _split(stack_cols[s], mapped)
        if known or new:
            key = [0] * len(empty) + [mapped[c] for c in known] + [NEW] * len(new)
            segs.append((key, empty, known, new))
        else:
            still_tied.append(s)
    segs.sort(key=lambda seg: seg[0])
    # The order of new stacks with equal rows is a choice only when they hold new symbols
    # (otherwise they differ); so is the order of new symbols within tied columns.
    groups: list[list[tuple]] = []
    for seg in segs:
        if groups and groups[-1][0][0] == seg[0] and NEW in seg[0]:
            groups[-1].append(seg)
        else:
            groups.append([seg])
    group_orders = [list(permutations(g)) for g in groups]
    splits = [
        (*_split(empty, mapped), fixed) if empty else ((), (), (), fixed) for empty, fixed in stacks
    ]
    if room is not None:
        count = prod(factorial(len(g)) for g in groups)
        count *= prod(factorial(len(seg[3])) for seg in segs)
        count *= prod(factorial(len(sp[2])) for sp in splits)
        if count > room:
            raise _TooMuchWork
    old_col_choices = [list(permutations(sp[2])) for sp in splits]
    tied_out = tuple(still_tied)
    out: list[State] = []
    for orders in product(*group_orders):
        order = [seg for group in orders for seg in group]
        new_col_choices = [list(permutations(seg[3])) for seg in order]
        k = len(order)
        for choice in product(*new_col_choices, *old_col_choices):
            result: list[Stack] = [
                (seg[1], seg[2] + perm) for seg, perm in zip(order, choice[:k], strict=True)
            ]
            result.extend(
                (empty, known + perm + fixed)
                for (empty, known, _, fixed), perm in zip(splits, choice[k:], strict=True)
            )
            lab = list(labels)
            nx = nxt
            for _, fixed in result:
                for c in fixed:
                    v = vals[c]
                    if lab[v] == NEW:
                        lab[v] = nx
                        nx += 1
            final = tuple(result)
            out.append((o, used_bands, b, used_rows, tied_out, final, tuple(lab), nx, _plan(final)))
    return out
