"""Do the ratings measure skill? A simulation with no web server, then the costs.

The simulation (no database): PLAYERS synthetic players with a hidden skill, and puzzles
from the bank whose hidden difficulty is their grader score's prior rating plus noise.
Each game, a player (chosen with uneven activity) takes an unplayed puzzle "at my level"
(ratings.selectors' widening window, in memory), and the game is drawn from this model:

    ln t      = ln base(9) + (difficulty - skill) / (ALPHA x 173.7178) + N(0, TIME_NOISE)
    mistakes  ~ Poisson(MISTAKE_RATE x exp((difficulty - skill) / 400))
    abandoned with probability ABANDON_RATE x logistic((difficulty - skill) / 200)

then rated by ratings.outcome and ratings.glicko2 exactly as the server does. After
GAMES games it reports the Spearman correlation between ratings and hidden values for
players with 30+ games and puzzles with 20+ plays (goal >= 0.9).

The costs (PostgreSQL, a scratch database ``<DATABASE_URL's name>_ratingbench``): one
rating update in pure Python (both sides), one ``rating_record_game`` in a transaction,
and one "at my level" pick on a bank of 100,000 rated puzzles, with the EXPLAIN plan.

``python -m bench ratings`` (``--quick``: 4,000 games, 10,000 puzzles for the pick).
"""

from __future__ import annotations

import bisect
import json
import math
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ratings import glicko2  # noqa: E402
from ratings.outcome import ALPHA, base_seconds, game_outcome  # noqa: E402
from ratings.prior import PRIOR_DEVIATION, prior_rating  # noqa: E402
from ratings.window import WINDOWS  # noqa: E402

TITLE = "## Ratings (Glicko-2 simulation, rating update, pick at my level)"
DATA = ROOT.parent / "shared" / "data" / "puzzles"
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


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (ties share their mean rank)."""

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy)


def bank_scores(limit: int, rng: random.Random) -> list[int]:
    """Grader scores of ``limit`` 9x9 puzzles drawn evenly from the four QQWing levels."""
    from solver import parse
    from solver.grade import grade

    per_file = -(-limit // len(LEVEL_FILES))
    scores = []
    for name in LEVEL_FILES:
        lines = [line.strip() for line in (DATA / f"{name}.txt").open() if line.strip()]
        for line in rng.sample(lines, min(per_file, len(lines))):
            scores.append(grade(parse(line)).score)
    return scores[:limit]


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
    """Run the simulation of the module docstring on puzzles with these grader scores.

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
            completed=not abandoned,
            size=9,
            elapsed_ms=int(seconds * 1000),
            mistakes=mistakes,
            hint_stages=0,
            aids=0,
            empty_cells=50,
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
    return Simulation(
        players=people,
        puzzles=puzzles,
        player_rho=_rho(rated_people),
        puzzle_rho=_rho(rated_puzzles),
        players_counted=len(rated_people),
        puzzles_counted=len(rated_puzzles),
        seconds=seconds,
    )


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
        for i in range(at, len(index)):
            rating, which = index[i]
            if rating > high:
                break
            if which not in person.played:
                return which
        for i in range(at - 1, -1, -1):
            rating, which = index[i]
            if rating < low:
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
        outcome = game_outcome(
            completed=True,
            size=9,
            elapsed_ms=rng.randint(60_000, 3_600_000),
            mistakes=rng.randint(0, 3),
            hint_stages=0,
            aids=0,
            empty_cells=50,
        )
        glicko2.update_one(player, puzzle, outcome)
        glicko2.update_one(puzzle, player, 1 - outcome)
    return (time.perf_counter() - started) / rounds * 1e6


# --- The costs on PostgreSQL ----------------------------------------------------------

DRIVER = r"""
import json, random, sys, time
import django
django.setup()
from django.db import connection, transaction
from django.utils import timezone
from accounts.factories import UserFactory
from play.models import Game
from puzzles.models import Puzzle
from ratings.models import PlayerRating, PuzzleRating
from ratings.selectors import puzzle_pick_at_level, _unplayed
from ratings.services import rating_record_game

count = int(sys.argv[1])
rng = random.Random(5)
rows = []
for i in range(count):
    key = f"{i:064x}"
    rows.append(Puzzle(size=9, box_rows=3, box_cols=3, givens=f"{i:081d}",
                       solution="1" * 81, difficulty="medium", score=rng.randint(50, 20000),
                       clue_count=30, canonical_key=key, source="imported"))
    if len(rows) == 5000:
        Puzzle.objects.bulk_create(rows); rows = []
Puzzle.objects.bulk_create(rows)
ids = list(Puzzle.objects.values_list("id", flat=True))
ratings = []
for pk in ids:
    r = rng.gauss(1500, 350)
    ratings.append(PuzzleRating(puzzle_id=pk, size=9, rating=r, deviation=120, prior=r))
    if len(ratings) == 5000:
        PuzzleRating.objects.bulk_create(ratings); ratings = []
PuzzleRating.objects.bulk_create(ratings)
user = UserFactory()
PlayerRating.objects.create(user=user, size=9, rating=1500, deviation=80)
# The player has played the 300 puzzles just above their rating: the pick walks past them.
near = (PuzzleRating.objects.filter(size=9, rating__gte=1500).order_by("rating")
        .values_list("puzzle_id", flat=True)[:300])
now = timezone.now()
Game.objects.bulk_create(Game(user=user, puzzle_id=pk, entries="." * 81, status="completed",
                              finished=now, score=1) for pk in near)
with connection.cursor() as c:
    c.execute("VACUUM ANALYZE")
picks = 300
started = time.perf_counter()
for _ in range(picks):
    puzzle_pick_at_level(user=user, size=9, rng=rng)
pick_ms = (time.perf_counter() - started) / picks * 1000
query = (_unplayed(user, 9).filter(rating__gte=1400, rating__lte=1600)
         .filter(rating__gte=1500).select_related("puzzle").order_by("rating")[:1])
plan = query.explain(analyze=True)
# rating_record_game, one per finished game, each in its own transaction.
games = []
free = list(PuzzleRating.objects.filter(rating__lt=1300).values_list("puzzle_id", flat=True)[:300])
for pk in free:
    games.append(Game(user=user, puzzle_id=pk, entries="." * 81, status="completed",
                      finished=now, elapsed_ms=rng.randint(100_000, 2_000_000), ranked=True))
Game.objects.bulk_create(games)
games = list(Game.objects.filter(pk__in=[g.pk for g in games]).select_related("puzzle"))
started = time.perf_counter()
for game in games:
    with transaction.atomic():
        rating_record_game(game=game)
record_ms = (time.perf_counter() - started) / len(games) * 1000
print(json.dumps({"pick_ms": pick_ms, "record_ms": record_ms, "plan": plan,
                  "bank": PuzzleRating.objects.count()}))
"""


def _scratch(url: str) -> tuple[str, str, str]:
    parts = urlsplit(url)
    name = parts.path.lstrip("/") + "_ratingbench"
    return (
        urlunsplit(parts._replace(path=f"/{name}")),
        name,
        urlunsplit(parts._replace(path="/postgres")),
    )


def database_costs(url: str, bank: int) -> dict | str:
    """The PostgreSQL figures, or why they could not be measured."""
    import psycopg

    scratch, name, maintenance = _scratch(url)
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    env = {**os.environ, "DATABASE_URL": scratch, "DEBUG": "1"}
    env["DJANGO_SETTINGS_MODULE"] = "sudokusite.settings"
    try:
        migrated = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "--skip-checks", "-v0"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        if migrated.returncode != 0:
            return f"migrating {name} failed: {migrated.stderr.strip()[-300:]}"
        driven = subprocess.run(
            [sys.executable, "-c", DRIVER, str(bank)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200,
        )  # fmt: skip
        if driven.returncode != 0:
            return f"the driver failed: {driven.stderr.strip()[-500:]}"
        return json.loads(driven.stdout.strip().splitlines()[-1])
    finally:
        with psycopg.connect(maintenance, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run(quick: bool = False) -> list[str]:
    games = 4_000 if quick else GAMES
    rng = random.Random(11)
    scores = bank_scores(PUZZLES // 3 if quick else PUZZLES, rng)
    sim = simulate(scores=scores, games=games, players=PLAYERS // 3 if quick else PLAYERS)
    # The same games under a solve-time model the outcome was not built for: time twice
    # as sensitive to the skill gap (ALPHA 0.75) and twice as noisy.
    harsh = simulate(
        scores=scores,
        games=games,
        players=PLAYERS // 3 if quick else PLAYERS,
        time_alpha=ALPHA / 2,
        time_noise=2 * TIME_NOISE,
    )
    lines = [
        TITLE,
        "",
        f"Simulation: {games:,} games, {len(sim.players)} players (hidden skill "
        f"N(1500, {SKILL_SD:.0f})), {len(sim.puzzles)} QQWing 9x9 puzzles (hidden difficulty "
        f"= grader prior + N(0, {DIFFICULTY_NOISE:.0f})), time noise {TIME_NOISE} in ln t, "
        f"{sim.seconds:.1f} s.",
        "",
        "| measure | value | goal |",
        "|---|---|---|",
        f"| Spearman, players with 30+ games ({sim.players_counted}) | "
        f"{sim.player_rho:.3f} | >= 0.9 |",
        f"| Spearman, puzzles with 20+ plays ({sim.puzzles_counted}) | "
        f"{sim.puzzle_rho:.3f} | >= 0.9 |",
        f"| same, solve times twice as sensitive and twice as noisy: players "
        f"({harsh.players_counted}) / puzzles ({harsh.puzzles_counted}) | "
        f"{harsh.player_rho:.3f} / {harsh.puzzle_rho:.3f} | >= 0.9 |",
        f"| Spearman, grader prior alone vs hidden (same puzzles) | "
        f"{_prior_rho(sim, scores):.3f} | (the baseline) |",
        f"| one game's rating work in Python (outcome + both updates) | "
        f"{update_cost(5_000 if quick else 20_000):.0f} µs | |",
    ]
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        lines += ["", "PostgreSQL costs skipped: set DATABASE_URL=postgres://..."]
        return lines
    bank = 10_000 if quick else PICK_BANK
    costs = database_costs(url, bank)
    if isinstance(costs, str):
        lines += ["", f"PostgreSQL costs skipped: {costs}"]
        return lines
    lines += [
        f"| rating_record_game on PostgreSQL (3 statements, one transaction) | "
        f"{costs['record_ms']:.2f} ms | |",
        f"| pick at my level, bank of {costs['bank']:,} rated 9x9 puzzles | "
        f"{costs['pick_ms']:.2f} ms | |",
        "",
        "The first window's query (EXPLAIN ANALYZE; the player has played the 300 puzzles "
        "just above their rating, where it starts):",
        "",
        "```",
        *costs["plan"].splitlines(),
        "```",
    ]
    return lines


def _prior_rho(sim: Simulation, scores: list[int]) -> float:
    counted = [(s, p) for s, p in zip(scores, sim.puzzles, strict=True) if p.count >= 20]
    if len(counted) < 3:
        return float("nan")
    return spearman([float(s) for s, _ in counted], [p.hidden for _, p in counted])


if __name__ == "__main__":
    print("\n".join(run(quick="--quick" in sys.argv)))
