"""Grading the stored bank again after the grader changes.

Every puzzle row keeps the ``grader_version`` that made its level and score. When
:data:`solver.logic.grade.GRADER_VERSION` moves on, :func:`bank_regrade_plan` splits the rows
with an older version into id ranges, and each range is graded again by
:func:`bank_regrade_chunk` (a Celery task each, or one after the other from
``manage.py seed_bank --regrade``). Progress lives in the rows: a chunk only touches rows
still stale, and marks each with the current version as it stores the new grade, so a chunk
run twice, or cut short by a dying worker and run again, does the rest and nothing twice;
planning again after a crash finds only the ranges still stale.

Variant puzzles (Diagonal, Jigsaw, Killer) are graded by the variant grader
(:mod:`solver.logic.variant_grade`) and carry its version,
:data:`~solver.logic.variant_grade.VARIANT_GRADER_VERSION`; they are stale when it moves on,
and are graded again the same way.

Each classic puzzle's stored solution is passed to the grader, so no search repeats the
uniqueness check made when the puzzle was stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q, QuerySet

from puzzles.bank import grade_columns
from puzzles.models import Puzzle, Source
from puzzles.techniques import puzzle_techniques_store
from solver.grid import parse
from solver.logic.grade import GRADER_VERSION, Grade, grade
from solver.logic.variant_grade import VARIANT_GRADER_VERSION, variant_grade

REGRADE_CHUNK = 200
"""Puzzles per chunk: a few seconds of grading for 9x9 puzzles."""

REGRADE_MAX_SIZE = 16
"""Larger puzzles keep their grade (a 25x25 takes too long to grade again on a worker)."""


@dataclass(frozen=True, slots=True)
class RegradeRange:
    """Puzzle ids ``first_id`` to ``last_id`` (both included) that are due for grading."""

    first_id: int
    last_id: int


_CLASSIC = Q(variant="classic", constrained=False)
"""The puzzles the classic grader grades; the variant grader grades the rest."""


def _stale() -> QuerySet[Puzzle]:
    classic = _CLASSIC & ~Q(grader_version=GRADER_VERSION)
    variants = ~_CLASSIC & ~Q(grader_version=VARIANT_GRADER_VERSION)
    # A practice puzzle keeps the grade and sentences it was made with: it is in no pool.
    return Puzzle.objects.filter(classic | variants, size__lte=REGRADE_MAX_SIZE).exclude(
        source=Source.PRACTICE
    )


def _is_classic(puzzle: Puzzle) -> bool:
    """Whether the classic grader grades ``puzzle``: a classic puzzle with no constraints
    (one with constraints is "classic" by name only, and graded by the variant grader)."""
    return puzzle.variant == "classic" and not puzzle.constrained


def _current(puzzle: Puzzle) -> int:
    """The version of the grader that grades ``puzzle`` now."""
    return GRADER_VERSION if _is_classic(puzzle) else VARIANT_GRADER_VERSION


def _graded(puzzle: Puzzle) -> Grade:
    shape = {"box_rows": puzzle.box_rows, "box_cols": puzzle.box_cols}
    if not _is_classic(puzzle):
        from puzzles.variants import rules_of

        return variant_grade(rules_of(puzzle), parse(puzzle.givens, **shape))
    return grade(parse(puzzle.givens, **shape), solution=parse(puzzle.solution, **shape))


def bank_regrade_plan(*, chunk: int | None = None) -> list[RegradeRange]:
    """The id ranges of ``chunk`` (else ``REGRADE_CHUNK``) stale puzzles each, in id order
    (read by keyset pages)."""
    chunk = chunk or REGRADE_CHUNK
    ranges = []
    after = 0
    while True:
        ids = list(
            _stale().filter(id__gt=after).order_by("id").values_list("id", flat=True)[:chunk]
        )
        if not ids:
            return ranges
        ranges.append(RegradeRange(first_id=ids[0], last_id=ids[-1]))
        after = ids[-1]


def bank_regrade_chunk(*, first_id: int, last_id: int) -> int:
    """Grade the stale puzzles with ids in ``first_id..last_id`` again; returns how many
    changed level, score, techniques or hardest technique."""
    changed = 0
    rows = _stale().filter(id__gte=first_id, id__lte=last_id).order_by("id")
    for puzzle in rows.iterator(chunk_size=REGRADE_CHUNK):
        version = _current(puzzle)
        fields = grade_columns(_graded(puzzle))
        if any(getattr(puzzle, name) != value for name, value in fields.items()):
            changed += 1
        with transaction.atomic():
            # only a row still stale: another run of this chunk may have been here first
            claimed = (
                Puzzle.objects.filter(pk=puzzle.pk)
                .exclude(grader_version=version)
                .update(grader_version=version, **fields)
            )
            if claimed:  # the technique rows follow the new grade (practice picks read them)
                for name, value in fields.items():
                    setattr(puzzle, name, value)
                puzzle_techniques_store(puzzle=puzzle)
    return changed


def bank_regrade_progress() -> tuple[int, int]:
    """(puzzles graded by the current grader, puzzles still to grade)."""
    stale = _stale().count()
    current = (_CLASSIC & Q(grader_version=GRADER_VERSION)) | (
        ~_CLASSIC & Q(grader_version=VARIANT_GRADER_VERSION)
    )
    return Puzzle.objects.filter(current).count(), stale


def bank_regrade(*, progress: Callable[[str], None] | None = None) -> int:
    """Grade every stale puzzle again, chunk after chunk, here; returns how many changed."""
    changed = 0
    plan = bank_regrade_plan()
    for number, span in enumerate(plan, start=1):
        changed += bank_regrade_chunk(first_id=span.first_id, last_id=span.last_id)
        if progress is not None:
            progress(f"regraded chunk {number}/{len(plan)} (ids {span.first_id}-{span.last_id})")
    return changed
