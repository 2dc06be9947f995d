"""A game's life: guests and their games, starting a game, pausing, resuming, abandoning.

Every write to an existing game follows the lichess order: read the player's game (locked),
check its status and the version the client saw, change it, and save it with its log entry
in one conditional write (play.steps.save, play.game_store).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from integrity.gate import game_standing_settle
from puzzles.constraint_daily import constraint_daily_get
from puzzles.daily import daily_puzzle_get
from puzzles.models import BANK_SOURCES, Puzzle, Source
from puzzles.selectors import daily_puzzle_ids, puzzle_pick
from ratings.selectors import puzzle_pick_at_level
from sudokusite.unique import insert_or_existing

from .errors import GameFinished, GameNotFound, NoPuzzleAvailable
from .game_store import game_read
from .limits import game_start_allow
from .models import FINISHED, UNFINISHED, Game, MoveKind, Status
from .steps import (
    GUEST_SESSION_KEY,
    Player,
    check_version,
    finish,
    game_locked,
    guest_key_get,
    log_entry,
    save_locked,
    seen_of,
    tick,
)
from .supply import level_unavailable, puzzle_made, variant_label

__all__ = [
    "Player",
    "game_abandon",
    "game_claim_guest_games",
    "game_heartbeat",
    "game_pause",
    "game_resume",
    "game_start",
    "guest_key_get",
]


# --- Guests ----------------------------------------------------------------

CLAIM_REVIEWS = 20
"""Claimed finished games reviewed at sign-up or sign-in, the latest first (a review reads
a game's log and judges up to 120 positions). Claimed games never count, so the rest are
only left out of the player's record of flags."""


def _abandon(game: Game, now: Any) -> None:
    seen = seen_of(game)
    finish(game, Status.ABANDONED, now)
    save_locked(game, log_entry(game, now, kind=MoveKind.ABANDON), seen=seen)


def _rankable(puzzle: Puzzle) -> bool:
    """Whether a game of ``puzzle`` may be ranked (on a leaderboard, held for the week):
    never a lesson's practice puzzle, nor one with constraints (the daily one too)."""
    return puzzle.source != Source.PRACTICE and not puzzle.constrained


@transaction.atomic
def game_claim_guest_games(*, request: HttpRequest, user: AbstractBaseUser) -> int:
    """Give the games a guest played in this session to ``user`` (on sign-up or log-in).

    A claimed game stays a guest's game for the boards and ratings: it never counts
    (integrity.gate; a guest can throw a session away, so only chosen results would be
    claimed), but a finished one is reviewed now like any signed-in game, so a flag joins
    the player's record. A claimed game of a puzzle the user had already played, or of one
    no game is ranked on (:func:`_rankable`), is unranked. A player has one unfinished game
    of a puzzle at most: where the guest and the account both have one, the one played
    last goes on and the other is abandoned (it stays in the history).
    """
    key = request.session.pop(GUEST_SESSION_KEY, "")
    if not key:
        return 0
    games = list(
        Game.objects.select_for_update(of=("self",))
        .select_related("puzzle")
        .filter(Player(guest_key=key).owns())
        .order_by("created", "id")
    )
    if not games:
        return 0
    # The account's own games of these puzzles: played before, and perhaps unfinished.
    own = Game.objects.select_for_update().filter(
        Player(user=user).owns(), puzzle_id__in={g.puzzle_id for g in games}
    )
    seen = {g.puzzle_id for g in own}
    unfinished = {g.puzzle_id: g for g in own if g.status in UNFINISHED}
    now = timezone.now()
    for game in games:
        game.ranked = game.puzzle_id not in seen and _rankable(game.puzzle)
        seen.add(game.puzzle_id)
        other = unfinished.get(game.puzzle_id)
        if other is None or game.status not in UNFINISHED:
            continue
        if (other.updated, other.pk) < (game.updated, game.pk):
            # The guest's game was played last: it goes on, the account's stops.
            _abandon(other, now)
            unfinished[game.puzzle_id] = game
        else:
            _abandon(game, now)
    for game in games:
        game.user = user
        game.guest_key = ""
        game.claimed = True
    Game.objects.bulk_update(games, ["user", "guest_key", "ranked", "claimed"])
    # Reviewed: the latest finished ones, so that signing in stays a bounded request.
    latest = sorted(
        (g for g in games if g.is_finished),
        key=lambda g: (g.finished or g.created, g.pk),
        reverse=True,
    )
    for i, game in enumerate(latest):
        game_standing_settle(game=game, judge=i < CLAIM_REVIEWS)
    return len(games)


# --- Starting a game -------------------------------------------------------


def _puzzle_from_text(text: str) -> Puzzle:
    """The bank's puzzle for a grid typed in; a 400 naming the problem for a grid that
    cannot be read or has no single solution, a 422 too_hard for one that uses up the
    solver's work budget (the check and the grading are budgeted like the solver API's)."""
    from solving.services import InvalidGrid, puzzle_from_entered_grid

    try:
        puzzle, _ = puzzle_from_entered_grid(grid_text=text)
    except InvalidGrid as exc:
        raise ValidationError({"grid": [exc.message]}) from None
    return puzzle


def _puzzle_from_fpuzzles(data: Any) -> Puzzle:
    """The bank's puzzle for an f-puzzles object, stored as a typed-in grid is."""
    from solving.variants import puzzle_from_fpuzzles

    puzzle, _created = puzzle_from_fpuzzles(data=data)
    return puzzle


def _played_puzzles(player: Player) -> Any:
    return Game.objects.filter(player.owns()).values("puzzle_id")


def _puzzle_at_level(player: Player, size: int, variant: str) -> Puzzle:
    if player.user is None:
        raise ValidationError(
            {"level": [_("Sign in to play at your level: guests have no rating.")]}
        )
    picked = puzzle_pick_at_level(user=player.user, size=size, variant=variant)
    if picked is None:
        banked = Puzzle.objects.filter(
            variant=variant, size=size, source__in=BANK_SOURCES, constrained=False
        )
        if not banked.exists():
            raise NoPuzzleAvailable(
                _("There is no %(size)sx%(size)s %(variant)s puzzle yet: try another size.")
                % {"size": size, "variant": variant_label(variant)}
            )
        if variant != "classic":
            raise NoPuzzleAvailable(
                _(
                    "You have played every %(size)sx%(size)s %(variant)s puzzle rated near "
                    "your level: choose a difficulty instead."
                )
                % {"size": size, "variant": variant_label(variant)}
            )
        raise NoPuzzleAvailable(
            _(
                "You have played every %(size)sx%(size)s puzzle rated near your level: "
                "choose a difficulty instead."
            )
            % {"size": size}
        )
    return picked.puzzle


def _unfinished_game(player: Player, puzzle: Puzzle) -> Game | None:
    return (
        Game.objects.select_related("puzzle")
        .filter(player.owns(), puzzle=puzzle, status__in=UNFINISHED)
        .first()
    )


@transaction.atomic
def game_start(
    *,
    player: Player,
    puzzle_id: int | None = None,
    difficulty: str | None = None,
    size: int = 9,
    daily: bool = False,
    constrained: bool = False,
    mistake_limit: int | None = None,
    grid_text: str | None = None,
    mine: bool = False,
    practice_technique: str = "",
    fpuzzles: Any = None,
    variant: str = "classic",
    race_id: int | None = None,
    clock_from: datetime | None = None,
    may_make: Callable[[], bool] | None = None,
) -> tuple[Game, bool]:
    """Start a game of a given puzzle, of the daily puzzle, of a puzzle the player typed in
    (``grid_text``, any format the solver parses; stored in the bank, or the bank's
    equivalent puzzle when it has one), or of a puzzle of that level and size the player has
    not played yet (any of that level once they have played all, but not one they are
    playing), or (``mine``) of a puzzle of that variant and size rated near the player's
    rating of it that they have never played. Returns the game and whether it was made now.

    A player has one unfinished game of a puzzle at most: starting that puzzle again
    returns the game they have (``mistake_limit`` is the one it was started with), so a
    second game cannot be abandoned to show the first one's solution, and a retried start
    makes no second game.

    ``variant`` picks by level, or at the player's level, among that variant's puzzles,
    or names the variant of the daily puzzle; ``constrained`` (with ``daily``) is the daily
    puzzle with constraints instead (made now within seconds when missing, at the rate
    ``may_make`` allows; its games are never rated);
    ``fpuzzles`` (an f-puzzles object) is a puzzle of the player's own, like
    ``grid_text``. A race (races.services) starts its racers' games with ``race_id`` and
    the race's start as ``clock_from``, so every racer's clock starts at the same moment.

    A level whose puzzles the player has all played is served a new puzzle made on the
    spot within a budget (``puzzles.stock.bank_puzzle_make``) and topped up behind it;
    ``may_make`` (the caller's rate for solver work) is asked first. Only when none could
    be made does the player get one they played before (never one they are playing)."""
    if player.user is None and not player.guest_key:
        raise ValueError("a game needs a user or a guest key")
    if grid_text is not None:
        puzzle = _puzzle_from_text(grid_text)
    elif fpuzzles is not None:
        puzzle = _puzzle_from_fpuzzles(fpuzzles)
    elif puzzle_id is not None:
        puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
        if puzzle is None:
            raise ValidationError({"puzzle": [_("There is no puzzle %(id)s.") % {"id": puzzle_id}]})
    elif mine:
        puzzle = _puzzle_at_level(player, size, variant)
    elif daily and constrained:
        puzzle = constraint_daily_get(day=timezone.localdate(), may_make=may_make)
    elif daily:
        puzzle = daily_puzzle_get(day=timezone.localdate(), size=size, variant=variant)
        if puzzle is None:
            raise NoPuzzleAvailable(
                _("There is no daily %(size)sx%(size)s puzzle yet.") % {"size": size}
            )
    else:
        assert difficulty is not None
        played = _played_puzzles(player)
        playing = played.filter(status__in=UNFINISHED)
        # Today's and tomorrow's daily puzzles are kept for the daily game while the
        # level has other puzzles: starting one here would spoil it, or mean a second
        # game of it later.
        dailies = daily_puzzle_ids(since=timezone.localdate())
        level = {"size": size, "difficulty": difficulty, "variant": variant}
        puzzle = (
            puzzle_pick(**level, exclude=(played, dailies))
            or puzzle_made(variant, size, difficulty, may_make)
            or puzzle_pick(**level, exclude=(playing, dailies))
            or puzzle_pick(**level, exclude=(playing,))
        )
        if puzzle is None:
            raise NoPuzzleAvailable(level_unavailable(variant, size, difficulty))
    existing = _unfinished_game(player, puzzle)
    if existing is not None:
        return existing, False
    game_start_allow(player=player)  # counts only starts that make a game
    ranked = (
        player.user is not None
        and _rankable(puzzle)
        and not _played_puzzles(player).filter(puzzle_id=puzzle.pk).exists()
    )
    now = clock_from or timezone.now()
    game = Game(
        user=player.user,
        guest_key="" if player.user is not None else player.guest_key,
        puzzle=puzzle,
        entries=puzzle.givens,
        notes={},
        status=Status.IN_PROGRESS,
        mistake_limit=mistake_limit,
        practice_technique=practice_technique,
        running_since=now,
        ranked=ranked,
        race_id=race_id,
    )
    # The same player may be starting this puzzle at this moment (a retry, a second tab).
    return insert_or_existing(game, lambda: _unfinished_game(player, puzzle))


# --- The clock, and giving up -------------------------------------------------------


@transaction.atomic
def game_pause(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Stop the clock and hide the board. Pausing a paused game changes nothing."""
    game = game_locked(game_id, player)
    if game.status in FINISHED:
        raise GameFinished()
    if game.status == Status.PAUSED:
        return game
    check_version(game, version)
    seen = seen_of(game)
    now = timezone.now()
    tick(game, now)
    game.running_since = None
    game.status = Status.PAUSED
    save_locked(game, log_entry(game, now, kind=MoveKind.PAUSE), seen=seen)
    return game


@transaction.atomic
def game_resume(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Start the clock again. Resuming a running game changes nothing."""
    game = game_locked(game_id, player)
    if game.status in FINISHED:
        raise GameFinished()
    if game.status == Status.IN_PROGRESS:
        return game
    check_version(game, version)
    seen = seen_of(game)
    now = timezone.now()
    game.status = Status.IN_PROGRESS
    game.running_since = now
    save_locked(game, log_entry(game, now, kind=MoveKind.RESUME), seen=seen)
    return game


# A heartbeat sooner than this after the last sign of life writes nothing: a page that
# sends too many costs one read each, and the clock is the same either way.
HEARTBEAT_MIN_INTERVAL = timedelta(seconds=5)


def game_heartbeat(*, game_id: int, player: Player) -> Game:
    """A sign of life from a page showing the running game: the clock counts up to now
    (the stretch since the last sign of life up to the clock's gap, as every write does)
    and the next stretch starts now. Nothing else changes, not even the version, so it
    never makes another device's write stale; a paused or finished game is answered as it
    is. No lock: one read and, at most every few seconds, one conditional UPDATE that does
    nothing if another write ticked the clock since the read (that write counted the
    same time)."""
    found = game_read(game_id, user_id=player.user_id, guest_key=player.guest_key)
    if found is None:
        raise GameNotFound()
    game = found[0]
    seen = game.running_since
    now = timezone.now()
    if game.status != Status.IN_PROGRESS or seen is None or now - seen < HEARTBEAT_MIN_INTERVAL:
        return game
    tick(game, now)
    Game.objects.filter(
        pk=game.pk, status=Status.IN_PROGRESS, running_since=seen, score__isnull=True
    ).update(elapsed_ms=game.elapsed_ms, running_since=now)
    return game


@transaction.atomic
def game_abandon(*, game_id: int, player: Player, version: int | None = None) -> Game:
    """Give up: the clock stops and the solution may be shown."""
    game = game_locked(game_id, player)
    if game.status in FINISHED:
        raise GameFinished()
    check_version(game, version)
    _abandon(game, timezone.now())
    return game
