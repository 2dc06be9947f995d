"""Game analysis: CPU time of ``replays.analysis.analyse`` on played-out 9x9 expert games,
and on 9x9 Killer and Jigsaw games under their rules (the variant logic).

The games are played here, without a database: a simulated player places the values in
the order the logic engine finds them, with now and then a wrong value cleared at once and
a value placed ahead of the engine (a guess), thinking a random while before each.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from bench import load
from solver.grid import SYMBOLS, Grid, format_line
from solver.logic.classic import logic_solve
from solver.logic.grade import grade
from solver.search.exact import solve


def played_game(
    givens: Grid, seed: int, solution: Grid | None = None, order: list[int] | None = None
) -> tuple[str, str, list[dict[str, Any]]]:
    """(givens line, solution line, events) of one simulated game of ``givens`` (a
    variant's: its ``solution`` and the ``order`` its logic places the cells in)."""
    rng, solution = random.Random(seed), solution or solve(givens)
    assert solution is not None
    if order is None:
        order = [c for step in logic_solve(givens).steps for c, _ in step.placements]
    rest = [c for c, v in enumerate(givens.cells) if not v and c not in set(order)]
    rng.shuffle(rest)
    order += rest
    for _ in range(2):  # a guess: a later cell's value placed early
        i = rng.randrange(len(order) // 2)
        order.insert(i, order.pop(rng.randrange(i, len(order))))
    events: list[dict[str, Any]] = []
    clock = 0

    def event(cell: int, before: int, after: int, correct: bool | None) -> None:
        entries = [[cell, (".", *SYMBOLS)[before], (".", *SYMBOLS)[after]]]
        move = {"seq": len(events) + 1, "kind": "value", "cell": cell, "value": after}
        events.append(
            move | {"correct": correct, "elapsed_ms": clock, "changes": {"entries": entries}}
        )

    for cell in order:
        clock += rng.randint(2_000, 40_000)
        right = solution.cells[cell]
        if rng.random() < 0.05:
            event(cell, 0, right % 9 + 1, False)
            clock += rng.randint(1_000, 5_000)
            event(cell, right % 9 + 1, 0, None)
        event(cell, 0, right, True)
    return format_line(givens), format_line(solution), events


def run(quick: bool = False) -> list[str]:
    from replays.analysis import analyse

    expert = (g for g, _ in load("qqwing_expert") if grade(g).level == "expert")
    count = 10 if quick else 50
    games = [played_game(g, seed) for seed, g in zip(range(count), expert, strict=False)]
    times, placements = [], []
    for givens, solution, events in games:
        started = time.process_time()
        data = analyse(givens=givens, solution=solution, box_rows=3, box_cols=3, events=events)
        times.append(time.process_time() - started)
        placements.append(data["summary"]["placements"])
    return [
        "## Game analysis (replays.analysis)",
        "",
        f"- {len(games)} played-out 9x9 expert games ({min(placements)}-{max(placements)} "
        f"placements, median {statistics.median(placements):.0f}): CPU per analysis **median "
        f"{1000 * statistics.median(times):.0f} ms, worst {1000 * max(times):.0f} ms**",
        *(_variant_row(variant, level, 4 if quick else 12) for variant, level in VARIANTS),
    ]


VARIANTS = (("killer", "hard"), ("jigsaw", "hard"))


def _variant_row(variant: str, level: str, count: int) -> str:
    """The same figures for ``count`` played-out 9x9 games of a variant, under its rules."""
    from replays.analysis import analyse
    from solver.generation.general import generate_variant
    from solver.logic.engines import engine_for

    times = []
    for seed in range(count):
        made = generate_variant(variant, 9, level=level, seed=f"bench:replays:{seed}")
        order = engine_for(made.rules).path(made.puzzle.cells, 3000)
        givens, solution, events = played_game(made.puzzle, seed, made.solution, order)
        started = time.process_time()
        analyse(
            givens=givens,
            solution=solution,
            box_rows=3,
            box_cols=3,
            events=events,
            rules=made.rules,
        )
        times.append(time.process_time() - started)
    return (
        f"- {count} played-out 9x9 {variant} {level} games (variant logic): CPU per analysis "
        f"**median {1000 * statistics.median(times):.0f} ms, worst {1000 * max(times):.0f} ms**"
    )
