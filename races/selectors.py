"""Reading races: a race with its racers, and the public state everyone watching sees.

The state never holds a cell: a racer's progress is how many cells they have filled
right, counted here on the server from their board and the solution, so nothing of the
puzzle (not even which cells) reaches a rival or a spectator before the end.
"""

from __future__ import annotations

from datetime import datetime
from operator import eq
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from integrity.selectors import player_marks
from play.models import Game

from .errors import RaceNotFound
from .models import MAX_RACERS, Race, Racer, RaceStatus


def race_get(*, code: str) -> Race:
    """The race with that link code (with its host and puzzle), or RaceNotFound."""
    race = Race.objects.select_related("host", "puzzle").filter(code=code).first()
    if race is None:
        raise RaceNotFound()
    return race


def racer_list(*, race: Race) -> list[Racer]:
    """The race's racers in joining order, each with their user and game (one query,
    at most MAX_RACERS rows)."""
    return list(Racer.objects.filter(race=race).select_related("user", "game")[: MAX_RACERS + 1])


def progress_of(game: Game | None, *, givens: str, solution: str) -> int:
    """How many of the cells to fill the game has right (never which)."""
    if game is None:
        return 0
    # The entries hold the givens too: every cell that matches the solution, less the givens
    # (counted in C: this runs on every race move).
    return sum(map(eq, game.entries, solution)) - (len(givens) - givens.count("."))


def _ms_until(moment: datetime | None, now: datetime) -> int | None:
    if moment is None:
        return None
    return max(0, int((moment - now).total_seconds() * 1000))


UNRANKED_MARKS = ("held", "flagged")


def racer_mark(racer: Racer, marks: dict[int, str]) -> str | None:
    """Why the racer may not be ranked: ``held`` or ``flagged`` as a player
    (integrity.selectors.player_marks, the boards' question), or ``flagged`` when the gate
    flagged this very game; ``provisional`` for a new player, ranked but marked (their
    game counts nowhere else yet); None for a racer ranked as they finished."""
    mark = marks.get(racer.user_id)
    game = racer.game
    if mark in (None, "provisional") and game is not None and game.standing == "flagged":
        mark = "flagged"
    return mark


def shown_places(racers: list[Racer], marks: dict[int, str]) -> dict[int, int]:
    """The places shown, by racer id: the order of completion among the racers who may be
    ranked; a marked racer has none, so a flagged or held racer is never shown first."""
    ranked = sorted(
        (r for r in racers if r.place is not None and racer_mark(r, marks) not in UNRANKED_MARKS),
        key=lambda r: r.place,  # type: ignore[arg-type, return-value]
    )
    return {r.pk: i for i, r in enumerate(ranked, start=1)}


def racer_state(
    racer: Racer,
    race: Race,
    *,
    replays: dict[int, str],
    marks: dict[int, str] | None = None,
    places: dict[int, int] | None = None,
) -> dict[str, Any]:
    puzzle = race.puzzle
    started = race.status in (RaceStatus.RUNNING, RaceStatus.FINISHED) and puzzle is not None
    game = racer.game
    marks = marks or {}
    place = racer.place if places is None else places.get(racer.pk)
    return {
        "player": racer.user_id,
        "name": racer.user.get_username(),
        "progress": progress_of(game, givens=puzzle.givens, solution=puzzle.solution)
        if started and puzzle is not None
        else 0,
        "mistakes": game.mistakes if game is not None else 0,
        "outcome": racer.outcome,
        "place": place,
        "mark": racer_mark(racer, marks),
        "time_ms": racer.time_ms,
        "replay": replays.get(racer.game_id) if racer.game_id else None,
    }


def race_state(
    race: Race, racers: list[Racer], *, now: datetime, replays: dict[int, str] | None = None
) -> dict[str, Any]:
    """What everyone watching the race may see (the ``race`` object of the socket's
    messages and of the API's race)."""
    started = race.status in (RaceStatus.RUNNING, RaceStatus.FINISHED) and race.puzzle
    # Who may be ranked is the boards' question (integrity.selectors), asked only once a
    # racer has ended: at most MAX_RACERS ids, two bounded queries.
    ended = [r.user_id for r in racers if r.outcome != "racing"]
    marks = player_marks(user_ids=ended) if started and ended else {}
    places = shown_places(racers, marks)
    return {
        "code": race.code,
        "status": race.status,
        "size": race.size,
        "difficulty": race.difficulty,
        "daily": race.daily,
        "variant": race.variant,
        "host": race.host.get_username(),
        "capacity": MAX_RACERS,
        "time_limit_s": race.time_limit_s,
        "starts_in_ms": _ms_until(race.starts_at, now)
        if race.status == RaceStatus.COUNTDOWN
        else None,
        "ends_in_ms": _ms_until(race.ends_at, now) if race.status == RaceStatus.RUNNING else None,
        "cells": race.puzzle.givens.count(".") if started and race.puzzle else None,
        "racers": [
            racer_state(r, race, replays=replays or {}, marks=marks, places=places) for r in racers
        ],
    }


def you_state(race: Race, racers: list[Racer], *, user: AbstractBaseUser | None) -> dict[str, Any]:
    """What the socket's snapshot tells only the one who asked: who they are in the race,
    and (once it runs) their own game."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    mine = next((r for r in racers if r.user_id == user_id), None)
    return {
        "player": user_id,
        "racer": mine is not None,
        "host": user_id is not None and user_id == race.host_id,
        "game": mine.game_id if mine is not None else None,
    }
