"""Grader benchmark: grading speed, agreement with SE ratings, levels, logic alone.

Reports the Spearman rank correlation of the score with SE ratings on the file the score
was fitted on and on the held-out one, across levels, QQWing's levels by set, the hardest
step per band of SE ratings, and the share each set the logic engine finishes.

Run alone with ``python -m bench.grade [--quick]`` or with the others via ``python -m bench``.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

from solver.grade import LEVELS, Grade, grade
from solver.grid import Grid, parse
from solver.logic import logic_solve

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "puzzles"

QQWING = ("qqwing_simple", "qqwing_easy", "qqwing_intermediate", "qqwing_expert")
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

    # Agreement with SE ratings: fitted on the first file, held out on the second.
    by_set: dict[str, list[tuple[float, Grade]]] = {}
    for name in ("se_rated_diabolical", "se_rated_diabolical_b"):
        rated = load(name)[:: 4 if quick else 1]
        by_set[name] = [(float(rest[0]), grade(g)) for g, rest in rated]
    sample = "every 4th puzzle" if quick else "the whole file"
    for name, role in (("se_rated_diabolical", "fitted on"), ("se_rated_diabolical_b", "held out")):
        pairs = by_set[name]
        rho = spearman([float(gr.score) for _, gr in pairs], [se for se, _ in pairs])
        lines.append(
            f"- Spearman of score with SE rating on {name} ({role}, {sample}, n={len(pairs)}): "
            f"**{rho:.3f}** (reference: pencilmark 0.68, hodoku-py 0.52 over 948)"
        )
    held = by_set["se_rated_diabolical_b"]
    qq_grades = {"qqwing_expert": grades}
    for name in QQWING[:-1]:
        qq_grades[name] = [grade(g) for g, _ in load(name, 200 if quick else None)]
    refs = [float(i) for i, name in enumerate(QQWING) for _ in qq_grades[name]]
    refs += [se for se, _ in held]
    scores = [float(gr.score) for name in QQWING for gr in qq_grades[name]]
    scores += [float(gr.score) for _, gr in held]
    lines.append(
        f"- Spearman across levels (QQWing's four sets ranked 0-3 below the held-out "
        f"diabolical puzzles ranked by SE, n={len(refs)}): **{spearman(scores, refs):.3f}**"
    )
    lines.append("")
    lines.extend(_hardest_by_band([pair for pairs in by_set.values() for pair in pairs]))
    lines.append("")

    # Levels by qqwing set.
    lines.append("| set | n | " + " | ".join(LEVELS) + " | mean score |")
    lines.append("|---|---:|" + "---:|" * len(LEVELS) + "---:|")
    for name in QQWING:
        sample_grades = qq_grades[name]
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


def _hardest_by_band(pairs: list[tuple[float, Grade]]) -> list[str]:
    """A table: for each band of SE ratings, the share of each hardest technique."""
    bands = ((5.0, 6.0), (6.0, 6.6), (6.6, 7.2), (7.2, 8.0), (8.0, 8.5), (8.5, 10.0))
    lines = ["| SE band | n | hardest step (share) |", "|---|---:|---|"]
    for lo, hi in bands:
        inside = [gr.hardest for se, gr in pairs if lo <= se < hi]
        if not inside:
            continue
        common = Counter(inside).most_common(6)
        shares = ", ".join(f"{slug} {100 * k / len(inside):.0f}%" for slug, k in common)
        lines.append(f"| {lo:.1f}-{hi:.1f} | {len(inside)} | {shares} |")
    return lines


if __name__ == "__main__":
    print("\n".join(run(quick="--quick" in sys.argv[1:])))
