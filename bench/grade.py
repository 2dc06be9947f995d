"""Grader benchmark: grading speed, agreement with SE ratings, share solved by logic alone.

Run alone with ``python -m bench.grade [--quick]`` or with the others via ``python -m bench``.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

from solver.grade import LEVELS, grade
from solver.grid import Grid, parse
from solver.logic import logic_solve

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "puzzles"

LOGIC_SETS = (
    "qqwing_simple",
    "qqwing_easy",
    "qqwing_intermediate",
    "qqwing_expert",
    "norvig_easy50",
    "norvig_top95",
    "norvig_hardest11",
    "royle_17clue_first1000",
    "magictour_top1465",
    "forum_hardest_1106",
    "se_rated_diabolical",
    "gen_4x4_unique",
    "gen_16x16_unique",
    "gen_25x25_unique",
)


def load(name: str, limit: int | None = None) -> list[tuple[Grid, list[str]]]:
    """(grid, the rest of the line) for the first ``limit`` puzzles of a shared set."""
    out = []
    for line in (DATA / f"{name}.txt").read_text().splitlines():
        parts = line.split()
        if parts:
            out.append((parse(parts[0]), parts[1:]))
            if limit is not None and len(out) >= limit:
                break
    return out


def ranks(xs: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(xs)), key=xs.__getitem__)
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation (Pearson's on the ranks, ties averaged)."""
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5


def run(quick: bool = False) -> list[str]:
    lines = ["## Grader (solver.grade)", ""]

    # Speed on qqwing_expert.
    expert = load("qqwing_expert", 200 if quick else None)
    wall, cpu = time.perf_counter(), time.process_time()
    grades = [grade(g) for g, _ in expert]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    lines.append(
        f"- grading speed on qqwing_expert: **{len(expert) / cpu:.0f} puzzles per CPU second** "
        f"on one core ({len(expert) / wall:.0f}/s wall clock; {len(expert)} puzzles in "
        f"{cpu:.1f} s CPU, {wall:.1f} s wall)"
    )

    # Agreement with SE ratings.
    rated = load("se_rated_diabolical")
    if quick:
        rated = rated[::4]
    se = [float(rest[0]) for _, rest in rated]
    scores = [float(grade(g).score) for g, _ in rated]
    rho = spearman(scores, se)
    even = spearman(scores[::2], se[::2])
    odd = spearman(scores[1::2], se[1::2])
    sample = "every 4th puzzle" if quick else "the whole file"
    lines.append(
        f"- Spearman rank correlation of score with SE rating on se_rated_diabolical "
        f"({sample}, n={len(rated)}): **{rho:.3f}** (even lines {even:.3f}, odd lines "
        f"{odd:.3f}; reference: pencilmark 0.68, hodoku-py 0.65 on a sample of 114)"
    )
    lines.append("")

    # Levels by qqwing set.
    lines.append("| set | n | " + " | ".join(LEVELS) + " | mean score |")
    lines.append("|---|---:|" + "---:|" * len(LEVELS) + "---:|")
    for name in ("qqwing_simple", "qqwing_easy", "qqwing_intermediate", "qqwing_expert"):
        if name == "qqwing_expert":
            sample_grades = grades
        else:
            sample_grades = [grade(g) for g, _ in load(name, 200 if quick else None)]
        levels = Counter(gr.level for gr in sample_grades)
        n = len(sample_grades)
        shares = " | ".join(f"{100 * levels[lv] / n:.0f}%" for lv in LEVELS)
        mean = sum(gr.score for gr in sample_grades) / n
        lines.append(f"| {name} | {n} | {shares} | {mean:.0f} |")
    lines.append("")

    # Share each set the logic engine finishes without search.
    limit = 100 if quick else 500
    lines.append(f"| set | puzzles (first {limit} at most) | solved by logic alone | CPU time |")
    lines.append("|---|---:|---:|---:|")
    for name in LOGIC_SETS:
        puzzles = load(name, limit)
        cpu = time.process_time()
        solved = sum(1 for g, _ in puzzles if logic_solve(g).solved)
        cpu = time.process_time() - cpu
        lines.append(
            f"| {name} | {len(puzzles)} | {100 * solved / len(puzzles):.1f}% | {cpu:.1f} s |"
        )
    return lines


if __name__ == "__main__":
    print("\n".join(run(quick="--quick" in sys.argv[1:])))
