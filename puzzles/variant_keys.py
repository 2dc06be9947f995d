"""The canonical key of a variant puzzle: the same for every copy that is the same puzzle.

A classic puzzle's key (``solver.rules.canon``) is the same for every relabelled, rotated,
reflected or transposed copy. A variant puzzle's key does the same within its rules:

- the eight symmetries of the square (rotations, reflections, transposition) move the
  givens, the regions (a Jigsaw's shapes, or the boxes, which a transposition turns from
  2x3 into 3x2), the cages and their sums together; both diagonals map onto themselves;
  every constraint moves with its cells (``Constraint.moved``): a thermometer keeps its
  bulb, a little killer's clue and arrow turn with the grid, a row's sandwich clue becomes
  a column's under a transposition; cells whose order says nothing are sorted;
- the digits are relabelled where the rules allow it: freely without cages when every
  constraint only says which cells differ or are equal (Diagonal, Jigsaw, anti-knight,
  anti-king, extra regions, palindromes); otherwise only by the complement
  ``d -> n + 1 - d``, when every cage and constraint has a complemented form (a cage of k
  cells summing to s sums to ``k * (n + 1) - s``, a thermometer turns round, an X stays
  an X on 9x9, an odd cell becomes even on an even size...; an arrow, a sandwich or a
  black dot has none, so a puzzle with one is relabelled by nothing).

The key is read off the puzzle's structure, not its variant's name, so a Diagonal whose
boxes an f-puzzles file spells out as regions has the key of the same Diagonal without.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from solver import Grid, Shape, parse
from solver.rules.constraints import Constraint
from solver.rules.ruleset import Rules
from solver.rules.symmetry import Move, square_moves


def _first_seen(labels: list[int], *, keep_zero: bool) -> list[int]:
    """``labels`` renamed 1, 2, 3... (0, 1, 2... for regions) in the order they appear."""
    names: dict[int, int] = {}
    out = []
    start = 1 if keep_zero else 0
    for label in labels:
        if keep_zero and label == 0:
            out.append(0)
            continue
        if label not in names:
            names[label] = len(names) + start
        out.append(names[label])
    return out


def _form(
    grid: Grid,
    rules: Rules,
    move: Move,
    complement: bool,
    any_labels: bool,
    drawn: tuple[Constraint, ...] | None,
) -> str:
    """The puzzle moved by ``move`` (and complemented), written out; ``drawn`` are its
    constraints, already complemented if need be (None: it has none)."""
    n = rules.size
    where = move.where
    ncells = n * n
    values = [0] * ncells
    regions = [0] * ncells
    for cell in range(ncells):
        v = grid.cells[cell]
        values[where[cell]] = n + 1 - v if complement and v else v
        regions[where[cell]] = rules.regions[cell]
    cages = sorted(
        (
            tuple(sorted(where[c] for c in cage.cells)),
            -1
            if cage.total is None
            else (len(cage.cells) * (n + 1) - cage.total if complement else cage.total),
        )
        for cage in rules.cages
    )
    if any_labels:
        values = _first_seen(values, keep_zero=True)
    form: list = [
        n,
        _first_seen(regions, keep_zero=False),
        values,
        cages,
        rules.diagonals,
        rules.windows,
    ]
    if drawn is not None:
        form.append(
            sorted(
                json.dumps(c.moved(move).to_dict(), sort_keys=True, separators=(",", ":"))
                for c in drawn
            )
        )
    return json.dumps(form, separators=(",", ":"))


def _complemented(rules: Rules) -> tuple[Constraint, ...] | None:
    """Every constraint under d -> N + 1 - d, or None when one has no such form."""
    out = []
    for con in rules.constraints:
        found = con.complemented(rules)
        if found is None:
            return None
        out.append(found)
    return tuple(out)


def variant_canonical_form(grid: Grid, rules: Rules) -> str:
    """The smallest written form of the puzzle over its symmetries (see the module)."""
    constraints = rules.constraints
    any_labels = not rules.cages and all(c.any_labels for c in constraints)
    # (complement, the constraints as the complemented grid reads them)
    choices: list[tuple[bool, tuple[Constraint, ...] | None]] = [
        (False, constraints if constraints else None)
    ]
    if not any_labels and (rules.cages or constraints):
        flipped = _complemented(rules)
        if flipped is not None:
            choices.append((True, flipped if constraints else None))
    return min(
        _form(grid, rules, move, flip, any_labels, drawn)
        for move in square_moves(rules.size)
        for flip, drawn in choices
    )


def variant_canonical_key(grid: Grid, rules: Rules) -> str:
    """The stored key (sha256, like a classic puzzle's) of the canonical form."""
    return hashlib.sha256(("variant:" + variant_canonical_form(grid, rules)).encode()).hexdigest()


def store_symmetric_keys(puzzle_model: Any, rows: Any) -> None:
    """Give each of ``rows`` (variant puzzles of ``puzzle_model``, a migration's historical
    model) its key under the grid's symmetries. A row whose new key another stored puzzle
    already has (a copy of it, stored before copies were recognised) keeps its old key:
    both stay playable, and the first one found is the one a new copy resolves to."""
    taken = set(puzzle_model.objects.values_list("canonical_key", flat=True))
    for row in rows.only("pk", "givens", "box_rows", "box_cols", "rules", "canonical_key"):
        shape = Shape(row.box_rows, row.box_cols)
        rules = Rules.from_dict(row.rules, shape) if row.rules else Rules.classic(shape)
        grid = parse(row.givens, box_rows=row.box_rows, box_cols=row.box_cols)
        key = variant_canonical_key(grid, rules)
        if key == row.canonical_key or key in taken:
            continue
        taken.discard(row.canonical_key)
        taken.add(key)
        puzzle_model.objects.filter(pk=row.pk).update(canonical_key=key)
