"""Race rules: creating, joining, starting, the start itself, each racer's end, the time
limit. The socket consumer and the API views call these and send what they return.

Writes that two devices can race on lock the race row (``select_for_update``): joining
against a full race or a start, two racers finishing at once (their places), the start
and the time limit each happening once whoever asks for them.

Rules of a race (docs/playing.md): everyone gets the same puzzle at the same moment; hints
and auto notes are off (play.hints, play.moves refuse them on a race game); no mistake
limit; pausing hides the board but the race's clock runs on; a racer's time is the wall
time from the start to their last cell; the first to complete the puzzle is first. A race
ends when every racer has completed, lost or given up, or at its time limit (the games
still running then are abandoned). At the end each racer's replay is shared, so the
results can link to it.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from play.errors import GameFinished, NoPuzzleAvailable
from play.lifecycle import Player, game_abandon, game_start
from play.models import FINISHED, UNFINISHED, Game, Status
from puzzles.daily import daily_puzzle_get, daily_sizes
from puzzles.models import Puzzle, Variant
from puzzles.selectors import daily_puzzle_ids, puzzle_pick
from puzzles.stock import bank_puzzle_make, levels_offered

from .broadcast import race_broadcast, race_broadcast_text
from .errors import (
    DailyAlreadyPlayed,
    HostCannotLeave,
    NotHost,
    RaceFull,
    RaceNotFound,
    RaceStarted,
    TooManyRaces,
)
from .models import MAX_RACERS, OPEN, Outcome, Race, Racer, RaceStatus
from .selectors import progress_of, race_state, racer_list

logger = logging.getLogger(__name__)

_OUTCOME_OF_STATUS = {
    Status.COMPLETED: Outcome.COMPLETED,
    Status.LOST: Outcome.LOST,
    Status.ABANDONED: Outcome.GAVE_UP,
}


def _race_locked(*, code: str | None = None, race_id: int | None = None) -> Race:
    query = Race.objects.select_for_update(of=("self",)).select_related("host", "puzzle")
    race = query.filter(code=code).first() if code else query.filter(pk=race_id).first()
    if race is None:
        raise RaceNotFound()
    return race


def _due_at(race: Race) -> float | None:
    """When the race next changes by itself (Unix time), for the sockets' timers."""
    if race.status == RaceStatus.COUNTDOWN and race.starts_at is not None:
        return race.starts_at.timestamp()
    if race.status == RaceStatus.RUNNING and race.ends_at is not None:
        return race.ends_at.timestamp()
    return None


def race_announce(race: Race) -> dict[str, Any]:
    """Send the race's public state to its group after the commit; returns it."""
    state = race_state(race, racer_list(race=race), now=timezone.now(), replays=_replays(race))
    race_broadcast(race_id=race.pk, message={"type": "race", "race": state}, due_at=_due_at(race))
    return state


def _replays(race: Race) -> dict[int, str]:
    """The shared replay links of a finished race's games, by game id."""
    if race.status != RaceStatus.FINISHED:
        return {}
    from django.urls import reverse

    from replays.models import ReplayShare

    shares = ReplayShare.objects.filter(game__race=race).values_list("game_id", "token")
    return {game_id: reverse("replays:shared", args=[token]) for game_id, token in shares}


# --- Before the start ---------------------------------------------------------------


@transaction.atomic
def race_create(
    *,
    host: AbstractBaseUser,
    size: int = 9,
    difficulty: str = "",
    daily: bool = False,
    time_limit_s: int = 20 * 60,
    variant: str = "classic",
) -> Race:
    """A new race in its lobby, with its host as the first racer. A host has at most
    ``RACE_OPEN_LIMIT`` races not yet finished. ``variant`` is the rules every racer's
    game is played under, as a game takes it: a level must be one the variant is made
    at for that size (a 400 on ``difficulty`` otherwise)."""
    if daily and size not in daily_sizes(variant):
        raise ValidationError(
            {
                "size": [
                    _("A %(variant)s daily puzzle is made at sizes %(sizes)s only.")
                    % {
                        "variant": Variant(variant).label,
                        "sizes": ", ".join(str(n) for n in daily_sizes(variant)),
                    }
                ]
            }
        )
    if not daily and difficulty not in levels_offered(variant, size):
        offered = ", ".join(levels_offered(variant, size)) or "-"
        raise ValidationError(
            {
                "difficulty": [
                    _("%(variant)s %(size)sx%(size)s puzzles are made at: %(levels)s.")
                    % {"variant": Variant(variant).label, "size": size, "levels": offered}
                ]
            }
        )
    open_races = Race.objects.filter(host=host, status__in=OPEN).count()
    if open_races >= settings.RACE_OPEN_LIMIT:
        raise TooManyRaces()
    if daily:
        _check_daily_not_played(user=host, size=size, variant=variant)
    race = Race.objects.create(
        code=secrets.token_urlsafe(9),
        host=host,
        size=size,
        difficulty="" if daily else difficulty,
        daily=daily,
        variant=variant,
        time_limit_s=time_limit_s,
    )
    Racer.objects.create(race=race, user=host)
    return race


def _check_daily_not_played(*, user: AbstractBaseUser, size: int, variant: str) -> None:
    puzzle = daily_puzzle_get(day=timezone.localdate(), size=size, variant=variant)
    if Game.objects.filter(user=user, puzzle=puzzle).exists():
        raise DailyAlreadyPlayed()


@transaction.atomic
def race_join(*, code: str, user: AbstractBaseUser) -> Racer:
    """Take a seat in a race still in its lobby; joining again returns the seat."""
    race = _race_locked(code=code)
    seat = Racer.objects.filter(race=race, user=user).first()
    if seat is not None:
        return seat
    if race.status != RaceStatus.LOBBY:
        raise RaceStarted()
    if Racer.objects.filter(race=race).count() >= MAX_RACERS:
        raise RaceFull()
    if race.daily:
        _check_daily_not_played(user=user, size=race.size, variant=race.variant)
    seat = Racer.objects.create(race=race, user=user)
    race_announce(race)
    return seat


@transaction.atomic
def race_leave(*, code: str, user: AbstractBaseUser) -> Race:
    """Give up a seat before the start (the host cannot: they start the race)."""
    race = _race_locked(code=code)
    if race.status != RaceStatus.LOBBY:
        raise RaceStarted()
    if race.host_id == user.pk:
        raise HostCannotLeave()
    if Racer.objects.filter(race=race, user=user).delete()[0]:
        race_announce(race)
    return race


def _pick_puzzle(race: Race, user_ids: list[int]) -> Puzzle:
    """The race's puzzle: the daily of its variant, or one of its variant and level no
    racer has played, else one made now (puzzles.stock), else one none is playing."""
    if race.daily:
        return daily_puzzle_get(day=timezone.localdate(), size=race.size, variant=race.variant)
    games = Game.objects.filter(user_id__in=user_ids)
    played = games.values("puzzle_id")
    playing = games.filter(status__in=UNFINISHED).values("puzzle_id")
    dailies = daily_puzzle_ids(since=timezone.localdate())
    level = {"size": race.size, "difficulty": race.difficulty, "variant": race.variant}
    puzzle = (
        puzzle_pick(**level, exclude=(played, dailies))
        or bank_puzzle_make(variant=race.variant, size=race.size, level=race.difficulty)
        or puzzle_pick(**level, exclude=(playing, dailies))
    )
    if puzzle is None:
        raise NoPuzzleAvailable()
    return puzzle


@transaction.atomic
def race_start(*, code: str, user: AbstractBaseUser) -> Race:
    """The host starts the countdown: the puzzle is chosen now (one no racer has played,
    when the bank has one) and shown to nobody until ``starts_at``."""
    race = _race_locked(code=code)
    if race.host_id != user.pk:
        raise NotHost()
    if race.status != RaceStatus.LOBBY:
        raise RaceStarted()
    user_ids = list(Racer.objects.filter(race=race).values_list("user_id", flat=True))
    race.puzzle = _pick_puzzle(race, user_ids)
    race.status = RaceStatus.COUNTDOWN
    race.starts_at = timezone.now() + timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS)
    race.save(update_fields=["puzzle", "status", "starts_at"])
    race_announce(race)
    return race


# --- The start, the end ----------------------------------------------------------------


def race_advance(*, race: Race, now: datetime | None = None) -> Race:
    """Make the start or the time limit happen if it is due (whoever asks first; it
    happens once). Returns the race as it is now."""
    now = now or timezone.now()
    if race.status == RaceStatus.COUNTDOWN and race.starts_at and now >= race.starts_at:
        return race_begin(race_id=race.pk)
    if race.status == RaceStatus.RUNNING and race.ends_at and now >= race.ends_at:
        return race_time_out(race_id=race.pk)
    return race


@transaction.atomic
def race_begin(*, race_id: int) -> Race:
    """At ``starts_at``: each racer's game of the race's puzzle, its clock from the start."""
    race = _race_locked(race_id=race_id)
    if race.status != RaceStatus.COUNTDOWN or timezone.now() < race.starts_at:
        return race
    for racer in racer_list(race=race):
        game, created = game_start(
            player=Player(user=racer.user),
            puzzle_id=race.puzzle_id,
            race_id=race.pk,
            clock_from=race.starts_at,
        )
        if created:
            racer.game = game
            racer.save(update_fields=["game"])
        else:  # began this very puzzle elsewhere during the countdown (a daily race)
            racer.outcome = Outcome.GAVE_UP
            racer.save(update_fields=["outcome"])
    race.status = RaceStatus.RUNNING
    race.save(update_fields=["status"])
    _finish_if_over(race)
    race_announce(race)
    return race


@transaction.atomic
def race_time_out(*, race_id: int) -> Race:
    """At the time limit: the games still running are abandoned and the race ends."""
    race = _race_locked(race_id=race_id)
    if race.status != RaceStatus.RUNNING or timezone.now() < race.ends_at:
        return race
    for racer in racer_list(race=race):
        if racer.outcome != Outcome.RACING:
            continue
        try:
            if racer.game is not None:
                game_abandon(game_id=racer.game_id, player=Player(user=racer.user))
        except GameFinished:  # the racer's last move landed first: it counts
            _racer_end(race, racer, Game.objects.select_related("puzzle").get(pk=racer.game_id))
            continue
        racer.outcome = Outcome.TIMED_OUT
        racer.save(update_fields=["outcome"])
    _finish_if_over(race)
    race_announce(race)
    return race


def _finish_if_over(race: Race) -> None:
    """End the race once nobody is still racing; share every racer's replay."""
    if Racer.objects.filter(race=race, outcome=Outcome.RACING).exists():
        return
    from replays.services import replay_share

    race.status = RaceStatus.FINISHED
    race.finished = timezone.now()
    race.save(update_fields=["status", "finished"])
    for racer in racer_list(race=race):
        if racer.game is not None and racer.game.status in FINISHED:
            replay_share(game_id=racer.game_id, player=Player(user=racer.user), show_username=True)


def _racer_end(race: Race, racer: Racer, game: Game) -> None:
    """The racer's outcome, time and place from their finished game (the race row is
    locked: places are handed out one at a time)."""
    assert race.starts_at is not None
    racer.outcome = _OUTCOME_OF_STATUS.get(game.status, Outcome.GAVE_UP)
    ended = game.finished or timezone.now()
    racer.time_ms = max(0, int((ended - race.starts_at).total_seconds() * 1000))
    if racer.outcome == Outcome.COMPLETED:
        racer.place = Racer.objects.filter(race=race, place__isnull=False).count() + 1
    racer.save(update_fields=["outcome", "time_ms", "place"])


@transaction.atomic
def race_game_finished(*, game: Game) -> None:
    """A racer's game ended (completed, lost, given up): their outcome, time and place."""
    race = _race_locked(race_id=game.race_id)
    racer = Racer.objects.select_for_update().filter(race=race, game_id=game.pk).first()
    if racer is None or racer.outcome != Outcome.RACING or race.starts_at is None:
        return
    _racer_end(race, racer, game)
    if race.status == RaceStatus.RUNNING:
        _finish_if_over(race)
    race_announce(race)


def race_game_changed(*, game: Game) -> None:
    """After any write to a race game (play's API calls this only when ``game.race_id``):
    one small progress message, or the racer's end. Reads nothing for a move: the game
    was read with its puzzle."""
    if game.status in FINISHED:
        race_game_finished(game=game)
        return
    puzzle = game.puzzle
    progress = progress_of(game, givens=puzzle.givens, solution=puzzle.solution)
    # Written out (whole numbers only): json.dumps of the dict cost more than the publish.
    race_broadcast_text(
        race_id=game.race_id,
        text=f'{{"type":"progress","player":{int(game.user_id)},"progress":{progress},'
        f'"mistakes":{int(game.mistakes)}}}',
    )


def race_advance_due(*, limit: int = 200) -> int:
    """Start or time out the races that are due and nobody asked for (Celery beat)."""
    now = timezone.now()
    due = list(
        Race.objects.filter(
            status__in=(RaceStatus.COUNTDOWN, RaceStatus.RUNNING), starts_at__lte=now
        )
        .order_by("starts_at")
        .only("id", "status", "starts_at", "time_limit_s")[:limit]
    )
    for race in due:
        race_advance(race=race, now=now)
    return len(due)


# --- What a socket or the API shows ------------------------------------------------------


def race_snapshot(
    *, code: str, user: AbstractBaseUser | None
) -> tuple[dict[str, Any], float | None]:
    """The whole race as it stands for ``user`` (the start or the time limit made to
    happen first if due), and when it next changes by itself."""
    from .selectors import race_get, you_state

    race = race_advance(race=race_get(code=code))
    racers = racer_list(race=race)
    message = {
        "type": "snapshot",
        "race": race_state(race, racers, now=timezone.now(), replays=_replays(race)),
        "you": you_state(race, racers, user=user),
    }
    return message, _due_at(race)


def race_advance_by_id(*, race_id: int) -> None:
    """``race_advance`` for a socket's timer, which knows the race by id."""
    race = Race.objects.select_related("host", "puzzle").filter(pk=race_id).first()
    if race is not None:
        race_advance(race=race)
