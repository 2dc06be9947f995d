"""The exact engine against the Norvig-style reference, in one process on the same puzzles:
puzzles per CPU second of each, and their ratio. The reference is slow, so it runs on the
first puzzles of a set (the sample); ours is also timed on the whole set."""

from __future__ import annotations

from bench import cpu, load, norvig
from solver.grid import format_line
from solver.rules.checks import is_solution
from solver.search.dlx import dlx_count
from solver.search.exact import count_solutions, solve

# (set, mode, box side, reference sample, quick sample): solve = the first solution,
# count = solutions up to 2 (the uniqueness check). The first six rows have the target.
ROWS = (
    ("royle_17clue_first1000", "solve", 3, 200, 30),
    ("magictour_top1465", "solve", 3, 200, 30),
    ("norvig_top95", "solve", 3, 200, 30),
    ("forum_hardest_1106", "solve", 3, 200, 30),
    ("serg_multisolution_1000", "count", 3, 200, 30),
    ("norvig_top95", "count", 3, 200, 30),
    ("gen_16x16_unique", "solve", 4, 20, 5),
    ("gen_16x16_unique", "count", 4, 20, 5),
    ("gen_25x25_unique", "solve", 5, 10, 3),
    ("gen_25x25_unique", "count", 5, 10, 3),
)
TARGETS = 6


def _ours(grids: list, mode: str) -> list:
    return [solve(g) if mode == "solve" else count_solutions(g, limit=2) for g in grids]


def _reference(lines: list[str], mode: str, box: int) -> list:
    if mode == "solve":
        return [norvig.solve(line, box, box) for line in lines]
    return [norvig.count_solutions(line, 2, box, box) for line in lines]


def run(quick: bool = False) -> list[str]:
    out = [
        "## Exact engine (solver.search.exact)",
        "",
        "| set | mode | puzzles | ours /s | reference /s | sample | ratio |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    ratios = []
    for name, mode, box, sample, quick_sample in ROWS:
        rows = load(name, 300 if quick else None)
        grids, lines = [g for g, _ in rows], [format_line(g) for g, _ in rows]
        few = quick_sample if quick else sample
        if mode == "solve":  # both answer right (a benchmark of wrong code is moot)
            assert all(map(is_solution, grids[:3], _ours(grids[:3], mode)))
            assert None not in _reference(lines[:3], mode, box)
        else:
            assert _ours(grids[:3], mode) == _reference(lines[:3], mode, box)
        whole = len(grids) / cpu(_ours, grids, mode)
        ours_few = cpu(_ours, grids[:few], mode)
        reference = cpu(_reference, lines[:few], mode, box)
        ratios.append(reference / ours_few)
        out.append(
            f"| {name} | {mode} | {len(grids)} | {whole:,.0f} | "
            f"{len(lines[:few]) / reference:,.1f} | {len(lines[:few])} | {ratios[-1]:.1f}x |"
        )
    out += ["", f"Lowest ratio on the first {TARGETS} rows: {min(ratios[:TARGETS]):.1f}x.", ""]
    out += ["| set | puzzles | DLX count /s | ours count /s |", "|---|---:|---:|---:|"]
    for name in ("norvig_top95", "gen_16x16_unique", "gen_25x25_unique"):
        grids = [g for g, _ in load(name, 10 if quick else None)]
        dlx = len(grids) / cpu(lambda gs: [dlx_count(g, limit=2) for g in gs], grids)
        ours = len(grids) / cpu(_ours, grids, "count")
        out.append(f"| {name} | {len(grids)} | {dlx:,.1f} | {ours:,.1f} |")
    return out
