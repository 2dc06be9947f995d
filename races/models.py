"""Races: up to ``MAX_RACERS`` signed-in players solve the same puzzle from the same moment.

A ``Race`` goes lobby -> countdown -> running -> finished. The host starts the countdown;
the puzzle is chosen then but nobody sees it until ``starts_at``, when every racer's
``Game`` is made (play.lifecycle.game_start, clock from ``starts_at``) and linked to the
race through ``Game.race``. Each racer then plays an ordinary game through the game API.
A ``Racer`` is one seat: its game, and once it is over, how it ended and its place.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

MAX_RACERS = 8


class RaceStatus(models.TextChoices):
    LOBBY = "lobby", _("Waiting for racers")
    COUNTDOWN = "countdown", _("Starting")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


OPEN = (RaceStatus.LOBBY, RaceStatus.COUNTDOWN, RaceStatus.RUNNING)


class Outcome(models.TextChoices):
    RACING = "racing", _("Racing")
    COMPLETED = "completed", _("Finished")
    LOST = "lost", _("Out of mistakes")
    GAVE_UP = "gave_up", _("Gave up")
    TIMED_OUT = "timed_out", _("Out of time")


class Race(models.Model):
    # The shared link's key: unguessable, so a race is seen only by those given its link.
    code = models.CharField(max_length=16, unique=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_races"
    )
    size = models.PositiveSmallIntegerField(default=9)
    # Blank for a race on the daily puzzle.
    difficulty = models.CharField(max_length=12, blank=True, default="")
    daily = models.BooleanField(default=False)
    variant = models.CharField(max_length=20, default="classic")
    # Chosen when the countdown starts; never shown before ``starts_at``.
    puzzle = models.ForeignKey(
        "puzzles.Puzzle", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=10, choices=RaceStatus.choices, default=RaceStatus.LOBBY)
    time_limit_s = models.PositiveIntegerField(default=20 * 60)
    starts_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["host", "status"], name="race_host_status"),
            models.Index(fields=["status", "starts_at"], name="race_status_starts"),
        ]

    def __str__(self) -> str:
        return f"race {self.code} ({self.status})"

    @property
    def ends_at(self) -> datetime | None:
        if self.starts_at is None:
            return None
        return self.starts_at + timedelta(seconds=self.time_limit_s)


class Racer(models.Model):
    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="racers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_seats"
    )
    game = models.OneToOneField(
        "play.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.RACING)
    # 1 for the first to complete the puzzle; None for a racer who did not.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    # Server time from the start to the end of the racer's game (wall time: pausing does
    # not stop the race).
    time_ms = models.PositiveIntegerField(null=True, blank=True)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined", "id"]
        constraints = [
            models.UniqueConstraint(fields=["race", "user"], name="racer_once_per_race"),
            models.UniqueConstraint(
                fields=["race", "place"],
                condition=models.Q(place__isnull=False),
                name="racer_place_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"racer {self.user_id} in race {self.race_id}: {self.outcome}"
