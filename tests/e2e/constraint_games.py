"""One small game per constraint type for the browser tests: a 6x6 puzzle, a wrong entry
that breaks only the constraint, and what the page should draw and say for it.

Each game starts from :func:`solver.generation.constrained.make_constrained` at a fixed
seed (the rules and the solution; killer cages without sums are cut here from a random
solution). Then the open cells are chosen: the cell of the wrong entry, the cells of its
row, column and box that hold the wrong value in the solution (so the entry clashes with
no house), and more, dug one at a time while the puzzle stays unique, up to
:data:`OPEN` cells, so a game is typed in a few seconds. The builder checks what the test
relies on: the puzzle has one solution under its rules, it survives the f-puzzles import,
and the wrong entry breaks the constraint and no house.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.formats.fpuzzles import from_fpuzzles, to_fpuzzles
from solver.generation.constrained import DRAWN, make_constrained
from solver.grid import Grid, Shape
from solver.rules.ruleset import Cage, Rules
from solver.search.exact import count_solutions, random_solution

SIZE = 6
OPEN = 10
"""Cells to type per game: the wrong entry's cell and its house partners among them."""
KINDS = (*DRAWN, "killer_sumless")


@dataclass(frozen=True, slots=True)
class Drawing:
    """How the page shows a type: ``svg`` the selector of its drawing in the constraints
    layer (None: a rule in words only, or cells' classes), ``words`` what a cell's
    screen-reader label or the rules under the board says of it."""

    svg: str | None
    words: str
    where: str  # "cell": the label of ``cell``; "list": the rules under the board
    cell: int | None = None


@dataclass(frozen=True, slots=True)
class ConstraintGame:
    kind: str
    rules: Rules
    fpuzzles: dict
    puzzle: Grid
    solution: Grid
    wrong: tuple[int, int]
    """(cell, value): the entry that breaks the constraint, made on the givens alone."""
    open_cells: tuple[int, ...]
    drawing: Drawing


def _rules_and_solution(kind: str, seed: int) -> tuple[Rules, Grid]:
    shape = Shape.for_size(SIZE)
    if kind == "killer_sumless":
        rng = random.Random(seed)
        solution = random_solution(shape, rng)
        n = SIZE
        # L-shaped threes: their ends share no house, so a repeat there is the cage's clash.
        shapes = [((0, 0), (0, 1), (1, 1)), ((0, 0), (1, 0), (1, 1)),
                  ((0, 1), (1, 1), (1, 0)), ((0, 0), (0, 1), (1, 0))]  # fmt: skip
        ells = [
            tuple(sorted((r + dr) * n + k + dk for dr, dk in ell))
            for r in range(n - 1)
            for k in range(n - 1)
            for ell in shapes
        ]
        rng.shuffle(ells)
        cages: list[Cage] = []
        used: set[int] = set()
        for ell in ells:
            distinct = len({solution.cells[c] for c in ell}) == 3
            if len(cages) < 5 and distinct and not used & set(ell):
                cages.append(Cage(ell, None))
                used.update(ell)
        return Rules.make(shape, cages=cages), solution
    made = make_constrained(kind, shape, seed)
    assert made is not None
    return made.rules, made.solution


NEGATIVE = {"kropki_negative": "black_dots_negative", "xv_negative": "xv_negative"}
"""The negative types' wrong entry breaks the negative rule, not a dot or a mark."""


def _breaks(rules: Rules, values: list[int], only: str | None = None) -> set[int]:
    """Cells in a group that breaks a constraint (of kind ``only``) or a cage (no house)."""
    out = {
        c
        for con in rules.constraints
        if only is None or con.kind == only
        for g in con.clashes(rules, values)
        for c in g
    }
    for cage in rules.cages:
        seen = [values[c] for c in cage.cells if values[c]]
        if len(seen) != len(set(seen)):
            out.update(c for c in cage.cells if values[c])
    return out


def _house_clash(shape: Shape, values: list[int]) -> bool:
    for house in Rules.classic(shape).houses():
        seen = [values[c] for c in house if values[c]]
        if len(seen) != len(set(seen)):
            return True
    return False


def _peers_holding(shape: Shape, solution: Grid, cell: int, value: int) -> set[int]:
    return {
        c
        for house in Rules.classic(shape).houses()
        if cell in house
        for c in house
        if solution.cells[c] == value
    }


def _constraint_cells(rules: Rules) -> list[int]:
    out: list[int] = []
    for con in rules.constraints:
        d = con.to_dict()
        out += [
            c for key in ("circle", "cells", "line") if isinstance(d.get(key), list) for c in d[key]
        ]
        if "cell" in d:
            out.append(d["cell"])
    for cage in rules.cages:
        out += cage.cells
    return list(dict.fromkeys(out))


def _unique(rules: Rules, solution: Grid, open_cells: set[int]) -> bool:
    cells = tuple(0 if c in open_cells else v for c, v in enumerate(solution.cells))
    return count_solutions(Grid(solution.shape, cells), limit=2, rules=rules) == 1


def build(kind: str, seed: int = 1) -> ConstraintGame:
    rules, solution = _rules_and_solution(kind, seed)
    shape = solution.shape
    rng = random.Random(f"{kind}:{seed}")
    only = NEGATIVE.get(kind)
    candidates = (not only and _constraint_cells(rules)) or list(range(shape.ncells))
    for cell in candidates:
        for value in range(1, SIZE + 1):
            if value == solution.cells[cell]:
                continue
            first = _peers_holding(shape, solution, cell, value) | {cell}
            values = [0 if c in first else v for c, v in enumerate(solution.cells)]
            values[cell] = value
            broken = _breaks(rules, values, only)
            if cell not in broken or _house_clash(shape, values):
                continue
            if len(first) > OPEN or not _unique(rules, solution, first):
                continue
            return _finish(kind, rules, solution, (cell, value), first, broken, rng)
    raise AssertionError(f"no wrong entry breaks only the {kind} constraint")


def _finish(kind, rules, solution, wrong, first, broken, rng) -> ConstraintGame:
    open_cells = set(first)
    keep = broken - {wrong[0]}  # the givens the wrong entry clashes with stay given
    spare = [c for c in range(solution.shape.ncells) if c not in open_cells | keep]
    on_constraint = set(_constraint_cells(rules))
    rng.shuffle(spare)
    spare.sort(key=lambda c: c not in on_constraint)  # play on the constraint first
    for c in spare:
        if len(open_cells) >= OPEN:
            break
        if _unique(rules, solution, open_cells | {c}):
            open_cells.add(c)
    puzzle = Grid(
        solution.shape, tuple(0 if c in open_cells else v for c, v in enumerate(solution.cells))
    )
    assert count_solutions(puzzle, limit=2, rules=rules) == 1
    values = list(puzzle.cells)
    values[wrong[0]] = wrong[1]
    assert wrong[0] in _breaks(rules, values) and not _house_clash(puzzle.shape, values)
    data = to_fpuzzles(rules, puzzle)
    back = from_fpuzzles(data)
    same = set(back.rules.constraints) == set(rules.constraints) and back.rules.cages == rules.cages
    assert same and back.puzzle == puzzle, f"{kind} does not survive f-puzzles"
    return ConstraintGame(
        kind, rules, data, puzzle, solution, wrong, tuple(sorted(open_cells)), _drawing(kind, rules)
    )


LINES = {
    "palindrome": "palindrome line",
    "renban": "renban line",
    "whispers": "German whispers line",
    "region_sum": "region-sum line",
    "between": "between line",
}
RULE_WORDS = {
    "kropki_negative": "Every black dot is given",
    "xv_negative": "Every X and V is given",
    "antiknight": "Anti-knight: cells a knight's move apart differ",
    "antiking": "Anti-king: cells a king's move apart differ",
    "nonconsecutive": "Non-consecutive: neighbours are not consecutive",
}


def _drawing(kind: str, rules: Rules) -> Drawing:
    n = rules.size
    if kind in RULE_WORDS:
        svg = {"kropki_negative": ".c-dot", "xv_negative": ".c-xv"}.get(kind)
        return Drawing(svg, RULE_WORDS[kind], "list")
    if kind == "killer_sumless":
        cage = rules.cages[0]
        return Drawing(None, f"cage of {len(cage.cells)} cells", "cell", cage.cells[0])
    if kind == "sandwich":
        s = rules.constraints[0].to_dict()
        line = f"{s['line']} {s['index'] + 1}"
        return Drawing(None, f"Sandwich: between the 1 and the {n} of {line}, {s['sum']}", "list")
    con = rules.constraints[0].to_dict()
    first = (con.get("circle") or con.get("cells") or [con.get("cell")])[0]
    if kind == "thermometer":
        words = f"on a thermometer, 1 of {len(con['cells'])} cells from the bulb"
        return Drawing(".c-bulb", words, "cell", first)
    if kind == "arrow":
        words = f"in an arrow's circle, its line of {len(con['line'])} cells adds up to it"
        return Drawing(".c-arrow-circle", words, "cell", first)
    if kind in LINES:
        words = f"on a {LINES[kind]}, 1 of {len(con['cells'])} cells"
        return Drawing(f".c-{kind}", words, "cell", first)
    if kind == "kropki":
        a, b = con["cells"]
        words = f"a {con['colour']} dot to r{b // n + 1}c{b % n + 1}"
        return Drawing(".c-dot", words, "cell", a)
    if kind == "xv":
        a, b = con["cells"]
        mark = "X" if con["sum"] == 10 else "V"
        return Drawing(".c-xv", f"{mark} to r{b // n + 1}c{b % n + 1}", "cell", a)
    if kind == "parity":
        return Drawing(".c-parity", con["type"], "cell", first)
    if kind == "little_killer":
        return Drawing(
            ".c-clue", f"on a little killer diagonal adding up to {con['sum']}", "cell", first
        )
    if kind == "extra_region":
        return Drawing(".c-extra", "in an extra region", "cell", first)
    raise ValueError(kind)
