"""Constraints: per type, puzzles generated from a random grid (solver.generation.constrained)
then solved and counted to two by the exact engine, with its untrusted-input node budget;
median and worst time per puzzle, and how many ran out of budget (the API's too_hard)."""

from __future__ import annotations

import statistics
import time

from solver.generation.constrained import DRAWN, make_constrained
from solver.grid import BudgetExceeded, Shape
from solver.logic.general import variant_logic_solve
from solver.search.constraint_lanes import constraint_lanes
from solver.search.exact import DEFAULT_NODE_BUDGET, count_solutions, solve
from solver.search.house_lanes import variant_lanes

KINDS = (*DRAWN, "mix")


def _row(kind: str, size: int, count: int) -> tuple[str, int]:
    shape = Shape.for_size(size)
    made_times, solve_times, count_times = [], [], []
    too_hard = givens = made_count = by_logic = 0
    for seed in range(count):
        started = time.process_time()
        made = make_constrained(kind, shape, seed)
        made_times.append(time.process_time() - started)
        if made is None:
            continue
        made_count += 1
        givens += made.puzzle.clues
        for cached in (constraint_lanes, variant_lanes):
            cached.cache_clear()  # time the solver cold: no lanes or memo from making it
        try:
            started = time.process_time()
            found = solve(made.puzzle, rules=made.rules, budget=DEFAULT_NODE_BUDGET)
            solve_times.append(time.process_time() - started)
            started = time.process_time()
            number = count_solutions(made.puzzle, rules=made.rules, budget=DEFAULT_NODE_BUDGET)
            count_times.append(time.process_time() - started)
        except BudgetExceeded:
            too_hard += 1
            continue
        assert found == made.solution and number == 1, (kind, size, seed)
        logic = variant_logic_solve(made.rules, made.puzzle, explain=False)
        by_logic += logic.solved and logic.grid == made.solution
    if not made_count:
        return f"| {kind} | {size}x{size} | 0 | | | | | | | |", 0

    def ms(xs: list[float], f=statistics.median) -> str:
        return f"{1000 * f(xs):.1f}" if xs else ""

    line = (
        f"| {kind} | {size}x{size} | {made_count} | {givens / made_count:.1f} "
        f"| {ms(made_times)} | {ms(solve_times)} | {ms(count_times)} "
        f"| {ms(count_times, max)} | {too_hard} | {by_logic} |"
    )
    return line, too_hard


def run(quick: bool = False) -> list[str]:
    out = [
        "## constraints",
        "",
        "Per constraint type: unique puzzles made from a random grid (constraints read off "
        "it, givens added where a second solution differs), one core's CPU time in ms: "
        "making one (median), solving cold (median, building its lanes), counting to two "
        "(median and worst); "
        f"*too hard*: searches past the {DEFAULT_NODE_BUDGET:,}-node budget the API "
        "gives an untrusted grid; *by logic*: puzzles the logic steps (the constraint steps "
        "and the house techniques) finish. *mix*: two thermometers, arrows, kropki dots, little "
        "killers and whispers on an anti-knight grid.",
        "",
        "| type | size | puzzles | givens | make | solve | count | count worst | too hard "
        "| by logic |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    hard = 0
    for size, count in ((6, 3 if quick else 20), (9, 1 if quick else 5)):
        for kind in KINDS:
            line, too_hard = _row(kind, size, count)
            out.append(line)
            hard += too_hard
    out += ["", f"- searches past the budget: {hard}"]
    return out
