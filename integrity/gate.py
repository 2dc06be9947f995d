"""The one gate: whether a finished game counts for the boards and ratings.

Every path that can make a game count asks here: a game ending (play.ending), guest games
claimed at sign-up or sign-in (play.lifecycle), staff's verdict on a review
(integrity.decisions.review_decide) and the backfill command (``games_settle``). The
decision is stored on the game (``Game.counts``, ``Game.standing``), and the boards
(play.selectors) and ratings (ratings.services.game_is_rateable) read only that.

The rule, in order (docs/integrity.md):

1. a guest's game never counts, nor a guest's game claimed by an account later (``guest``);
2. a game of a puzzle typed in by a player (``typed_in``), or of a puzzle with constraints
   (``constrained``: thermometers, arrows...; no board or rating is kept for its rules);
3. a player's second and later games of a puzzle (``replayed_puzzle``); a race seat that
   ended (timed out, or given up) with no value ever placed (``race_not_played``: as an
   abort, it is not rated, for the player or the puzzle);
4. a player held by the per-player review (``player_held``);
5. a completed game counts only once the review has judged it plausible, or staff cleared
   it (``flagged``; ``too_fast_to_review`` when too short to judge). An abandoned or lost
   game counts, as a loss for the rating (the boards list completed games only);
6. a game that would count waits while its player is provisional (``provisional``): the
   evidence across games has not judged enough of their games yet. When it has, the
   player's provisional games are settled in one pass, oldest first.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from play.models import FINISHED, Game, Status
from puzzles.models import Source
from ratings.services import rating_record_game

from .models import GameReview, Verdict
from .players import (
    ESTABLISHED,
    RELEASE_CHUNK,
    player_evaluate,
    player_held,
    player_provisional,
)
from .services import game_review
from .signals import min_placements

COUNTS = "counts"
GUEST = "guest"
TYPED_IN = "typed_in"
PRACTICE_ONLY = "practice_only"
CONSTRAINED = "constrained"
REPLAYED_PUZZLE = "replayed_puzzle"
RACE_NOT_PLAYED = "race_not_played"
PLAYER_HELD = "player_held"
FLAGGED = "flagged"
TOO_FAST_TO_REVIEW = "too_fast_to_review"
PROVISIONAL = "provisional"

MESSAGES: dict[str, Promise] = {
    GUEST: _("Played as a guest"),
    TYPED_IN: _("A puzzle typed in, not one of the bank's"),
    PRACTICE_ONLY: _("A practice puzzle made for a lesson, not one of the bank's"),
    CONSTRAINED: _("A puzzle with constraints: no board or rating is kept for its rules"),
    REPLAYED_PUZZLE: _("You had played this puzzle before"),
    RACE_NOT_PLAYED: _("A race seat with no move: not rated, as an aborted game"),
    PLAYER_HELD: _("Your games are held for a staff review"),
    FLAGGED: _("Held for a staff review: faster than people play"),
    TOO_FAST_TO_REVIEW: _("Too short to be reviewed"),
    PROVISIONAL: _(
        "Provisional: a new player's games count once the review has judged enough of "
        "them (five games long enough to judge)"
    ),
}
"""One line for the player, per reason a finished game does not count."""


@dataclass(frozen=True, slots=True)
class Standing:
    counts: bool
    reason: str  # COUNTS, or one of MESSAGES' codes

    @property
    def message(self) -> str | None:
        """The reason in the reader's language; None for a game that counts."""
        return None if self.counts else str(MESSAGES[self.reason])


def _player_held(user_id: int) -> bool:
    """Whether the player is held off boards and ratings by the evidence across their
    games (integrity.players)."""
    return player_held(user_id=user_id)


def _origin(game: Game) -> str | None:
    """The reason the game's origin keeps it out, or None."""
    if game.user_id is None or game.claimed:
        return GUEST
    if game.puzzle.source == Source.TYPED:
        return TYPED_IN
    if game.puzzle.source == Source.PRACTICE:
        return PRACTICE_ONLY
    if game.puzzle.constrained:
        return CONSTRAINED
    if not game.ranked:
        return REPLAYED_PUZZLE
    if game.race_id is not None and _never_played(game):
        return RACE_NOT_PLAYED
    return None


def _never_played(game: Game) -> bool:
    """A game that ended with no value on the board but the givens and no mistake: no
    value was ever placed (or every one was taken back), from the row alone."""
    return (
        game.status != Status.COMPLETED
        and game.mistakes == 0
        and game.entries == game.puzzle.givens
    )


def _judged(review: GameReview, size: int) -> bool:
    """Whether the review had enough placements to judge (a review stored before it said
    so is asked again from its count)."""
    signals = review.signals
    if "judged" in signals:
        return bool(signals["judged"])
    return int(signals.get("placements", 0)) >= min_placements(size)


def game_standing(game: Game, *, review: GameReview | None) -> Standing | None:
    """Whether the finished ``game`` counts, and why not (None while it is unfinished).

    ``review`` is the game's review, None when the game was not reviewed: that happens to
    a completed game of a counting origin only for a player exempt from review."""
    if not game.is_finished:
        return None
    held = _origin(game)
    if held is None and _player_held(game.user_id):  # type: ignore[arg-type]
        held = PLAYER_HELD
    if held is None and game.status == Status.COMPLETED and review is not None:
        if review.flagged:
            held = FLAGGED
        elif review.verdict != Verdict.CLEARED and not _judged(review, game.puzzle.size):
            held = TOO_FAST_TO_REVIEW
    if held is None and player_provisional(game=game):
        held = PROVISIONAL
    return Standing(counts=held is None, reason=held or COUNTS)


def game_standing_settle(
    *,
    game: Game,
    review: GameReview | None = None,
    rate: bool = True,
    judge: bool = True,
    evaluate: bool = False,
) -> Standing | None:
    """Decide and store the finished ``game``'s standing, reviewing it first when it is a
    completed ranked game of an account (a guest's claimed game too, so that its flag is
    on the player's record; not when ``judge`` is False, for a game that cannot count);
    then rate it when it counts and ``rate`` (once: a game rated before is never rated
    again). With ``evaluate`` (the game has just ended), the evidence across the player's
    recent games is weighed first (integrity.players.player_evaluate), so that the game
    that makes a player held is held too. Runs in the transaction of the write that ended
    the game, or holding its row lock. None for an unfinished game."""
    if not game.is_finished:
        return None
    reviewable = game.status == Status.COMPLETED and game.user_id is not None
    if not judge and _origin(game) is None:
        raise ValueError("only a game that cannot count may be settled without a review")
    if review is None and judge and reviewable and _origin(game) in (None, GUEST):
        # Made now, or the stored one (game_review keeps one review per game).
        review = game_review(game=game)
    if evaluate and game.user_id is not None and _origin(game) is None:
        verdict = player_evaluate(game=game, reviewed=review is not None)
        if verdict == ESTABLISHED:  # the games that waited count first, oldest first
            _, more = player_games_settle(
                user_id=game.user_id, limit=RELEASE_CHUNK, standings=(PROVISIONAL,)
            )
            if more:
                release_later(game.user_id)
    standing = game_standing(game, review=review)
    assert standing is not None
    if (game.counts, game.standing) != (standing.counts, standing.reason):
        Game.objects.filter(pk=game.pk).update(counts=standing.counts, standing=standing.reason)
        game.counts, game.standing = standing.counts, standing.reason
    if standing.counts and rate:
        rating_record_game(game=game)
    return standing


def player_games_settle(
    *, user_id: int, limit: int, standings: tuple[str, ...] = (PLAYER_HELD, PROVISIONAL)
) -> tuple[int, bool]:
    """Decide again, oldest first, at most ``limit`` of the player's finished games the
    gate held with them (``player_held``, ``provisional``: of ``standings``), once the
    per-player review has let the player go or judged enough of their games: those that
    count now are rated then, once, as a cleared game is. Returns how many count now, and
    whether more wait. Runs in the caller's transaction."""
    games = list(
        Game.objects.filter(user_id=user_id, standing__in=standings)
        .select_for_update(of=("self",))
        .select_related("puzzle")
        .order_by("finished", "pk")[: limit + 1]
    )
    counted = 0
    for game in games[:limit]:
        standing = game_standing_settle(game=game)
        counted += bool(standing and standing.counts)
    return counted, len(games) > limit


def release_later(user_id: int) -> None:
    """Have the worker settle the player's next chunk of waiting games once this
    transaction commits (the task ``integrity.player_release``, looked up by name: the
    tasks module sits above this one and is imported by the app's ready())."""
    from celery import current_app

    task = current_app.tasks["integrity.player_release"]
    transaction.on_commit(lambda: task.delay(user_id))


def counting_games() -> Q:
    """The filter of the games that count (for the boards)."""
    return Q(counts=True)


SETTLE_CHUNK = 500


def games_settle(*, again: bool = False) -> tuple[int, int]:
    """Settle the finished games without a standing (every finished game when ``again``),
    in chunks by id, each chunk's rows locked in its own transaction. Games are reviewed
    where the gate needs it, but not rated: a rating is a sequence in time, and these
    games ended long ago. Returns (games that count, games settled)."""
    games = Game.objects.filter(status__in=FINISHED)
    if not again:
        games = games.filter(standing="")
    counted = settled = 0
    after = 0
    while True:
        with transaction.atomic():
            chunk = list(
                games.filter(pk__gt=after)
                .select_for_update(of=("self",))
                .select_related("puzzle", "review")
                .order_by("pk")[:SETTLE_CHUNK]
            )
            for game in chunk:
                review = getattr(game, "review", None)
                standing = game_standing_settle(game=game, review=review, rate=False)
                counted += bool(standing and standing.counts)
        if not chunk:
            return counted, settled
        settled += len(chunk)
        after = chunk[-1].pk
