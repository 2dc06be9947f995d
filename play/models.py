"""Games and their move logs.

A ``Game`` is one player's play of one puzzle. The server owns everything about it: the
board (``entries``, givens included, ``.`` for empty), the notes, the clock, the mistakes,
the hints and the score. ``version`` goes up by one on every write, so a client can send
the version it saw and get 409 instead of overwriting a newer state.

The clock: ``elapsed_ms`` is the time accumulated so far and ``running_since`` the server
time of the last sign of life while the clock runs (None while paused or finished). It
counts only while someone plays: each sign of life (any write, or a heartbeat) adds the
time since the previous one, but never more than ``GAME_CLOCK_GAP_SECONDS``, so the time
shown is ``elapsed_ms + min(now - running_since, gap)`` and a browser killed mid-game
stops the clock within the gap. No client ever sends a time.

A ``Move`` is one entry of the log, and every write to a game appends one (play.game_store),
so the log is the game's whole history: ``seq`` orders it, ``kind`` says what happened,
``changes`` what it did to each cell (value and notes, before and after; empty when the
event changed neither) and ``elapsed_ms`` the game clock right after it. Applying every
entry's ``changes`` forwards in ``seq`` order from the givens gives the board and notes at
every moment: an undo's changes are the ones it took back (inverted), a redo's the ones it
played again, a restart's every entry and note cleared, auto notes' the notes written.

Only the player's own board changes (value, note, hint, auto notes, restart) are on the
undo log (``in_log``) and walked by undo and redo; undo and redo entries themselves are
not, and hold in ``value`` the ``seq`` of the entry they took back or played again.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .clock import counted_ms


class Status(models.TextChoices):
    IN_PROGRESS = "in_progress", _("In progress")
    PAUSED = "paused", _("Paused")
    COMPLETED = "completed", _("Completed")
    ABANDONED = "abandoned", _("Abandoned")
    LOST = "lost", _("Lost")


FINISHED = (Status.COMPLETED, Status.ABANDONED, Status.LOST)
UNFINISHED = (Status.IN_PROGRESS, Status.PAUSED)


class MoveKind(models.TextChoices):
    """What one entry of a game's log records (see ``Move``)."""

    VALUE = "value", _("Value")  # cell, value (0 clears)
    NOTE = "note", _("Note")  # cell, value (0 clears the cell's notes)
    CORNER = "corner", _("Corner mark")  # as a note, in the cell's corner marks
    COLOUR = "colour", _("Colour")  # value: a colour 1 to 9 toggled (0 clears), any cell
    HINT = "hint", _("Hint")  # a hint applied (stage 3)
    HINT_REVEAL = "hint_reveal", _("Hint revealed")  # value: the stage revealed; no change
    UNDO = "undo", _("Undo")  # value: the seq of the move taken back
    REDO = "redo", _("Redo")  # value: the seq of the move played again
    AUTO_NOTES = "auto_notes", _("Auto notes")
    RESTART = "restart", _("Restart")
    PAUSE = "pause", _("Pause")
    RESUME = "resume", _("Resume")
    ABANDON = "abandon", _("Abandon")


class Game(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="games",
    )
    # A visitor without an account plays under a random key kept in their session.
    guest_key = models.CharField(max_length=64, blank=True, default="")
    puzzle = models.ForeignKey("puzzles.Puzzle", on_delete=models.PROTECT, related_name="games")
    entries = models.CharField(max_length=625)
    # str(cell) -> sorted list of values.
    notes = models.JSONField(default=dict, blank=True)
    # Corner marks ("this value goes in one of these cells"), kept as the notes are.
    corners = models.JSONField(default=dict, blank=True)
    # Cell colours: str(cell) -> sorted colours 1 to 9 (a palette the page draws).
    colours = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    mistakes = models.PositiveIntegerField(default=0)
    mistake_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    # Hint stages paid for, in total.
    hints_used = models.PositiveIntegerField(default=0)
    # The hint being revealed: the step (as JSON), the stage reached, and the position it
    # was computed for; a hint for another position is stale and computed afresh.
    hint = models.JSONField(null=True, blank=True)
    hint_stage = models.PositiveSmallIntegerField(default=0)
    hint_key = models.CharField(max_length=40, blank=True, default="")
    aids = models.PositiveIntegerField(default=0)
    elapsed_ms = models.BigIntegerField(default=0)
    running_since = models.DateTimeField(null=True, blank=True)
    score = models.PositiveIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    # Sequence numbers handed out so far, and how many log moves undo and redo can walk.
    move_count = models.PositiveIntegerField(default=0)
    undo_depth = models.PositiveIntegerField(default=0)
    redo_depth = models.PositiveIntegerField(default=0)
    # The player's first game of this puzzle (only such a game may count: integrity.gate).
    ranked = models.BooleanField(default=True)
    # Started by a guest and given to an account at sign-up or sign-in.
    claimed = models.BooleanField(default=False)
    # What integrity.gate decided when the game finished (and again on a staff verdict):
    # whether it counts for boards and ratings, and the reason code; null and "" until then.
    counts = models.BooleanField(null=True, blank=True)
    standing = models.CharField(max_length=24, blank=True, default="")
    # A practice game: the technique slug the player asked to practise (learn app).
    practice_technique = models.CharField(max_length=40, blank=True, default="")
    # A race game (races app): read with the game, so a move knows to tell the race
    # without another query.
    race = models.ForeignKey(
        "races.Race", null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(guest_key=""),
                name="game_has_a_player",
            ),
            # One unfinished game of a puzzle per player: starting it again continues that
            # game, so a second one cannot be abandoned to show the solution of the first.
            models.UniqueConstraint(
                fields=["user", "puzzle"],
                condition=models.Q(user__isnull=False, status__in=UNFINISHED),
                name="one_unfinished_game_per_user_and_puzzle",
            ),
            models.UniqueConstraint(
                fields=["guest_key", "puzzle"],
                condition=models.Q(user__isnull=True, status__in=UNFINISHED),
                name="one_unfinished_game_per_guest_and_puzzle",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "status", "-created"], name="game_user_status"),
            models.Index(fields=["guest_key"], name="game_guest_key"),
            models.Index(fields=["status", "finished"], name="game_status_finished"),
            models.Index(fields=["puzzle", "status"], name="game_puzzle_status"),
            # The boards read only the games that count, by period.
            models.Index(
                fields=["finished"], condition=models.Q(counts=True), name="game_counts_finished"
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.pk} of puzzle {self.puzzle_id} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED

    def elapsed_at(self, now: datetime) -> int:
        """Milliseconds played up to ``now``: the running stretch since the last sign of
        life counts up to the clock's gap (see the module's docstring)."""
        if self.running_since is None:
            return self.elapsed_ms
        return self.elapsed_ms + counted_ms(now - self.running_since)


class Move(models.Model):
    # No index of its own: both unique constraints below begin with the game, so either of
    # their indexes serves a lookup by game (the move log, a cascade); a third would only
    # cost every move's INSERT.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    seq = models.PositiveIntegerField()
    # Sent by the client; a retry with the same id gets the stored answer. Hint
    # applications made by the server have none.
    client_move_id = models.UUIDField(null=True, blank=True)
    kind = models.CharField(max_length=12, choices=MoveKind.choices)
    cell = models.PositiveSmallIntegerField(null=True, blank=True)
    # The value placed or noted; for hint_reveal the stage, for undo and redo the seq of
    # the entry taken back or played again.
    value = models.PositiveIntegerField(default=0)
    previous = models.PositiveSmallIntegerField(default=0)
    correct = models.BooleanField(null=True, blank=True)
    # {"entries": [[cell, before, after], ...], "notes": [[cell, [before], [after]], ...]}
    changes = models.JSONField(default=dict, blank=True)
    # The answer sent for this move (without the game), replayed for a retried id.
    response = models.JSONField(default=dict, blank=True)
    in_log = models.BooleanField(default=True)
    undone = models.BooleanField(default=False)
    # The game clock (paused time excluded) right after this entry, by the server's time;
    # the wall time is ``created``.
    elapsed_ms = models.BigIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_seq_unique_per_game"),
            models.UniqueConstraint(
                fields=["game", "client_move_id"], name="move_client_id_unique_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"move {self.seq} of game {self.game_id}: {self.kind} {self.cell}={self.value}"


class AidSettings(models.Model):
    """The board aids a signed-in player turned on or off, kept on the account so every
    device shows the board the same way (a guest's stay in the browser). Looks only: what
    the server checks and stores is the same either way."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="aid_settings",
    )
    highlight_same = models.BooleanField(default=True)
    highlight_peers = models.BooleanField(default=True)
    # Placing a value takes it out of its peers' pencil marks (the move says so: play.moves).
    clear_peer_notes = models.BooleanField(default=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return (
            f"{self.user_id}: same={self.highlight_same} peers={self.highlight_peers}"
            f" clear={self.clear_peer_notes}"
        )
