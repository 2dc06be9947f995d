"""When a puzzle's solution may be shown: after a give-up, and by the solver's API.

A solution is an oracle for anyone still playing the puzzle, or about to play it for a
score, so it is shown only when it can no longer help a score:

- **A completed game** shows it at once (its player entered it).
- **A given-up game** (abandoned, or lost on mistakes) shows it at once, unless the
  puzzle is *protected*; then it is shown once the period is over. A protected puzzle is:

  - a **daily puzzle**: until the end of its day (every day it is the daily puzzle of,
    tomorrow's included) in the server's time zone (``TIME_ZONE``);
  - a **leaderboard puzzle**, one with another player's ranked game (a signed-in
    player's first game of it, which enters the boards of ``play.selectors.PERIODS``):
    until the end of the week in which the game was given up (the ``week`` period, Monday
    00:00 server time), the longest period of a board that ends; and, past that, while
    another player has a ranked game of it unfinished, so that pausing a game across the
    week's end does not wait the hold out. A player's own ranked game does not hold their
    give-up: nobody else's score depends on it then (see docs/integrity.md for the order
    "give up first, play for a score later").

- **The solver's API** (``POST /api/v1/solver/analyse/`` and ``/hint/``) recognises a bank
  puzzle by its canonical key (a relabelled, rotated or transposed copy has the same key;
  for a variant, with its regions, cages and constraints moved alike:
  ``puzzles.variant_keys``) and withholds its solution and steps (403 ``puzzle_in_play``)
  from a caller who has an unfinished game of it, or a given-up game whose solution is
  still held; and from anyone who has not completed it while it is protected (a daily
  puzzle whose day is not over, or a leaderboard puzzle with a ranked game unfinished or
  given up or completed this week): a second account or a guest is the same oracle as
  the player's own. A puzzle a player typed in or imported (``typed``) is never
  withheld: its solution is no secret of the site's, and its games never count.

- **Every other surface** asks :func:`game_disclosure`: the game (its ``solution``), the
  replay and the shared replay (the puzzle's ``solution``; each event's ``correct``; the
  analysis, whose placements say which values were right). The player was told each
  placement's ``correct`` as they played, so their own replay keeps it; anyone else (a
  shared link) sees neither while the solution is held.

See docs/integrity.md for what this does not stop (a solver elsewhere) and what does
(the plausible-play review).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy

from puzzles.models import DailyPuzzle, Puzzle, Source
from sudokusite.errors import DomainError

from .models import UNFINISHED, Game, Status

GIVEN_UP = (Status.ABANDONED, Status.LOST)


class PuzzleInPlay(DomainError):
    """The solver will not give the solution or steps of a bank puzzle in play."""

    status_code = 403
    code = "puzzle_in_play"
    message = gettext_lazy(
        "This puzzle is in play: its solution is shown once it can no longer help a score."
    )


def week_start(now: datetime) -> datetime:
    """Monday 00:00 of ``now``'s week in the server's time zone (the ``week`` period)."""
    local = timezone.localtime(now)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    return midnight - timedelta(days=midnight.weekday())


def _ranked(puzzle_ref: object) -> QuerySet[Game]:
    return Game.objects.filter(puzzle=puzzle_ref, ranked=True, user__isnull=False)


def _daily_not_over(puzzle_ref: object, now: datetime) -> Exists:
    return Exists(DailyPuzzle.objects.filter(puzzle=puzzle_ref, date__gte=timezone.localdate(now)))


def solution_held_expression(now: datetime) -> ExpressionWrapper:
    """True for a game whose solution is still held (for ``QuerySet.annotate``): one query
    for a whole list of games."""
    puzzle = OuterRef("puzzle")
    # Other players' ranked games: a player has one ranked game of a puzzle, their first,
    # so leaving out this game leaves out all of the player's own.
    others = _ranked(puzzle).exclude(pk=OuterRef("pk"))
    held = Q(status__in=GIVEN_UP) & (
        Q(_daily_not_over(puzzle, now))
        | (Q(finished__gte=week_start(now)) & Q(Exists(others)))
        | Q(Exists(others.filter(status__in=UNFINISHED)))
    )
    return ExpressionWrapper(held, output_field=BooleanField())


def game_solution_held(game: Game, now: datetime | None = None) -> bool:
    """Whether ``game``'s solution is still held (see the module docstring). No query for a
    game not given up; uses the ``solution_held`` annotation when the list made one."""
    if game.status not in GIVEN_UP:
        return False
    annotated = getattr(game, "solution_held", None)
    if annotated is not None:
        return bool(annotated)
    now = now or timezone.now()
    return (
        Game.objects.filter(pk=game.pk)
        .annotate(held=solution_held_expression(now))
        .values_list("held", flat=True)
        .first()
        or False
    )


def game_solution_visible(game: Game) -> bool:
    """Whether the game may show its puzzle's solution now."""
    if game.status == Status.COMPLETED:
        return True
    return game.status in GIVEN_UP and not game_solution_held(game)


@dataclass(frozen=True)
class Disclosure:
    """What a response about a game may show of its puzzle's solution."""

    solution: bool  # the solution itself
    correctness: bool  # whether each placed value was right: events' and analysis' ``correct``


def game_disclosure(game: Game, *, player: bool) -> Disclosure:
    """What may be shown of ``game``'s solution to its own player (``player``) or to
    anyone else (a shared replay). One query at most (see :func:`game_solution_held`)."""
    visible = game_solution_visible(game)
    # The player read every placement's verdict in the move's answer; others must not.
    return Disclosure(solution=visible, correctness=visible or (player and game.is_finished))


def puzzle_protected(
    puzzle: Puzzle, now: datetime, *, user: AbstractBaseUser | None = None
) -> bool:
    """A daily puzzle whose day is not over, or a leaderboard puzzle in play this week
    (a ranked game of it, other than ``user``'s, unfinished or finished this week)."""
    recent = Q(status__in=UNFINISHED) | Q(finished__gte=week_start(now))
    ranked = _ranked(puzzle).filter(recent)
    if user is not None:
        ranked = ranked.exclude(user=user)
    return (
        DailyPuzzle.objects.filter(puzzle=puzzle, date__gte=timezone.localdate(now)).exists()
        or ranked.exists()
    )


def solver_solution_check(
    *,
    puzzle: Puzzle | None,
    user: AbstractBaseUser | None,
    guest_key: str = "",
    now: datetime | None = None,
) -> None:
    """Raise PuzzleInPlay when the solver must not show ``puzzle``'s solution to this
    caller (``user``, or a guest by ``guest_key``; both empty for a caller with neither).
    ``puzzle`` is the stored puzzle the grid is a copy of, or None (nothing to guard).

    Only a puzzle whose solution the site holds is guarded: a bank puzzle (a daily, a
    leaderboard puzzle). A puzzle a player typed in or imported to play came from
    elsewhere, its games never count, and guarding it would let anyone lock the solver on
    any famous puzzle by opening a game of it."""
    if puzzle is None or puzzle.source == Source.TYPED:
        return
    now = now or timezone.now()
    signed_in = user if user is not None and user.is_authenticated else None
    if signed_in is not None:
        games = Game.objects.filter(user=signed_in, puzzle=puzzle)
    elif guest_key:
        games = Game.objects.filter(user__isnull=True, guest_key=guest_key, puzzle=puzzle)
    else:
        games = Game.objects.none()
    games = games.annotate(solution_held=solution_held_expression(now))
    rows = list(games.values_list("status", "solution_held")[:50])
    if any(status in UNFINISHED for status, _ in rows):
        raise PuzzleInPlay(
            "You have an unfinished game of this puzzle: finish it or give up before asking "
            "the solver for its solution."
        )
    if any(held for _, held in rows):
        raise PuzzleInPlay(
            "You gave up a game of this puzzle while it is a daily or leaderboard puzzle: "
            "its solution is shown when the period is over."
        )
    if any(status == Status.COMPLETED for status, _ in rows):
        return
    if puzzle_protected(puzzle, now, user=signed_in):
        raise PuzzleInPlay(
            "This is a daily or leaderboard puzzle in play: the solver shows its solution "
            "once its period is over, or to players who have completed it."
        )


def export_solution_visible(
    puzzle: Puzzle, *, games: QuerySet[Game], now: datetime | None = None
) -> bool:
    """Whether an export of ``puzzle`` (its f-puzzles file, a share link) may carry the
    solution for a caller whose games of it are ``games``: one of them shows it (completed,
    or given up and no longer held), and the puzzle is protected for nobody, since a link
    travels on to players still playing it for a score."""
    now = now or timezone.now()
    held = games.annotate(solution_held=solution_held_expression(now))
    rows = list(held.values_list("status", "solution_held")[:50])
    shown = any(
        status == Status.COMPLETED or (status in GIVEN_UP and not is_held)
        for status, is_held in rows
    )
    return shown and not puzzle_protected(puzzle, now)
