"""The grader: speed, agreement with SE ratings (the file it was fitted on, the held-out
one, across levels), QQWing's levels by set, the hardest step per band of SE ratings, and
the share of each set the logic engine finishes."""

from __future__ import annotations

import time
from collections import Counter

from bench import load, spearman, variants
from solver.logic.classic import logic_solve
from solver.logic.grade import LEVELS, grade

QQWING = ("qqwing_simple", "qqwing_easy", "qqwing_intermediate", "qqwing_expert")
LOGIC_SETS = (
    *QQWING, "norvig_easy50", "norvig_top95", "norvig_hardest11", "royle_17clue_first1000",
    "magictour_top1465", "forum_hardest_1106", "se_rated_diabolical", "gen_4x4_unique",
    "gen_16x16_unique", "gen_25x25_unique",
)  # fmt: skip
SE_FILES = {"se_rated_diabolical": "fitted on", "se_rated_diabolical_b": "held out"}
SE_BANDS = ((5.0, 6.0), (6.0, 6.6), (6.6, 7.2), (7.2, 8.0), (8.0, 8.5), (8.5, 10.0))


def run(quick: bool = False) -> list[str]:
    limit = 200 if quick else None
    wall, cpu = time.perf_counter(), time.process_time()
    qq = {"qqwing_expert": [grade(g) for g, _ in load("qqwing_expert", limit)]}
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    n = len(qq["qqwing_expert"])
    qq |= {name: [grade(g) for g, _ in load(name, limit)] for name in QQWING[:-1]}
    out = [
        "## Grader (solver.logic.grade)",
        "",
        f"- grading speed on qqwing_expert: **{n / cpu:.0f} puzzles per CPU second** "
        f"({n / wall:.0f}/s wall clock, {n} puzzles)",
    ]
    se = {}
    for name, role in SE_FILES.items():
        se[name] = [(float(rest[0]), grade(g)) for g, rest in load(name)[:: 4 if quick else 1]]
        rho = spearman([gr.score for _, gr in se[name]], [rating for rating, _ in se[name]])
        out.append(f"- Spearman with SE on {name} ({role}, n={len(se[name])}): **{rho:.3f}**")
    held = se["se_rated_diabolical_b"]
    refs = [i for i, name in enumerate(QQWING) for _ in qq[name]] + [r for r, _ in held]
    scores = [gr.score for name in QQWING for gr in qq[name]] + [gr.score for _, gr in held]
    out += [
        f"- Spearman across levels (QQWing's sets ranked 0-3 below the held-out puzzles "
        f"ranked by SE, n={len(refs)}): **{spearman(scores, refs):.3f}**",
        "",
        "| SE band | n | hardest step (share) |",
        "|---|---:|---|",
    ]
    for lo, hi in SE_BANDS:
        inside = [gr.hardest for r, gr in se["se_rated_diabolical"] + held if lo <= r < hi]
        shares = ", ".join(
            f"{slug} {100 * k / len(inside):.0f}%" for slug, k in Counter(inside).most_common(6)
        )
        out += [f"| {lo:.1f}-{hi:.1f} | {len(inside)} | {shares} |"] if inside else []
    out += ["", f"| set | n | {' | '.join(LEVELS)} | mean score |"]
    out.append("|---|---:|" + "---:|" * (len(LEVELS) + 1))
    for name in QQWING:
        levels, count = Counter(g.level for g in qq[name]), len(qq[name])
        mean = sum(g.score for g in qq[name]) / count
        shares = " | ".join(f"{100 * levels[level] / count:.0f}%" for level in LEVELS)
        out.append(f"| {name} | {count} | {shares} | {mean:.0f} |")
    limit = 100 if quick else 500
    out += ["", f"| set (first {limit}) | solved by logic alone | CPU s |", "|---|---:|---:|"]
    for name in LOGIC_SETS:
        grids, cpu = [g for g, _ in load(name, limit)], time.process_time()
        solved = sum(logic_solve(g).solved for g in grids)
        cpu = time.process_time() - cpu
        out.append(f"| {name} | {100 * solved / len(grids):.1f}% of {len(grids)} | {cpu:.1f} |")
    out += variants.grade_rows(quick)
    return out
