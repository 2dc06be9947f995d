"""Puzzles with constraints, drawn from a solution: the constraint first read off a random
grid (so the solution obeys it), then givens added until the puzzle is unique.

:func:`draw_constraints` gives constraints of one type that a grid obeys (a whole-grid rule,
anti-knight say, is drawn into the grid instead); :func:`make_constrained` a unique puzzle
with them. Every answer is a pure function of the arguments (randomness comes in as a
seed). The puzzles are for tests, the bench and imports' examples; levels are not made here.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.grid import BudgetExceeded, Grid, Shape
from solver.rules.constraints import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    BetweenLine,
    BlackDotsNegative,
    Constraint,
    Even,
    ExtraRegion,
    Kropki,
    LittleKiller,
    NonConsecutive,
    Odd,
    Palindrome,
    RegionSumLine,
    Renban,
    Sandwich,
    Thermometer,
    Whispers,
    XVNegative,
)
from solver.rules.constraints.dots import neighbour_pairs
from solver.rules.constraints.little_killer import DIRECTIONS
from solver.rules.ruleset import Rules
from solver.search.exact import random_solution, solutions

WHOLE_GRID = {"antiknight": AntiKnight, "antiking": AntiKing, "nonconsecutive": NonConsecutive}
DRAWN = (
    "thermometer", "arrow", "kropki", "kropki_negative", "xv", "xv_negative", "antiknight",
    "antiking", "nonconsecutive", "parity", "little_killer", "sandwich", "palindrome",
    "renban", "whispers", "region_sum", "between", "extra_region",
)  # fmt: skip
MIX = ("thermometer", "arrow", "kropki", "little_killer", "whispers")
"""The types of the ``mix`` kind: two of each, drawn on an anti-knight grid."""
TRIES = 400


@dataclass(frozen=True, slots=True)
class Constrained:
    rules: Rules
    puzzle: Grid
    solution: Grid


def _neighbours(n: int, cell: int) -> list[int]:
    r, k = divmod(cell, n)
    return [
        (r + dr) * n + k + dk
        for dr in (-1, 0, 1)
        for dk in (-1, 0, 1)
        if (dr or dk) and 0 <= r + dr < n and 0 <= k + dk < n
    ]


def _walks(
    n: int, rng: random.Random, length: int, ok: Callable[[list[int]], bool], count: int
) -> list[tuple[int, ...]]:
    """Up to ``count`` paths of ``length`` king steps, not crossing each other, each of
    whose prefixes ``ok`` accepts."""
    used: set[int] = set()
    out: list[tuple[int, ...]] = []
    for _ in range(TRIES):
        if len(out) >= count:
            break
        path = [rng.randrange(n * n)]
        if path[0] in used:
            continue
        while len(path) < length:
            steps = [c for c in _neighbours(n, path[-1]) if c not in used and c not in path]
            rng.shuffle(steps)
            for c in steps:
                if ok([*path, c]):
                    path.append(c)
                    break
            else:
                break
        if len(path) == length and ok(path):
            out.append(tuple(path))
            used.update(path)
    return out


def draw_constraints(kind: str, solution: Grid, rng: random.Random) -> list[Constraint]:
    """Constraints of ``kind`` (one of :data:`DRAWN`) that ``solution`` obeys, each once."""
    return list(dict.fromkeys(_draw(kind, solution, rng)))


def _draw(kind: str, solution: Grid, rng: random.Random) -> list[Constraint]:
    n = solution.shape.size
    s = solution.cells
    lines = max(2, n // 2)
    if kind in WHOLE_GRID:
        return [WHOLE_GRID[kind]()]  # holds only when the grid was drawn under it
    if kind == "thermometer":
        ok = lambda p: all(s[a] < s[b] for a, b in itertools.pairwise(p))  # noqa: E731
        return [Thermometer(p) for k in (5, 4, 3) for p in _walks(n, rng, min(k, n), ok, 2)]
    if kind == "whispers":
        d = (n + 1) // 2
        ok = lambda p: all(abs(s[a] - s[b]) >= d for a, b in itertools.pairwise(p))  # noqa: E731
        return [Whispers(p) for k in (4, 3) for p in _walks(n, rng, k, ok, lines // 2 + 1)]
    if kind == "renban":

        def ok(p: list[int]) -> bool:
            values = [s[c] for c in p]
            return len(set(values)) == len(p) and max(values) - min(values) < 4

        found = _walks(n, rng, 4, lambda p: ok(p) and (len(p) < 4 or _run(s, p)), lines)
        return [Renban(p) for p in found]
    if kind == "palindrome":
        ok = lambda p: len(p) < 3 or s[p[0]] == s[p[-1]]  # noqa: E731
        return [Palindrome(p) for p in _walks(n, rng, 3, ok, lines)]
    if kind == "between":

        def ok(p):
            return len(p) < 3 or all(
                min(s[p[0]], s[p[-1]]) < s[c] < max(s[p[0]], s[p[-1]]) for c in p[1:-1]
            )

        return [BetweenLine(p) for p in _walks(n, rng, 4, ok, lines)]
    if kind == "region_sum":
        rules = Rules.classic(solution.shape)
        ok = lambda p: len(p) < 4 or not RegionSumLine(tuple(p)).clashes(rules, s)  # noqa: E731
        found = [
            p for p in _walks(n, rng, 4, ok, lines * 2) if len({rules.regions[c] for c in p}) > 1
        ]
        return [RegionSumLine(p) for p in found]
    if kind == "arrow":
        return _arrows(solution, rng, lines + 1)
    if kind in ("kropki", "kropki_negative"):
        dots: list[Constraint] = []
        for a, b in neighbour_pairs(n):
            x, y = s[a], s[b]
            black = x == 2 * y or y == 2 * x
            if abs(x - y) == 1 and not black and (kind == "kropki_negative" or rng.random() < 0.6):
                dots.append(Kropki("white", (a, b), 1))
            elif black and (kind == "kropki_negative" or rng.random() < 0.6):
                dots.append(Kropki("black", (a, b), 2))
        return [*dots, BlackDotsNegative()] if kind == "kropki_negative" else dots
    if kind in ("xv", "xv_negative"):
        marks: list[Constraint] = [
            XV((a, b), s[a] + s[b])
            for a, b in neighbour_pairs(n)
            if s[a] + s[b] in (5, 10) and (kind == "xv_negative" or rng.random() < 0.6)
        ]
        return [*marks, XVNegative()] if kind == "xv_negative" else marks
    if kind == "parity":
        cells = rng.sample(range(n * n), n * n // 4)
        return [Odd(c) if s[c] % 2 else Even(c) for c in sorted(cells)]
    if kind == "little_killer":
        return _little_killers(solution, rng, n)
    if kind == "sandwich":
        out: list[Constraint] = []
        for line in ("row", "column"):
            for i in rng.sample(range(n), n // 2 + 1):
                cells = (
                    [i * n + k for k in range(n)]
                    if line == "row"
                    else [r * n + i for r in range(n)]
                )
                row = [s[c] for c in cells]
                a, b = sorted((row.index(1), row.index(n)))
                out.append(Sandwich(line, i, sum(row[a + 1 : b])))
        return out
    if kind == "extra_region":
        cells = rng.sample(range(n * n), n * n)
        region: list[int] = []
        seen: set[int] = set()
        for c in cells:
            if s[c] not in seen and len(region) < n - 1:
                region.append(c)
                seen.add(s[c])
        return [ExtraRegion(tuple(sorted(region)))]
    raise ValueError(f"no drawing for {kind!r}")


def _run(s: Sequence[int], path: Sequence[int]) -> bool:
    values = sorted(s[c] for c in path)
    return values == list(range(values[0], values[0] + len(values)))


def _arrows(solution: Grid, rng: random.Random, count: int) -> list[Constraint]:
    n = solution.shape.size
    s = solution.cells
    used: set[int] = set()
    out: list[Constraint] = []
    for _ in range(TRIES):
        if len(out) >= count:
            break
        circle = rng.randrange(n * n)
        if circle in used:
            continue
        line: list[int] = []
        total = 0
        at = circle
        while total < s[circle]:
            steps = [
                c for c in _neighbours(n, at) if c not in used and c != circle and c not in line
            ]
            if not steps:
                break
            at = rng.choice(steps)
            line.append(at)
            total += s[at]
        if line and total == s[circle]:
            out.append(Arrow((circle,), tuple(line)))
            used.update((circle, *line))
    return out


def _little_killers(solution: Grid, rng: random.Random, n: int) -> list[Constraint]:
    clues = []
    for i in range(n - 1):
        clues += [(-1, i, "DR"), (-1, n - 1 - i, "DL"), (n, i, "UR"), (n, n - 1 - i, "UL")]
    rng.shuffle(clues)
    out: list[Constraint] = []
    for r, k, d in clues[: n + 2]:
        lk = LittleKiller.make(n, r, k, d, 1)
        if len(lk.diagonal) >= 2:
            total = sum(solution.cells[c] for c in lk.diagonal)
            out.append(LittleKiller.make(n, r, k, d, total))
    assert all(d in DIRECTIONS for _, _, d in clues)
    return out


def make_constrained(
    kind: str, shape: Shape, seed: int, *, budget: int = 2_000
) -> Constrained | None:
    """A unique puzzle with constraints of ``kind`` (of :data:`DRAWN`, or ``mix``): givens
    are added where a second solution differs until there is none, and a random one
    whenever a search runs out of
    ``budget`` (so an open grid never holds it long). None when no grid of the size obeys
    a whole-grid rule (anti-king on 4x4)."""
    rng = random.Random(seed)
    whole = WHOLE_GRID.get("antiknight" if kind == "mix" else kind)
    base = Rules.make(shape, constraints=[whole()] if whole else ())
    try:
        solution = random_solution(shape, rng, rules=base)
    except ValueError:
        return None  # no grid obeys the rule at this size (anti-king on 4x4)
    if kind == "mix":
        drawn = [c for k in MIX for c in draw_constraints(k, solution, rng)[:2]]
    else:
        drawn = [] if whole else draw_constraints(kind, solution, rng)
    rules = Rules.make(shape, constraints=[*base.constraints, *drawn])
    cells = [0] * shape.ncells
    while True:
        try:
            found = solutions(Grid(shape, tuple(cells)), limit=2, budget=budget, rules=rules)
        except BudgetExceeded:  # too open to search in budget: give a random cell
            empty = [c for c in range(shape.ncells) if not cells[c]]
            c = rng.choice(empty)
            cells[c] = solution.cells[c]
            continue
        other = next((g for g in found if g != solution), None)
        if other is None:
            return Constrained(rules, Grid(shape, tuple(cells)), solution)
        differ = [c for c in range(shape.ncells) if other.cells[c] != solution.cells[c]]
        c = rng.choice(differ)
        cells[c] = solution.cells[c]


GENERATED = (
    "antiknight", "antiking", "nonconsecutive", "kropki", "xv", "thermometer", "arrow",
    "little_killer",
)  # fmt: skip
"""The types made at a level (:func:`generate_constrained`); the rest are played from imports."""


@dataclass(frozen=True, slots=True)
class GradedConstrained:
    made: Constrained
    level: str
    hardest: str | None
    attempts: int


def generate_constrained(
    kind: str, shape: Shape, level: str, seed: int, *, attempts: int = 20
) -> GradedConstrained | None:
    """A unique puzzle of ``kind`` whose logic level (the variant logic with the constraint
    steps: :func:`solver.logic.general.variant_logic_solve`) is ``level``; tries seeds from
    ``seed`` on, at most ``attempts`` of them (None when none made that level). Unique by
    the exact search that made it and by the logic that solved it to the same grid."""
    from solver.logic.general import variant_logic_solve

    if kind not in GENERATED:
        raise ValueError(f"{kind!r} puzzles are not made at a level")
    for i in range(attempts):
        made = make_constrained(kind, shape, seed * 1000 + i)
        if made is None:
            return None
        logic = variant_logic_solve(made.rules, made.puzzle, explain=False)
        if logic.solved and logic.grid == made.solution and logic.level == level:
            return GradedConstrained(made, level, logic.hardest, i + 1)
    return None
