"""Rating a game: both sides' Glicko-2 updates, once, in the transaction that ends it.

A game moves the player's rating of its puzzle's variant and size (classic 9x9 and
Killer 9x9 are two ratings) and the puzzle's own.

``rating_record_game`` is called by the gate (integrity.gate, from play.ending.game_ended)
right after the conditional write that finishes a game (completion, loss at the mistake
limit, abandon) has succeeded, in the same transaction: if the game's write rolls back,
so does its rating, and a game whose write did not happen (a retry, a race lost) is
never rated.

Once: the ``RatingChange`` row is unique per game, and the ratings are written only
when that row is inserted, so even a second call for one game changes nothing.

Lock order, always: the player's rating row, then the puzzle's. Two players finishing
one puzzle at once hold their own player rows and queue on the puzzle row; the second
reads the first one's result (an upsert reads the latest committed row, not its
snapshot) and both updates count. No path takes the puzzle's row first, so no deadlock.

Cost at completion, on PostgreSQL: three statements. (1) upsert-and-lock the player's
rating (a newcomer's row is made by it), (2) upsert-and-lock the puzzle's (a puzzle
without one starts at its grader prior), (3) one statement inserting the history row
and, only if it was inserted, updating both ratings (data-modifying WITH). SQLite runs
the last as three statements in the caller's transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from . import glicko2
from .glicko2 import Rating
from .models import PlayerRating, PuzzleRating, RatingChange
from .outcome import game_outcome
from .prior import PRIOR_DEVIATION, prior_rating, variant_prior_rating

REPRIOR_BATCH = 1000

if TYPE_CHECKING:
    from play.models import Game
    from puzzles.models import Puzzle

# One rating period: a player's deviation grows by one period's volatility per day idle.
PERIOD_SECONDS = 86_400.0


def game_is_rateable(game: Game) -> bool:
    """Whether ``game`` moves ratings: finished, and counted by the gate
    (integrity.gate, which stored ``counts``: never a guest's game, a typed-in or
    imported-by-a-player puzzle of any variant, a replay, or a game flagged or too short
    to review). Every variant is rated, per variant and size."""
    from play.models import FINISHED

    return game.user_id is not None and game.counts is True and game.status in FINISHED


def _q(name: str) -> str:
    return transaction.get_connection().ops.quote_name(name)


@cache
def _player_upsert_sql() -> str:
    table = _q(PlayerRating._meta.db_table)
    return (
        f"INSERT INTO {table} (user_id, variant, size, rating, deviation, volatility, games) "
        "VALUES (%s, %s, %s, %s, %s, %s, 0) "
        f"ON CONFLICT (user_id, variant, size) DO UPDATE SET games = {table}.games "
        "RETURNING id, rating, deviation, volatility, last_played"
    )


@cache
def _puzzle_upsert_sql() -> str:
    table = _q(PuzzleRating._meta.db_table)
    return (
        f"INSERT INTO {table} "
        "(puzzle_id, variant, size, rating, deviation, volatility, plays, prior) "
        "VALUES (%s, %s, %s, %s, %s, %s, 0, %s) "
        f"ON CONFLICT (puzzle_id) DO UPDATE SET plays = {table}.plays "
        "RETURNING rating, deviation, volatility"
    )


_HISTORY_COLUMNS = (
    "game_id",
    "user_id",
    "puzzle_id",
    "variant",
    "size",
    "outcome",
    "player_before",
    "player_after",
    "player_deviation",
    "puzzle_before",
    "puzzle_after",
    "puzzle_deviation",
    "created",
)


@cache
def _write_sqls() -> tuple[str, str, str]:
    history = (
        f"INSERT INTO {_q(RatingChange._meta.db_table)} ({', '.join(_HISTORY_COLUMNS)}) "
        f"VALUES ({', '.join(['%s'] * len(_HISTORY_COLUMNS))}) "
        "ON CONFLICT (game_id) DO NOTHING"
    )
    player = (
        f"UPDATE {_q(PlayerRating._meta.db_table)} SET rating = %s, deviation = %s, "
        "volatility = %s, games = games + 1, last_played = %s WHERE id = %s"
    )
    puzzle = (
        f"UPDATE {_q(PuzzleRating._meta.db_table)} SET rating = %s, deviation = %s, "
        "volatility = %s, plays = plays + 1 WHERE puzzle_id = %s"
    )
    return history, player, puzzle


@cache
def _write_sql_postgresql() -> str:
    history, player, puzzle = _write_sqls()
    return (
        f"WITH h AS ({history} RETURNING 1), "
        f"p AS ({player} AND EXISTS (SELECT 1 FROM h) RETURNING 1), "
        f"q AS ({puzzle} AND EXISTS (SELECT 1 FROM h) RETURNING 1) "
        "SELECT (SELECT count(*) FROM h), (SELECT count(*) FROM p), (SELECT count(*) FROM q)"
    )


def puzzle_prior(puzzle: Puzzle) -> float:
    """A puzzle's starting rating: from the classic grader's score, or for a variant from
    the level and hardest technique its variant logic gave (ratings.prior)."""
    if puzzle.variant != "classic":
        return variant_prior_rating(level=puzzle.difficulty, hardest=puzzle.hardest_technique)
    return prior_rating(size=puzzle.size, score=puzzle.score)


def puzzle_rating_new(puzzle: Puzzle) -> PuzzleRating:
    """A puzzle's starting rating (not saved): its prior, with a wide deviation."""
    start = puzzle_prior(puzzle)
    return PuzzleRating(
        puzzle=puzzle,
        variant=puzzle.variant,
        size=puzzle.size,
        rating=start,
        prior=start,
        deviation=PRIOR_DEVIATION,
    )


def _when(value: datetime | str | None) -> datetime | None:
    """A timestamp read back by raw SQL: SQLite gives text or a naive UTC datetime."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


def rating_record_game(*, game: Game) -> RatingChange | None:
    """Rate a finished game for both sides (module docstring); None when it is not rated
    (``game_is_rateable``) or was rated before. Must run inside the transaction of the
    write that finished the game. The change is attached to ``game`` (and the puzzle's
    new rating to ``game.puzzle``) for the answer to show without another query."""
    if not game_is_rateable(game):
        return None
    puzzle = game.puzzle
    when = game.finished or timezone.now()
    connection = transaction.get_connection()
    start = puzzle_rating_new(puzzle)
    with connection.cursor() as cursor:
        cursor.execute(
            _player_upsert_sql(),
            [
                game.user_id,
                puzzle.variant,
                puzzle.size,
                glicko2.BASE_RATING,
                glicko2.START_DEVIATION,
                glicko2.START_VOLATILITY,
            ],
        )
        player_id, *values, last_played = cursor.fetchone()
        player = Rating(*values)
        cursor.execute(
            _puzzle_upsert_sql(),
            [
                puzzle.pk,
                puzzle.variant,
                puzzle.size,
                start.rating,
                start.deviation,
                start.volatility,
                start.prior,
            ],
        )
        opponent = Rating(*cursor.fetchone())
        last_played = _when(last_played)
        if last_played is not None:
            player = glicko2.idle(player, (when - last_played).total_seconds() / PERIOD_SECONDS)
        outcome = game_outcome(
            completed=game.status == "completed",
            size=puzzle.size,
            elapsed_ms=game.elapsed_ms,
            mistakes=game.mistakes,
            hint_stages=game.hints_used,
            aids=game.aids,
            empty_cells=puzzle.givens.count("."),
        )
        # Both sides from the ratings before the game; the puzzle's result is the
        # complement of the player's.
        player_new = glicko2.update_one(player, opponent, outcome)
        puzzle_new = glicko2.update_one(opponent, player, 1.0 - outcome)
        change = RatingChange(
            game=game,
            user_id=game.user_id,
            puzzle=puzzle,
            variant=puzzle.variant,
            size=puzzle.size,
            outcome=outcome,
            player_before=player.rating,
            player_after=player_new.rating,
            player_deviation=player_new.deviation,
            puzzle_before=opponent.rating,
            puzzle_after=puzzle_new.rating,
            puzzle_deviation=puzzle_new.deviation,
            created=when,
        )
        created = RatingChange._meta.get_field("created").get_db_prep_value(when, connection)
        history = [getattr(change, c) for c in _HISTORY_COLUMNS[:-1]] + [created]
        history[0], history[1], history[2] = game.pk, game.user_id, puzzle.pk
        player_set = [
            player_new.rating,
            player_new.deviation,
            player_new.volatility,
            created,
            player_id,
        ]
        puzzle_set = [puzzle_new.rating, puzzle_new.deviation, puzzle_new.volatility, puzzle.pk]
        if connection.vendor == "postgresql":
            cursor.execute(_write_sql_postgresql(), [*history, *player_set, *puzzle_set])
            inserted = cursor.fetchone()[0] == 1
        else:
            history_sql, player_sql, puzzle_sql = _write_sqls()
            cursor.execute(history_sql, history)
            inserted = cursor.rowcount == 1
            if inserted:
                cursor.execute(player_sql, player_set)
                cursor.execute(puzzle_sql, puzzle_set)
    if not inserted:
        return None
    game.rating_change = change
    puzzle.rating = PuzzleRating(
        puzzle=puzzle,
        variant=puzzle.variant,
        size=puzzle.size,
        rating=puzzle_new.rating,
        deviation=puzzle_new.deviation,
        volatility=puzzle_new.volatility,
        prior=start.prior,
    )
    return change


def rating_changes_reverse(*, user_id: int, game_ids: list[int] | None, back: bool) -> int:
    """Take back (``back``) or give again the rating changes of the player's games, both
    sides: a hold undoes what the games that held a player did to their rating and to the
    puzzles' (``game_ids``: the games judged; None with ``back`` False gives back every
    change a hold took). One service both ways, each change moved once: its ``reversed``
    flag is read and flipped under the rows' locks, so two calls at once, or a call and a
    game's end, take turns. How many changes moved.

    The player's delta (``player_after - player_before``) and the puzzle's are subtracted
    from (added to) the current ratings, and the games and plays counted down (up); the
    deviations stay as the games left them (they only say how sure the rating is). Lock
    order as ``rating_record_game``: the player's rating rows, then the puzzles' (by id).
    Runs in the caller's transaction (or its own)."""
    with transaction.atomic():
        boards = PlayerRating.objects.select_for_update().filter(user_id=user_id).order_by("id")
        players = {(r.variant, r.size): r for r in boards}
        changes = RatingChange.objects.filter(user_id=user_id, reversed=not back)
        if game_ids is not None:
            changes = changes.filter(game_id__in=game_ids)
        rows = list(changes.select_for_update().order_by("created", "id")[:1000])
        if not rows:
            return 0
        puzzles = {
            r.puzzle_id: r
            for r in PuzzleRating.objects.select_for_update()
            .filter(puzzle_id__in={c.puzzle_id for c in rows})
            .order_by("puzzle_id")
        }
        sign = -1 if back else 1
        for change in rows:
            player = players.get((change.variant, change.size))
            if player is not None:
                player.rating += sign * change.player_delta
                player.games = max(0, player.games + sign)
            puzzle = puzzles.get(change.puzzle_id)
            if puzzle is not None:
                puzzle.rating += sign * change.puzzle_delta
                puzzle.plays = max(0, puzzle.plays + sign)
        PlayerRating.objects.bulk_update(list(players.values()), ["rating", "games"])
        PuzzleRating.objects.bulk_update(list(puzzles.values()), ["rating", "plays"])
        RatingChange.objects.filter(pk__in=[c.pk for c in rows]).update(reversed=back)
    return len(rows)


def puzzle_ratings_backfill(*, size: int | None = None, variant: str | None = None) -> int:
    """Give every stored puzzle without a rating (of ``size`` and ``variant`` when given)
    its starting one (one query to find them, inserts in batches). Returns how many were
    made."""
    from puzzles.models import BANK_SOURCES, Puzzle

    # A typed-in or practice puzzle, or one with constraints, is never rated against
    # (integrity.gate), so it needs no rating.
    missing = Puzzle.objects.filter(rating__isnull=True, source__in=BANK_SOURCES, constrained=False)
    if size is not None:
        missing = missing.filter(size=size)
    if variant is not None:
        missing = missing.filter(variant=variant)
    made = 0
    batch: list[PuzzleRating] = []
    fields = ("pk", "variant", "size", "score", "difficulty", "hardest_technique")
    for puzzle in missing.only(*fields).iterator(2000):
        batch.append(puzzle_rating_new(puzzle))
        if len(batch) >= 2000:
            made += len(PuzzleRating.objects.bulk_create(batch, ignore_conflicts=True))
            batch = []
    made += len(PuzzleRating.objects.bulk_create(batch, ignore_conflicts=True))
    return made


@dataclass(frozen=True, slots=True)
class Reprior:
    """What ``puzzle_ratings_reprior`` did (or, dry, would do) to the stored ratings."""

    reset: int = 0
    played: int = 0
    unchanged: int = 0
    stale: int = 0


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def puzzle_ratings_reprior(
    *, batch: int = REPRIOR_BATCH, dry_run: bool = False, size: int | None = None
) -> Reprior:
    """Put the stored puzzle ratings on the current prior (ratings.prior).

    A puzzle with no rated game (``plays == 0``) starts again from its prior: rating,
    prior, deviation and volatility as ``puzzle_rating_new`` makes them (``reset``). A
    puzzle with rated games keeps its Glicko state, which games have moved, and records
    the new prior beside it for the admin's "rating disagrees with grade" (``played``).
    A classic puzzle graded by an older grader is left alone (``stale``): regrade the
    bank, then run this again. A variant puzzle's prior comes from its variant logic's
    level (ratings.prior), which the classic grader's version does not touch.

    Walks the ratings by puzzle id in batches of ``batch``, each its own transaction with
    its rows locked, so a game finishing meanwhile either waits and rates against the new
    prior or has counted its play first (and then its rating is kept); a dry run locks
    nothing. Idempotent: a second run finds everything ``unchanged``."""
    from solver.logic.grade import GRADER_VERSION

    counts = {"reset": 0, "played": 0, "unchanged": 0, "stale": 0}
    rows = PuzzleRating.objects.select_related("puzzle").only(
        "rating", "deviation", "volatility", "plays", "prior", "variant", "size",
        "puzzle__variant", "puzzle__size", "puzzle__score", "puzzle__grader_version",
        "puzzle__difficulty", "puzzle__hardest_technique",
    ).order_by("puzzle_id")  # fmt: skip
    if size is not None:
        rows = rows.filter(size=size)
    if not dry_run:
        rows = rows.select_for_update(of=("self",))
    last = 0
    while True:
        with transaction.atomic():
            chunk = list(rows.filter(puzzle_id__gt=last)[:batch])
            if not chunk:
                break
            last = chunk[-1].puzzle_id
            changed = [row for row in chunk if _reprior_row(row, GRADER_VERSION, counts)]
            if changed and not dry_run:
                fields = ["rating", "prior", "deviation", "volatility"]
                PuzzleRating.objects.bulk_update(changed, fields)
    return Reprior(**counts)


def _reprior_row(row: PuzzleRating, grader_version: int, counts: dict[str, int]) -> bool:
    """Set ``row`` to the current prior (in memory); whether it changed."""
    if row.puzzle.variant == "classic" and row.puzzle.grader_version != grader_version:
        counts["stale"] += 1
        return False
    start = puzzle_rating_new(row.puzzle)
    if row.plays:
        if _close(row.prior, start.prior):
            counts["unchanged"] += 1
            return False
        row.prior = start.prior
        counts["played"] += 1
        return True
    state = (row.rating, row.prior, row.deviation, row.volatility)
    target = (start.rating, start.prior, start.deviation, start.volatility)
    if all(_close(a, b) for a, b in zip(state, target, strict=True)):
        counts["unchanged"] += 1
        return False
    row.rating, row.prior, row.deviation, row.volatility = target
    counts["reset"] += 1
    return True
