"""The race rules that say no, as API and socket errors (see sudokusite.errors)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from sudokusite.errors import Conflict, Forbidden, NotFoundError


class RaceNotFound(NotFoundError):
    code = "race_not_found"
    message = _("No such race.")


class RaceFull(Conflict):
    code = "race_full"
    message = _("The race is full.")


class RaceStarted(Conflict):
    code = "race_started"
    message = _("The race has already started.")


class RaceNotStarted(Conflict):
    code = "race_not_started"
    message = _("The race has not started yet.")


class RaceNotFinished(Conflict):
    code = "race_not_finished"
    message = _("The race is not over yet.")


class NotHost(Forbidden):
    code = "not_host"
    message = _("Only the race's host can do that.")


class HostCannotLeave(Conflict):
    code = "host_cannot_leave"
    message = _("The host cannot leave the race before it starts.")


class NotARacer(Forbidden):
    code = "not_a_racer"
    message = _("Join the race first.")


class TooManyRaces(Conflict):
    code = "too_many_races"
    message = _("You already host as many open races as allowed: finish or start one first.")


class DailyAlreadyPlayed(Conflict):
    code = "daily_already_played"
    message = _("You have already played today's daily puzzle of that size.")


class SignInRequired(Forbidden):
    code = "not_authenticated"
    message = _("Sign in to race.")
