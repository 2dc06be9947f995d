"""The puzzle bank: stored puzzles, packs of generated puzzles, the daily puzzle.

A puzzle is stored once: its givens are unique per size, and its ``canonical_key``
(the sha256 of ``solver.rules.canon.canonical_key``) is unique, so two puzzles that are
the same up to symmetry and relabelling are one row. Every stored puzzle has
exactly one solution; that is checked before insert by the services.

A pack is generated in chunks by Celery workers. Its puzzles are ``PackEntry`` rows
with a unique ``(pack, position)``, so a chunk that runs twice cannot add a puzzle
twice, and progress is counted from the rows, never from a counter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from solver.logic.grade import GRADER_VERSION

if TYPE_CHECKING:
    from solver import Grid, Shape


def current_grader_version() -> int:
    """The version of the grader this code runs (``solver.logic.grade.GRADER_VERSION``)."""
    return GRADER_VERSION


class Difficulty(models.TextChoices):
    """The grader's levels, easiest first (``solver.logic.grade.LEVELS``)."""

    EASY = "easy", _("Easy")
    MEDIUM = "medium", _("Medium")
    HARD = "hard", _("Hard")
    EXPERT = "expert", _("Expert")
    MASTER = "master", _("Master")


class Symmetry(models.TextChoices):
    """Clue symmetries (``solver.generation.classic.SYMMETRIES``)."""

    NONE = "none", _("None")
    ROTATIONAL = "rotational", _("Rotational")
    MIRROR = "mirror", _("Mirror")
    DIAGONAL = "diagonal", _("Diagonal")


class Variant(models.TextChoices):
    """The rules a puzzle is played by (``solver.rules.ruleset.VARIANTS``)."""

    CLASSIC = "classic", pgettext_lazy("variant", "Classic")
    DIAGONAL = "diagonal", pgettext_lazy("variant", "Diagonal")
    JIGSAW = "jigsaw", pgettext_lazy("variant", "Jigsaw")
    KILLER = "killer", pgettext_lazy("variant", "Killer")


class Source(models.TextChoices):
    GENERATED = "generated", _("Generated")
    IMPORTED = "imported", _("Imported")
    # A grid a player typed in to play: theirs, never in the bank's pools (level, daily,
    # practice, at my level) and never counted (integrity.gate) unless staff promote it.
    TYPED = "typed", _("Typed in by a player")
    # Made for a constraint lesson's practice (learn.constraint_practice): never in the
    # bank's pools (level, daily, at my level) and its games never count.
    PRACTICE = "practice", _("Made for practice")


BANK_SOURCES = (Source.GENERATED, Source.IMPORTED)
"""The sources the bank's pools draw from: never a typed-in or a practice-only puzzle."""

CONSTRAINED_DAILY_SIZE = 9
"""The size of the daily puzzle with constraints (puzzles.constraint_daily)."""


class Puzzle(models.Model):
    size = models.PositiveSmallIntegerField()
    box_rows = models.PositiveSmallIntegerField()
    box_cols = models.PositiveSmallIntegerField()
    # One line, row by row, "." for an empty cell, symbols 1-9 then A-P.
    givens = models.CharField(max_length=625)
    # Never serialized to players.
    solution = models.CharField(max_length=625)
    difficulty = models.CharField(max_length=10, choices=Difficulty.choices)
    score = models.PositiveIntegerField()
    # Technique slug -> number of uses, from the grader.
    techniques = models.JSONField(default=dict, blank=True)
    hardest_technique = models.CharField(max_length=40, blank=True)
    # the grader that made the grade above (see puzzles.regrade); a row written without it
    # (before it existed) reads as made by no known grader, so it is graded again
    grader_version = models.PositiveSmallIntegerField(default=current_grader_version, db_default=0)
    clue_count = models.PositiveSmallIntegerField()
    symmetry = models.CharField(max_length=12, choices=Symmetry.choices, default=Symmetry.NONE)
    # db_default too: a writer that predates these columns stores a classic puzzle.
    variant = models.CharField(
        max_length=10, choices=Variant.choices, default=Variant.CLASSIC, db_default="classic"
    )
    # The rules beyond the grid (puzzles.variants): {"regions": [...] only when irregular,
    # "diagonals": bool, "cages": [{"cells": [...], "sum": n}]}; {} for a classic puzzle.
    rules = models.JSONField(
        default=dict, blank=True, db_default=models.Value({}, output_field=models.JSONField())
    )
    # Whether the rules carry constraints (thermometers, arrows, dots...): such a puzzle
    # keeps its variant's name (Rules.variant ignores constraints) but is not that variant's
    # to serve, so no pool draws it, no day takes it and no game of it counts. Computed by
    # PostgreSQL from ``rules``, so no writer can store it wrong, and every pool filters on
    # a column, not on JSON.
    constrained = models.GeneratedField(
        expression=models.Q(rules__has_key="constraints"),
        output_field=models.BooleanField(),
        db_persist=True,
    )
    canonical_key = models.CharField(max_length=64, unique=True)
    source = models.CharField(max_length=10, choices=Source.choices)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            # A variant puzzle's givens alone do not make it (a Killer may have none):
            # its canonical key, which covers its rules, keeps it unique.
            models.UniqueConstraint(
                fields=["size", "givens"],
                condition=models.Q(variant="classic"),
                name="puzzle_givens_unique_per_size",
            ),
            models.CheckConstraint(
                condition=models.Q(size=models.F("box_rows") * models.F("box_cols")),
                name="puzzle_size_is_box_rows_times_cols",
            ),
        ]
        indexes = [
            # puzzle_pick walks (variant, size, difficulty) from a random id upwards.
            models.Index(
                fields=["variant", "size", "difficulty", "id"], name="puzzle_variant_size_level_id"
            ),
            # A constraint lesson's practice walks its few puzzles, never the whole bank.
            models.Index(
                fields=["size", "id"],
                condition=models.Q(source="practice"),
                name="puzzle_practice_size_id",
            ),
        ]

    def __str__(self) -> str:
        variant = "" if self.variant == Variant.CLASSIC else f" {self.variant}"
        return f"#{self.pk} {self.size}x{self.size}{variant} {self.difficulty}"

    @property
    def label(self) -> str:
        """What a list, a card or a title calls the puzzle: its rules (a variant's, then
        each kind of constraint: puzzles.constraint_names), its level and its size, in the
        reader's language ("Hard 9×9", "Killer, Arrow · Expert 9×9")."""
        from puzzles.constraint_names import constraint_kinds, rules_names

        level = f"{self.get_difficulty_display()} {self.size}×{self.size}"
        variant = None if self.variant == Variant.CLASSIC else str(self.get_variant_display())
        names = rules_names(variant, constraint_kinds(self.rules))
        return f"{names} · {level}" if names else level

    @property
    def constraint_kinds(self) -> list[str]:
        """The kinds of constraint its rules carry (``thermometer``...), each once."""
        from puzzles.constraint_names import constraint_kinds

        return constraint_kinds(self.rules)

    @property
    def shape(self) -> Shape:
        from solver import Shape

        return Shape(self.box_rows, self.box_cols)

    def grid(self) -> Grid:
        """The givens as a solver Grid."""
        from solver import parse

        return parse(self.givens, box_rows=self.box_rows, box_cols=self.box_cols)

    def solution_grid(self) -> Grid:
        from solver import parse

        return parse(self.solution, box_rows=self.box_rows, box_cols=self.box_cols)


class PuzzleTechnique(models.Model):
    """How often a stored puzzle's logic solution uses one technique (from its grade).

    ``size`` repeats the puzzle's so that "a 9x9 puzzle that needs X-Wing" is one walk of
    the index.
    """

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="technique_uses")
    technique = models.CharField(max_length=40)
    size = models.PositiveSmallIntegerField()
    difficulty = models.CharField(max_length=10, choices=Difficulty.choices)
    count = models.PositiveIntegerField()

    class Meta:
        ordering = ["puzzle", "technique"]
        constraints = [
            models.UniqueConstraint(fields=["puzzle", "technique"], name="puzzle_technique_unique"),
        ]
        indexes = [
            models.Index(
                fields=["technique", "size", "difficulty", "puzzle"], name="technique_practice"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.puzzle_id} {self.technique} x{self.count}"


class PackStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")
    CANCELLED = "cancelled", _("Cancelled")


class PuzzlePack(models.Model):
    """A batch of generated puzzles of one size and level, made by Celery workers."""

    ACTIVE = (PackStatus.PENDING, PackStatus.RUNNING)
    FINISHED = (PackStatus.DONE, PackStatus.FAILED, PackStatus.CANCELLED)

    name = models.CharField(max_length=100, unique=True)
    size = models.PositiveSmallIntegerField()
    box_rows = models.PositiveSmallIntegerField()
    box_cols = models.PositiveSmallIntegerField()
    difficulty = models.CharField(max_length=10, choices=Difficulty.choices)
    symmetry = models.CharField(max_length=12, choices=Symmetry.choices, default=Symmetry.NONE)
    # Diagonal, Jigsaw or Killer: each puzzle made by puzzles.variants under fresh rules.
    variant = models.CharField(
        max_length=10, choices=Variant.choices, default=Variant.CLASSIC, db_default="classic"
    )
    # A practice pack: every puzzle's logic solution needs this technique (a slug).
    technique = models.CharField(max_length=40, blank=True)
    count = models.PositiveIntegerField(help_text="How many puzzles were requested.")
    # Chunk k is generated from the seeds f"{seed}:{k}:...", so a rerun makes the same puzzles.
    seed = models.CharField(max_length=64)
    chunk_size = models.PositiveSmallIntegerField(default=10)
    status = models.CharField(max_length=10, choices=PackStatus.choices, default=PackStatus.PENDING)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="puzzle_packs",
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    puzzles = models.ManyToManyField(Puzzle, through="PackEntry", related_name="packs")

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(count__gt=0), name="pack_count_positive"),
            models.CheckConstraint(
                condition=models.Q(chunk_size__gt=0), name="pack_chunk_size_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def chunk_count(self) -> int:
        return -(-self.count // self.chunk_size)

    def chunk_positions(self, number: int) -> range:
        """The positions chunk ``number`` fills."""
        start = number * self.chunk_size
        return range(start, min(start + self.chunk_size, self.count))


class PackEntry(models.Model):
    """A puzzle at a position of a pack."""

    pack = models.ForeignKey(PuzzlePack, on_delete=models.CASCADE, related_name="entries")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="pack_entries")
    position = models.PositiveIntegerField()

    class Meta:
        ordering = ["pack", "position"]
        constraints = [
            models.UniqueConstraint(fields=["pack", "position"], name="pack_entry_position_unique"),
            models.UniqueConstraint(fields=["pack", "puzzle"], name="pack_entry_puzzle_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.pack_id}[{self.position}] = {self.puzzle_id}"


class ChunkStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class PackChunk(models.Model):
    """One task's share of a pack. ``attempts`` counts every start, including
    redeliveries after a worker died, so a chunk that kills its worker cannot loop."""

    pack = models.ForeignKey(PuzzlePack, on_delete=models.CASCADE, related_name="chunks")
    number = models.PositiveIntegerField()
    status = models.CharField(
        max_length=10, choices=ChunkStatus.choices, default=ChunkStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    # "host:pid" of the process that last started the chunk, to trace a lost worker.
    claimed_by = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True)
    # When its task was last sent to the broker: the sweep that sends again the chunks a
    # broker lost (pack_resume_stalled) waits this long before sending it once more.
    queued = models.DateTimeField(null=True, blank=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pack", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pack", "number"], name="pack_chunk_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.pack_id} chunk {self.number} ({self.status})"


class DailyPuzzle(models.Model):
    """The puzzle of the day for one variant and size, or (``constrained``) the day's one
    puzzle with constraints (puzzles.constraint_daily)."""

    date = models.DateField()
    # db_default too: a writer that predates the column (and every row before it) is classic.
    variant = models.CharField(
        max_length=10, choices=Variant.choices, default=Variant.CLASSIC, db_default="classic"
    )
    size = models.PositiveSmallIntegerField()
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="daily")
    # The daily puzzle with constraints, one a day beside the variant dailies: its puzzle
    # has constraints (and so is never rated), a variant daily's never has.
    constrained = models.BooleanField(
        default=False,
        db_default=False,
        help_text="The day's puzzle with constraints (a 9x9 with constraints, never rated).",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "variant", "size"]
        constraints = [
            models.UniqueConstraint(
                fields=["date", "variant", "size"],
                condition=models.Q(constrained=False),
                name="daily_puzzle_unique_per_day",
            ),
            models.UniqueConstraint(
                fields=["date"],
                condition=models.Q(constrained=True),
                name="daily_constrained_unique_per_day",
            ),
        ]

    def __str__(self) -> str:
        kind = " with constraints" if self.constrained else ""
        return f"{self.date} {self.variant} {self.size}x{self.size}{kind}: #{self.puzzle_id}"

    def clean(self) -> None:
        """What the daily picks (puzzles.daily, puzzles.constraint_daily) draw, held for a
        daily set by hand in the admin too: a bank puzzle of this variant and size, with
        constraints for the daily with constraints (a 9x9), without for the others."""
        puzzle = self.puzzle if self.puzzle_id else None
        if puzzle is None or (
            puzzle.source in BANK_SOURCES
            and puzzle.constrained == self.constrained
            and puzzle.variant == self.variant
            and puzzle.size == self.size
            and (not self.constrained or self.size == CONSTRAINED_DAILY_SIZE)
        ):
            return
        if self.constrained:
            message = _(
                "The daily puzzle with constraints is a 9×9 bank puzzle with constraints, "
                "of its variant: #%(id)s is not."
            )
        else:
            message = _(
                "A daily puzzle is a bank puzzle of its variant and size, without "
                "constraints: #%(id)s is not."
            )
        raise ValidationError({"puzzle": message % {"id": puzzle.pk}})
