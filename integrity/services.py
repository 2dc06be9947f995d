"""Reviewing a completed game, and staff's verdict on a flagged one.

``game_review`` is called once per completed game, inside the transaction of the write
that completes it, before anything that reads the result for ratings. It costs a few
queries at completion only (the move log and one insert), never on an ordinary move.
"""

from __future__ import annotations

import logging
from typing import Any

from play.board import value_of
from play.models import Game, Move, MoveKind, Status
from puzzles.variants import rules_of
from solver.logic.engines import engine_for
from sudokusite.unique import insert_or_existing

from .models import EXEMPT_PERMISSION, GameReview, Verdict
from .signals import Event, game_signals
from .trace import game_trace

logger = logging.getLogger(__name__)


def _events(game: Game) -> list[Event]:
    """The game's log as events, with the game clock (paused time excluded) after each."""
    fields = ["kind", "cell", "value", "correct", "changes", "response", "elapsed_ms"]
    events = []
    for row in Move.objects.filter(game=game).order_by("seq").values(*fields):
        clock = int(row["elapsed_ms"])
        response = row["response"] or {}
        placement = (
            row["kind"] == MoveKind.VALUE
            and bool(row["value"])
            and row["cell"] is not None
            and "aid" not in response
        )
        changes = row["changes"] or {}
        entries = tuple((c, value_of(after)) for c, _, after in changes.get("entries", []))
        events.append(
            Event(
                kind=row["kind"],
                cell=row["cell"],
                value=row["value"],
                clock_ms=clock,
                placement=placement,
                correct=row["correct"],
                entries=entries,
            )
        )
    return events


def game_reviewable(game: Game) -> bool:
    """A completed ranked game of a player with an account (signed in, or a guest's game
    claimed at sign-up or sign-in: integrity.gate decides what it counts for)."""
    return game.status == Status.COMPLETED and game.ranked and game.user_id is not None


def _exempt(game: Game) -> bool:
    """A player staff marked as scripted or vetted (``EXEMPT_PERMISSION``) is not flagged;
    asked only of a game that would be, so a plausible game costs no permission query."""
    return game.user.has_perm(EXEMPT_PERMISSION)


def game_review(*, game: Game) -> GameReview | None:
    """Compute the signals of a completed game and store its review (None when the game is
    not reviewable). Running it again for the same game returns the stored review."""
    if not game_reviewable(game):
        return None
    puzzle = game.puzzle
    events = _events(game)
    givens = [value_of(ch) for ch in puzzle.givens]
    solution = [value_of(ch) for ch in puzzle.solution]
    # The puzzle's rules choose the logic engine that judges which placements were
    # findable: the classic one, or the variant one with its houses, cages and techniques.
    engine = engine_for(rules_of(puzzle))
    signals = game_signals(
        events,
        shape=puzzle.shape,
        givens=givens,
        solution=solution,
        level=puzzle.difficulty,
        elapsed_ms=game.elapsed_ms,
        engine=engine,
    )
    # A game flagged, or too short to judge, does not count; an exempt player's does,
    # and is not reviewed (None).
    if (signals.flagged or not signals.judged) and _exempt(game):
        return None
    flagged = signals.flagged
    trace = game_trace(events, shape=puzzle.shape, givens=givens, solution=solution, engine=engine)
    review = GameReview(
        game=game,
        user_id=game.user_id,
        verdict=Verdict.FLAGGED if flagged else Verdict.PLAUSIBLE,
        flagged=flagged,
        signals=signals.as_dict(),
        reasons=list(signals.reasons),
        trace={
            **trace,
            "level": puzzle.difficulty,
            "size": puzzle.size,
            "ms_per_placement": signals.ms_per_placement,
        },
    )
    stored, created = insert_or_existing(
        review, lambda: GameReview.objects.filter(game=game).first()
    )
    if created:
        logger.log(
            logging.WARNING if flagged else logging.INFO,
            "game %s reviewed: %s %s",
            game.pk,
            stored.verdict,
            signals.as_dict(),
        )
    return stored


def review_summary(review: GameReview) -> dict[str, Any]:
    """The signals as staff read them in the admin."""
    s = review.signals
    return {
        "placements": s.get("placements"),
        "fastest ms": s.get("fastest_ms"),
        "under floor": f"{s.get('under_floor')} ({s.get('under_floor_share')})",
        "ms per placement": f"{s.get('ms_per_placement')} (floor {s.get('level_floor_ms')})",
        "blind quick": f"{s.get('blind_quick')} ({s.get('blind_share')})",
    }
