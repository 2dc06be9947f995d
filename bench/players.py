"""Evidence across games: false positives on simulated people, detection of scripts.

``python -m bench.players [--humans N] [--scripts N] [--games N] [--seed S]`` plays
histories of games without a database (the events the server would log), computes each
game's trace with ``integrity.trace.game_trace`` and judges the history after every game
from the ``MIN_GAMES``-th on with ``integrity.player_signals.player_signals``, as the server
does. A history counts as flagged when any of those judgements flags it. What the players
do and how to read the figures: docs/integrity.md.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bench import load
from integrity.player_signals import MIN_GAMES, WINDOW, player_signals
from integrity.signals import Event
from integrity.trace import HARDER, engine_path, game_trace, single_cells
from solver.logic.techniques import BY_SLUG
from solver.logic.techniques.base import Board
from solver.search.exact import solve

LEVELS = {
    "qqwing_simple": "easy",
    "qqwing_easy": "medium",
    "qqwing_intermediate": "hard",
    "qqwing_expert": "expert",
}
PER_SET = 40


@dataclass(frozen=True)
class Puzzle:
    shape: Any
    givens: tuple[int, ...]
    solution: tuple[int, ...]
    level: str
    path: tuple[int, ...]


@cache
def pool() -> tuple[Puzzle, ...]:
    """The puzzles played: the first ``PER_SET`` of each qqwing set, with their level."""
    out = []
    for name, level in LEVELS.items():
        for grid, _ in load(name, PER_SET):
            solution = solve(grid)
            assert solution is not None
            path = engine_path(grid.shape, grid.cells)
            out.append(Puzzle(grid.shape, grid.cells, solution.cells, level, tuple(path)))
    return tuple(out)


@dataclass(frozen=True)
class Style:
    """How one simulated player plays: the order they pick cells in and their pauses."""

    order: str  # human: random | local | digit | methodical; script: engine | live | any
    base_ms: float  # pause = floor + base * effort ** slope * lognormal(sigma)
    slope: float
    sigma: float
    floor_ms: float = 400
    mistakes: float = 0.0
    notes: float = 0.0
    methodical: float = 0.0
    jitter: float = 0.0  # a script's pause: base * uniform(1 - jitter, 1 + jitter)
    script: bool = False


def human_style(rng: random.Random) -> Style:
    """A person: one of four ways of choosing, pauses that grow with the step's effort
    (speed from a speed-solver's to a beginner's), mistakes and notes now and then."""
    return Style(
        order=rng.choice(("random", "local", "digit", "methodical")),
        base_ms=math.exp(rng.uniform(math.log(300), math.log(4000))),
        slope=rng.uniform(0.3, 1.0),
        sigma=rng.uniform(0.35, 0.9),
        floor_ms=rng.uniform(300, 700),
        mistakes=rng.uniform(0.0, 0.05),
        notes=rng.uniform(0.0, 0.6),
        methodical=rng.uniform(0.3, 0.6),
    )


SCRIPTS: dict[str, Callable[[random.Random], Style]] = {
    "engine order, steady 1.2 s": lambda r: Style("engine", 1200, 0, 0, script=True),
    "engine order, jittered 0.6-1.8 s": lambda r: Style(
        "engine", 1200, 0, 0, jitter=0.5, script=True
    ),
    "engine's next cell, jittered 2-6 s": lambda r: Style(
        "live", 4000, 0, 0, jitter=0.5, script=True
    ),
    "random order, steady 1.2 s": lambda r: Style("any", 1200, 0, 0, script=True),
    "random order, steady 5 s": lambda r: Style("any", 5000, 0, 0, script=True),
    "random order, jittered 0.6-1.8 s": lambda r: Style("any", 1200, 0, 0, jitter=0.5, script=True),
    # The bot: the engine's next cell at every step, pauses a person's, grown with
    # the step's difficulty (no notes, no mistakes).
    "engine's next cell, human pauses": lambda r: Style(
        "live",
        math.exp(r.uniform(math.log(800), math.log(3000))),
        r.uniform(0.5, 1.0),
        r.uniform(0.35, 0.6),
        floor_ms=r.uniform(350, 600),
    ),
}

LOOKALIKES: dict[str, Callable[[random.Random], Style]] = {
    # A person's order and pauses, drawn from the people's own model: indistinguishable
    # by construction (docs/integrity.md says so); run to show it, never expected flagged.
    "random single, human pauses": lambda r: Style(
        "random",
        math.exp(r.uniform(math.log(800), math.log(3000))),
        r.uniform(0.5, 1.0),
        r.uniform(0.35, 0.6),
        floor_ms=r.uniform(350, 600),
    ),
}


def _distance(a: int, b: int, n: int) -> int:
    return abs(a // n - b // n) + abs(a % n - b % n)


def _empty(values: list[int]) -> list[int]:
    return [c for c, v in enumerate(values) if not v]


def _pick(style: Style, board: Board, puzzle: Puzzle, last: int | None, rng: random.Random):
    """The cell to place next and the effort of finding it (None: no technique helps)."""
    values, n = board.values, board.shape.size
    empty = values.count(0)
    if style.order == "any":
        return rng.choice(_empty(values)), 1.0
    if style.order == "engine":
        # The engine's path, then (on a puzzle it cannot finish) the rest at random.
        ahead = next((c for c in puzzle.path if not values[c]), None)
        return (ahead if ahead is not None else rng.choice(_empty(values))), 1.0
    score = 0
    for _ in range(60):
        first, cells = single_cells(board)
        if cells:
            break
        step = next((s for tech in HARDER for s in tech.find(board)), None)
        if step is None:
            return rng.choice(_empty(values)), empty * 30.0
        score += BY_SLUG[step.technique].score if step.technique in BY_SLUG else 0
        board.apply(step)
    effort = empty / max(1, len(cells)) * (1 + score / 20)
    choices = sorted(cells)
    if style.order == "live" or (style.order == "methodical" and rng.random() < style.methodical):
        return first, effort
    if style.order == "local" and last is not None:
        near = min(_distance(c, last, n) for c in choices)
        choices = [c for c in choices if _distance(c, last, n) == near]
    elif style.order == "digit" and last is not None:
        same = [c for c in choices if puzzle.solution[c] == puzzle.solution[last]]
        choices = same or choices
    return rng.choice(choices), effort


def play(style: Style, puzzle: Puzzle, rng: random.Random) -> tuple[list[Event], int]:
    """The events of one game and its time (ms)."""
    known = list(puzzle.givens)
    board = Board.from_values(puzzle.shape, known)
    assert board is not None
    events: list[Event] = []
    clock = rng.randint(5000, 30000) if not style.script else 0
    last = None
    while 0 in board.values:
        cell, effort = _pick(style, board, puzzle, last, rng)
        value = puzzle.solution[cell]
        if style.script:
            clock += round(style.base_ms * rng.uniform(1 - style.jitter, 1 + style.jitter))
        else:
            think = style.base_ms * effort**style.slope * rng.lognormvariate(0, style.sigma)
            if rng.random() < 0.03:  # distracted
                think += rng.uniform(10_000, 60_000)
            if effort > 12 and rng.random() < style.notes:  # pencil marks in a hard spot
                for _ in range(rng.randint(2, 8)):
                    clock += round(think / 8 + rng.uniform(500, 1500))
                    spot = rng.choice([c for c, v in enumerate(board.values) if not v])
                    events.append(Event("note", spot, rng.randint(1, board.shape.size), clock))
            clock += round(style.floor_ms + think)
            if rng.random() < style.mistakes:
                wrong = value % board.shape.size + 1
                events.append(Event("value", cell, wrong, clock, True, False, ((cell, wrong),)))
                clock += rng.randint(1500, 6000)
        events.append(Event("value", cell, value, clock, True, True, ((cell, value),)))
        board.place(cell, value)
        last = cell
    return events, clock


def history(style: Style, games: int, rng: random.Random) -> list[dict[str, Any]]:
    """One player's games, oldest first, as the server stores them for the judgement."""
    puzzles = pool()
    levels = rng.sample(sorted(set(LEVELS.values())), 2)  # a player keeps to two levels
    mine = [p for p in puzzles if p.level in levels]
    out = []
    for puzzle in rng.sample(mine, games):
        events, elapsed = play(style, puzzle, rng)
        trace = game_trace(
            events, shape=puzzle.shape, givens=puzzle.givens, solution=puzzle.solution
        )
        placements = sum(1 for e in events if e.placement)
        out.append(trace | {"level": puzzle.level, "ms_per_placement": elapsed // placements})
    return out


def judged(games: list[dict[str, Any]], first: int = MIN_GAMES) -> tuple[int | None, Any]:
    """The game after which the history is first flagged (None: never), and the last
    judgement's signals; judging from game ``first`` on (the server's ``MIN_GAMES``)."""
    signals = None
    for end in range(first, len(games) + 1):
        signals = player_signals(games[max(0, end - WINDOW) : end][::-1], min_games=first)
        if signals.flagged:
            return end, signals
    return None, signals


def first_judgement(stored: dict[str, Any], firsts: tuple[int, ...] = (3, 4, 5)) -> list[str]:
    """How many of each population the evidence flags, and by which game, when it first
    judges after ``first`` games: the figures behind ``PROVISIONAL_GAMES`` (how long a
    new player's games wait)."""
    lines = [
        "",
        "First judgement after k games (a new player is provisional until then): "
        "flagged / players, median game flagged at.",
        "",
        "| players | " + " | ".join(f"k = {k}" for k in firsts) + " |",
        "|---|" + "---|" * len(firsts),
    ]
    for name, players in stored.items():
        if name == "key":
            continue
        cells = []
        for k in firsts:
            when = [w for w, _ in (judged(games, k) for games in players) if w is not None]
            median = statistics.median(when) if when else "-"
            cells.append(f"{len(when)} / {len(players)} ({median})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def histories(
    make: Callable[[random.Random], Style], count: int, games: int, seed: str
) -> list[list[dict[str, Any]]]:
    """``count`` players' histories, each from its own seed ``"<seed>:<i>"``."""
    out = []
    for i in range(count):
        rng = random.Random(f"{seed}:{i}")
        out.append(history(make(rng), games, rng))
    return out


def summarise(players: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """How many histories are flagged, after how many games, with which signals."""
    flagged, when, reasons = 0, [], Counter()
    figures: dict[str, list[float]] = {k: [] for k in ("engine", "cv", "corr", "speed")}
    for games in players:
        end, signals = judged(games)
        if signals is not None:
            for key, value in (
                ("engine", signals.engine_share),
                ("cv", signals.pause_cv),
                ("corr", signals.difficulty_corr),
                ("speed", signals.speed_ratio),
            ):
                if value is not None:
                    figures[key].append(value)
        if end is not None:
            flagged += 1
            when.append(end)
            reasons.update(r.split(":")[0].split(" (")[0][:40] for r in signals.reasons)
    return {
        "count": len(players),
        "flagged": flagged,
        "games_to_flag": statistics.median(when) if when else None,
        "figures": {k: _spread(v) for k, v in figures.items()},
        "reasons": reasons.most_common(4),
    }


def run_population(
    make: Callable[[random.Random], Style], count: int, games: int, seed: str
) -> dict[str, Any]:
    return summarise(histories(make, count, games, seed))


def _spread(values: list[float]) -> str:
    if not values:
        return "-"
    q = statistics.quantiles(values, n=20) if len(values) > 1 else values * 19
    return f"{q[0]:.2f} / {statistics.median(values):.2f} / {q[-1]:.2f}"


def run(
    quick: bool = False,
    humans: int = 1000,
    scripts: int = 30,
    games: int = 12,
    cache: str | None = None,
) -> list[str]:
    """The report as Markdown lines. With ``cache`` (a JSON file) the played histories
    are kept there and read back by a later run with the same counts, so that only the
    judgement runs again (for trying thresholds)."""
    if quick:
        humans, scripts = 100, 10
    key = f"{humans}:{scripts}:{games}"
    stored: dict[str, Any] = {}
    if cache and Path(cache).exists():
        stored = json.loads(Path(cache).read_text())
        if stored.get("key") != key:
            stored = {}
    lines = [
        "## Evidence across games (integrity.player_signals)",
        "",
        f"{games} games a player; signals 5th / median / 95th percentile at the last judgement.",
        "",
        "| players | n | flagged | rate | median games to flag | engine share | pause CV "
        "| difficulty corr | speed ratio |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    populations = [("simulated people", human_style, humans)] + [
        (name, make, scripts) for name, make in (SCRIPTS | LOOKALIKES).items()
    ]
    for name, make, count in populations:
        if name not in stored:
            stored[name] = histories(make, count, games, seed=name)
            if cache:  # kept as it goes: a long run that fails keeps what it played
                Path(cache).write_text(json.dumps(stored | {"key": key}))
        result = summarise(stored[name])
        f = result["figures"]
        lines.append(
            f"| {name} | {count} | {result['flagged']} | {result['flagged'] / count:.1%} "
            f"| {result['games_to_flag'] or '-'} | {f['engine']} | {f['cv']} | {f['corr']} "
            f"| {f['speed']} |"
        )
    if cache:
        Path(cache).write_text(json.dumps(stored | {"key": key}))
    return lines + first_judgement(stored)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--humans", type=int, default=1000)
    parser.add_argument("--scripts", type=int, default=30)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cache", help="a JSON file keeping the played histories")
    args = parser.parse_args()
    print("\n".join(run(args.quick, args.humans, args.scripts, args.games, args.cache)))


if __name__ == "__main__":
    main()
