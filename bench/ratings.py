"""Do the ratings measure skill? A simulation with no web server (the model:
docs/ratings.md), then the costs of a rating update, ``rating_record_game`` and a pick at
my level on a scratch PostgreSQL database. ``python -m bench ratings --fit`` instead grades the
prior's reference puzzles (REFERENCE) and prints the table for ratings/prior.py and the
newcomer's figures for docs/ratings.md."""

from __future__ import annotations

import bisect
import json
import math
import os
import random
import sys
import time
from dataclasses import dataclass, field

from bench import load, spearman
from bench.stack import run_driver
from ops.stack import scratch_site
from ratings import glicko2
from ratings.outcome import ALPHA, base_seconds, game_outcome, predicted_seconds
from ratings.prior import PRIOR_DEVIATION, Fitted, levels_fit, prior_rating
from ratings.window import WINDOWS

TITLE = "## Ratings (Glicko-2 simulation, rating update, pick at my level)"
LEVEL_FILES = ("qqwing_simple", "qqwing_easy", "qqwing_intermediate", "qqwing_expert")
GAMES = 20_000
PLAYERS = 250
PUZZLES = 600
SKILL_SD = 300.0
DIFFICULTY_NOISE = 150.0
TIME_NOISE = 0.35
MISTAKE_RATE = 0.3
ABANDON_RATE = 0.04
PICK_BANK = 100_000
# The puzzles the prior is fitted on, per size the bank serves (data/puzzles).
REFERENCE = {
    4: ("gen_4x4_unique",),
    6: ("gen_6x6_levels",),
    9: LEVEL_FILES,
    16: ("gen_16x16_levels",),
}
GAME = {"size": 9, "hint_stages": 0, "aids": 0, "empty_cells": 50}  # every simulated game


def bank_scores(limit: int, rng: random.Random) -> list[int]:
    """Grader scores of ``limit`` 9x9 puzzles drawn evenly from the four QQWing levels."""
    from solver.logic.grade import grade

    per_file, scores = -(-limit // len(LEVEL_FILES)), []
    for name in LEVEL_FILES:
        grids = [grid for grid, _ in load(name)]
        scores += [grade(grid).score for grid in rng.sample(grids, min(per_file, len(grids)))]
    return scores[:limit]


def reference_grades(size: int, *, step: int = 1) -> list[tuple[str, int]]:
    """(level, score) of every ``step``-th reference puzzle of ``size``, graded now."""
    from solver.logic.grade import grade

    graded = []
    for name in REFERENCE[size]:
        for grid, _ in load(name)[::step]:
            rated = grade(grid)
            graded.append((rated.level, rated.score))
    return graded


def newcomer_rows(
    fitted: Fitted, size: int = 9
) -> list[tuple[str, float, float, float, float, list[float]]]:
    """Per level of ``fitted`` at ``size``: (level, median score, prior rating, the time
    the prior predicts for a newcomer, the newcomer's expected outcome, the newcomer's
    rating change for a clean solve in half, one and two times that time)."""
    newcomer = glicko2.Rating()
    rows = []
    for level, (log_score, *_) in fitted[size].items():
        score = math.exp(log_score)
        rating = prior_rating(size=size, score=round(score), fitted=fitted)
        puzzle = glicko2.Rating(rating, PRIOR_DEVIATION)
        seconds = predicted_seconds(
            size=size, player_rating=newcomer.rating, puzzle_rating=puzzle.rating
        )
        changes = []
        for factor in (0.5, 1.0, 2.0):
            outcome = game_outcome(
                completed=True, size=size, elapsed_ms=int(seconds * factor * 1000),
                mistakes=0, hint_stages=0, aids=0, empty_cells=50,
            )  # fmt: skip
            changes.append(glicko2.update_one(newcomer, puzzle, outcome).rating - 1500)
        expected = glicko2.expected_score(newcomer, puzzle)
        rows.append((level, score, puzzle.rating, seconds, expected, changes))
    return rows


def fit() -> list[str]:
    """The prior's table graded on the reference sets now, to paste into ratings/prior.py,
    and the newcomer's figures for docs/ratings.md."""
    from solver.logic.grade import GRADER_VERSION

    table = {size: levels_fit(reference_grades(size)) for size in REFERENCE}
    lines = [f"FITTED_FOR = {GRADER_VERSION}", "", "FITTED: Fitted = {"]
    for size, levels in table.items():
        lines.append(f"    {size}: {{")
        lines += [f'        "{level}": {fitted},' for level, fitted in levels.items()]
        lines.append("    },")
    lines += ["}", ""]
    lines += [
        "| level | median score | prior | newcomer's predicted time | newcomer's expected "
        "outcome | change: solve in half / the predicted / twice the time |",
        "|---|---|---|---|---|---|",
    ]
    for level, score, rating, seconds, expected, changes in newcomer_rows(table, 9):
        deltas = " / ".join(f"{c:+.0f}" for c in changes)
        lines.append(
            f"| {level} | {score:,.0f} | {rating:,.0f} | {_clock(seconds)} | {expected:.2f} "
            f"| {deltas} |"
        )
    return lines


def _clock(seconds: float) -> str:
    minutes = seconds / 60
    return f"{minutes:.1f} min" if minutes < 90 else f"{minutes / 60:.1f} h"


@dataclass
class Side:
    hidden: float
    rating: glicko2.Rating
    count: int = 0
    played: set[int] = field(default_factory=set)


@dataclass
class Simulation:
    players: list[Side]
    puzzles: list[Side]
    player_rho: float
    puzzle_rho: float
    players_counted: int
    puzzles_counted: int
    seconds: float


def simulate(
    *,
    scores: list[int],
    games: int,
    players: int,
    seed: int = 1,
    time_alpha: float = ALPHA,
    time_noise: float = TIME_NOISE,
) -> Simulation:
    """Run the simulation (docs/ratings.md) on puzzles with these grader scores.

    ``time_alpha`` and ``time_noise`` shape the solve-time model; other values than the
    outcome's own ALPHA test the ratings under a model they were not built for."""
    rng = random.Random(seed)
    people = [Side(rng.gauss(1500, SKILL_SD), glicko2.Rating()) for _ in range(players)]
    activity = [rng.lognormvariate(0, 0.8) for _ in people]
    puzzles = []
    for score in scores:
        start = prior_rating(size=9, score=score)
        hidden = start + rng.gauss(0, DIFFICULTY_NOISE)
        puzzles.append(Side(hidden, glicko2.Rating(start, PRIOR_DEVIATION)))
    # The (rating, index) pairs sorted, as the (size, rating) index holds them.
    index = sorted((p.rating.rating, i) for i, p in enumerate(puzzles))
    base = base_seconds(9)
    started = time.perf_counter()
    for _ in range(games):
        person = rng.choices(people, weights=activity)[0]
        picked = _pick(index, person, rng)
        if picked is None:
            continue
        puzzle = puzzles[picked]
        gap = puzzle.hidden - person.hidden
        seconds = base * math.exp(gap / (time_alpha * glicko2.SCALE) + rng.gauss(0, time_noise))
        mistakes = _poisson(rng, MISTAKE_RATE * math.exp(gap / 400))
        abandoned = rng.random() < ABANDON_RATE / (1 + math.exp(-gap / 200))
        outcome = game_outcome(
            completed=not abandoned, elapsed_ms=int(seconds * 1000), mistakes=mistakes, **GAME
        )
        before_person, before_puzzle = person.rating, puzzle.rating
        person.rating = glicko2.update_one(before_person, before_puzzle, outcome)
        puzzle.rating = glicko2.update_one(before_puzzle, before_person, 1 - outcome)
        index.remove((before_puzzle.rating, picked))
        bisect.insort(index, (puzzle.rating.rating, picked))
        person.count += 1
        puzzle.count += 1
        person.played.add(picked)
    seconds = time.perf_counter() - started
    rated_people = [p for p in people if p.count >= 30]
    rated_puzzles = [p for p in puzzles if p.count >= 20]
    rhos = (_rho(rated_people), _rho(rated_puzzles), len(rated_people), len(rated_puzzles))
    return Simulation(people, puzzles, *rhos, seconds)


def _rho(sides: list[Side]) -> float:
    if len(sides) < 3:
        return float("nan")
    return spearman([s.rating.rating for s in sides], [s.hidden for s in sides])


def _poisson(rng: random.Random, mean: float) -> int:
    limit, k, p = math.exp(-mean), 0, rng.random()
    while p > limit:
        k += 1
        p *= rng.random()
    return k


def _pick(index: list[tuple[float, int]], person: Side, rng: random.Random) -> int | None:
    """ratings.selectors.puzzle_pick_at_level, in memory: the nearest unplayed puzzle
    upwards (else downwards) from a random point in the first window that has one."""
    target = person.rating.rating
    for half in WINDOWS:
        low, high = (target - half, target + half) if half else (-math.inf, math.inf)
        pivot = target + rng.uniform(-half / 2, half / 2) if half else target
        at = bisect.bisect_left(index, (pivot, -1))
        for scan in (range(at, len(index)), range(at - 1, -1, -1)):  # upwards, then down
            for rating, which in map(index.__getitem__, scan):
                if not low <= rating <= high:
                    break
                if which not in person.played:
                    return which
    return None


def update_cost(rounds: int = 20_000) -> float:
    """Microseconds for one game's rating work in Python: the outcome and both updates."""
    rng = random.Random(3)
    player, puzzle = glicko2.Rating(1600, 120), glicko2.Rating(1500, 90)
    started = time.perf_counter()
    for _ in range(rounds):
        elapsed_ms, mistakes = rng.randint(60_000, 3_600_000), rng.randint(0, 3)
        outcome = game_outcome(completed=True, elapsed_ms=elapsed_ms, mistakes=mistakes, **GAME)
        glicko2.update_one(player, puzzle, outcome)
        glicko2.update_one(puzzle, player, 1 - outcome)
    return (time.perf_counter() - started) / rounds * 1e6


def _costs(count: int) -> None:
    """Fill the scratch database and time the rating work on it (in a subprocess)."""
    import django

    django.setup()
    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.factories import UserFactory
    from play.models import Game
    from puzzles.models import Puzzle
    from ratings.models import PlayerRating, PuzzleRating
    from ratings.selectors import _unplayed, puzzle_pick_at_level
    from ratings.services import rating_record_game

    rng, now = random.Random(5), timezone.now()
    puzzles = Puzzle.objects.bulk_create(
        (Puzzle(size=9, box_rows=3, box_cols=3, givens=f"{i:081d}", solution="1" * 81,
                difficulty="medium", score=rng.randint(50, 20000), clue_count=30,
                canonical_key=f"{i:064x}", source="imported") for i in range(count)),
        batch_size=5000,
    )  # fmt: skip
    ratings = [(puzzle, rng.gauss(1500, 350)) for puzzle in puzzles]
    PuzzleRating.objects.bulk_create(
        (PuzzleRating(puzzle=p, size=9, rating=r, deviation=120, prior=r) for p, r in ratings),
        batch_size=5000,
    )
    user = UserFactory()
    PlayerRating.objects.create(user=user, size=9, rating=1500, deviation=80)
    # The player has played the 300 puzzles just above their rating: the pick walks past them.
    rated = PuzzleRating.objects.filter(size=9).order_by("rating").values_list("puzzle_id")
    played = [pk for (pk,) in rated.filter(rating__gte=1500)[:300]]
    done = {"user": user, "entries": "." * 81, "status": "completed", "finished": now}
    Game.objects.bulk_create(Game(puzzle_id=pk, score=1, **done) for pk in played)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    started = time.perf_counter()
    for _ in range(300):
        puzzle_pick_at_level(user=user, size=9, rng=rng)
    pick_ms = (time.perf_counter() - started) / 300 * 1000
    window = _unplayed(user, 9).filter(rating__gte=1400, rating__lte=1600).filter(rating__gte=1500)
    plan = window.select_related("puzzle").order_by("rating")[:1].explain(analyze=True)
    # rating_record_game, one per finished game the gate let count, each in its own
    # transaction.
    free = [pk for (pk,) in rated.filter(rating__lt=1300)[:300]]
    games = [Game(puzzle_id=pk, elapsed_ms=rng.randint(100_000, 2_000_000), ranked=True,
                  counts=True, **done)
             for pk in free]  # fmt: skip
    Game.objects.bulk_create(games)
    games = list(Game.objects.filter(pk__in=[g.pk for g in games]).select_related("puzzle"))
    started = time.perf_counter()
    for game in games:
        with transaction.atomic():
            rating_record_game(game=game)
    record_ms = (time.perf_counter() - started) / len(games) * 1000
    bank = PuzzleRating.objects.count()
    print(json.dumps({"pick_ms": pick_ms, "record_ms": record_ms, "plan": plan, "bank": bank}))


def run(quick: bool = False) -> list[str]:
    games, players = (4_000, PLAYERS // 3) if quick else (GAMES, PLAYERS)
    scores = bank_scores(PUZZLES // 3 if quick else PUZZLES, random.Random(11))
    sim = simulate(scores=scores, games=games, players=players)
    # The same games under a solve-time model the outcome was not built for: time twice
    # as sensitive to the skill gap and twice as noisy.
    harsh = simulate(scores=scores, games=games, players=players, time_alpha=ALPHA / 2,
                     time_noise=2 * TIME_NOISE)  # fmt: skip
    counted = [(s, p.hidden) for s, p in zip(scores, sim.puzzles, strict=True) if p.count >= 20]
    prior_rho = spearman(*zip(*counted, strict=True)) if len(counted) > 2 else float("nan")
    lines = [
        TITLE,
        "",
        f"Simulation: {games:,} games, {len(sim.players)} players, {len(sim.puzzles)} QQWing "
        f"9x9 puzzles, {sim.seconds:.1f} s.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| Spearman, players with 30+ games ({sim.players_counted}) | {sim.player_rho:.3f} |",
        f"| Spearman, puzzles with 20+ plays ({sim.puzzles_counted}) | {sim.puzzle_rho:.3f} |",
        f"| same, solve times twice as sensitive and twice as noisy: players "
        f"({harsh.players_counted}) / puzzles ({harsh.puzzles_counted}) | "
        f"{harsh.player_rho:.3f} / {harsh.puzzle_rho:.3f} |",
        f"| Spearman, grader prior alone vs hidden (same puzzles) | {prior_rho:.3f} |",
        f"| one game's rating work in Python (outcome + both updates) | "
        f"{update_cost(5_000 if quick else 20_000):.0f} µs |",
    ]
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        return [*lines, "", "PostgreSQL costs skipped: set DATABASE_URL=postgres://..."]
    with scratch_site(url, "_ratingbench") as env:
        costs = run_driver(env, "bench.ratings", "costs", str(10_000 if quick else PICK_BANK))
    return [
        *lines,
        f"| rating_record_game on PostgreSQL (one transaction) | {costs['record_ms']:.2f} ms |",
        f"| pick at my level, bank of {costs['bank']:,} rated 9x9 puzzles "
        f"| {costs['pick_ms']:.2f} ms |",
        "",
        "The first window's query (EXPLAIN ANALYZE; the 300 puzzles just above the player's "
        "rating, where it starts, are played):",
        "",
        "```",
        *costs["plan"].splitlines(),
        "```",
    ]


if __name__ == "__main__" and sys.argv[1:2] == ["costs"]:
    _costs(int(sys.argv[2]))
elif __name__ == "__main__" and sys.argv[1:2] == ["--fit"]:
    print("\n".join(fit()))
