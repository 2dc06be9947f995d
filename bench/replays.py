"""Game analysis benchmark: CPU time to analyse a played-out 9x9 expert game.

Run alone with ``python -m bench.replays [--quick]`` or with the others via ``python -m
bench``. The games are played out here, without a database: a simulated player places the
values in the order the logic engine finds them (with the occasional wrong value, cleared
at once, and a value placed ahead of the engine: a guess), thinking a random while before
each; ``replays.analysis.analyse`` then runs as the worker runs it. The target is at most
1 s of CPU for a game of about 60 placements.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from bench.grade import load
from solver.grade import grade
from solver.grid import SYMBOLS, Grid, format_line
from solver.logic import logic_solve
from solver.search import solve

GAMES = 50
TARGET_S = 1.0


def _sym(v: int) -> str:
    return SYMBOLS[v - 1] if v else "."


def played_game(givens: Grid, seed: int) -> tuple[str, str, list[dict[str, Any]]]:
    """(givens line, solution line, events) of one simulated game of ``givens``."""
    rng = random.Random(seed)
    solution = solve(givens)
    assert solution is not None
    order = [c for step in logic_solve(givens).steps for c, _ in step.placements]
    rest = [c for c, v in enumerate(givens.cells) if not v and c not in set(order)]
    rng.shuffle(rest)
    order += rest
    # A guess now and then: a later cell's value placed early.
    for _ in range(2):
        i = rng.randrange(len(order) // 2)
        j = rng.randrange(i, len(order))
        order.insert(i, order.pop(j))
    events: list[dict[str, Any]] = []
    clock = 0
    seq = 0

    def event(cell: int, before: int, after: int, correct: bool | None) -> None:
        nonlocal seq
        seq += 1
        events.append(
            {
                "seq": seq,
                "kind": "value",
                "cell": cell,
                "value": after,
                "correct": correct,
                "elapsed_ms": clock,
                "changes": {"entries": [[cell, _sym(before), _sym(after)]]},
            }
        )

    for cell in order:
        clock += rng.randint(2_000, 40_000)
        right = solution.cells[cell]
        if rng.random() < 0.05:
            wrong = right % 9 + 1
            event(cell, 0, wrong, False)
            clock += rng.randint(1_000, 5_000)
            event(cell, wrong, 0, None)
        event(cell, 0, right, True)
    return format_line(givens), format_line(solution), events


def expert_puzzles(count: int) -> list[Grid]:
    out = []
    for g, _ in load("qqwing_expert"):
        if grade(g).level == "expert":
            out.append(g)
            if len(out) == count:
                break
    return out


def run(quick: bool = False) -> list[str]:
    from replays.analysis import analyse

    count = 10 if quick else GAMES
    games = [played_game(g, seed) for seed, g in enumerate(expert_puzzles(count))]
    times = []
    placements = []
    for givens, solution, events in games:
        start = time.process_time()
        data = analyse(givens=givens, solution=solution, box_rows=3, box_cols=3, events=events)
        times.append(time.process_time() - start)
        placements.append(data["summary"]["placements"])
    median, worst = statistics.median(times), max(times)
    verdict = "meets" if worst <= TARGET_S else "misses"
    return [
        "## Game analysis (replays.analysis)",
        "",
        f"- {len(games)} played-out 9x9 expert games (qqwing_expert graded expert, "
        f"{min(placements)}-{max(placements)} placements each, median "
        f"{statistics.median(placements):.0f}): CPU per analysis **median "
        f"{median * 1000:.0f} ms, worst {worst * 1000:.0f} ms** ({verdict} the "
        f"{TARGET_S:.0f} s target), one core",
    ]


if __name__ == "__main__":
    print("\n".join(run(quick="--quick" in sys.argv)))
