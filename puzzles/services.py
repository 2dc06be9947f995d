"""Writes of the puzzle bank: storing checked puzzles, packs and their chunks, imports,
the daily puzzle and the periodic top-up.

The rules every write keeps:

- A puzzle is stored only after ``count_solutions(limit=2) == 1`` and a grade; it is
  stored once (unique givens per size, unique canonical key), and a race between two
  writers is settled by those constraints, never by a read-then-write.
- A pack is split into chunks, and chunk k fills positions ``k*chunk_size ...`` of the
  pack, each from the seed ``f"{pack.seed}:{k}:{position}"``. The puzzle and its
  ``PackEntry`` are written in one transaction, and ``(pack, position)`` is unique, so a
  chunk that runs twice (a retry, a redelivery after a worker died, two copies at once)
  fills each position once. A position whose puzzle the bank already holds from
  elsewhere takes the next sub-seed (``...:{position}:1``, ``:2`` ...): still
  deterministic, so every copy of the chunk agrees.
- Work is claimed with conditional updates (``filter(status=...).update(...)``): a chunk
  counts every start in ``attempts`` and gives up after ``CHUNK_MAX_ATTEMPTS``, so a chunk
  that keeps failing, or keeps killing its worker, ends the pack as failed instead of
  looping; the pack is marked done by whoever sees the last position filled, once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Max, Q
from django.utils import timezone

from puzzles.models import (
    ChunkStatus,
    DailyPuzzle,
    Difficulty,
    PackChunk,
    PackEntry,
    PackStatus,
    Puzzle,
    PuzzlePack,
    Source,
    Symmetry,
)
from solver import (
    BudgetExceeded,
    Grid,
    ParseError,
    Shape,
    cell_name,
    conflicts,
    count_solutions,
    format_line,
    is_solution,
    parse,
    parse_many,
    solutions,
    unit_name,
)
from solver.canon import canonical_key
from solver.generate import (
    SYMMETRIES,
    GenerationFailed,
    generate,
    is_symmetric,
    supported_levels,
)
from solver.grade import GRADER_VERSION, LEVELS, Grade, grade
from solver.grid import symbol
from sudokusite.errors import Conflict, DomainError, NotFoundError
from sudokusite.unique import insert_or_existing

logger = logging.getLogger(__name__)

# --- Limits (documented in README.md, "Puzzle bank") -------------------------------------

PACK_MAX_COUNT = 10_000
"""The largest pack one request may ask for."""

PACK_SIZES = (4, 6, 8, 9, 12, 16)
"""Grid sides a pack can be made of."""

CHUNK_MAX_ATTEMPTS = 4
"""Starts of one chunk (first run, retries after an error, redeliveries after a worker
died) before the pack is failed."""

MAX_REPLACEMENTS = 25
"""Sub-seeds tried for one position when the bank already holds each puzzle made."""

IMPORT_MAX_BYTES = 5 * 1024 * 1024
IMPORT_MAX_PUZZLES = 20_000

BANK_SIZES = (4, 6, 9, 16)
"""Sizes the starter bank and the top-up keep stocked."""

CHECK_BUDGET = 2_000_000
"""Search nodes allowed to prove an imported puzzle has one solution."""


def _chunk_size(size: int, level: str) -> int:
    """Puzzles per chunk: a chunk should take seconds, so a lost one costs little."""
    if size <= 6:
        return 25 if level == "easy" else 10
    if size <= 9:
        return {"easy": 10, "medium": 8, "hard": 5, "expert": 4, "master": 2}.get(level, 5)
    # A 16x16 master puzzle takes the better part of a minute.
    return 2 if level in ("easy", "medium") else 1


# --- Errors ------------------------------------------------------------------------------


class PuzzleNotUnique(DomainError):
    """The puzzle has no solution or more than one; codes ``no_solution`` /
    ``multiple_solutions`` / ``too_hard_to_check``."""

    code = "not_unique"
    message = "A puzzle must have exactly one solution."


class PackRequestInvalid(DomainError):
    code = "invalid_pack"
    message = "The pack request is not valid."

    def __init__(self, message: str, *, field_name: str) -> None:
        super().__init__(message, code=f"invalid_{field_name}", extra={"field": field_name})
        self.field_name = field_name


class PackNameTaken(Conflict):
    code = "pack_name_taken"
    message = "A pack with that name exists."


class PackNotActive(Conflict):
    code = "pack_not_active"
    message = "The pack has finished."


class BankEmpty(NotFoundError):
    code = "bank_empty"
    message = "The bank holds no puzzle of that size yet."


class PackChunkError(RuntimeError):
    """A chunk could not fill a position (the task retries, then fails the pack)."""


# --- Puzzles -----------------------------------------------------------------------------


def puzzle_key(grid: Grid) -> str:
    """The stored canonical key: sha256 of the solver's key, so the index stays small."""
    return hashlib.sha256(canonical_key(grid).encode()).hexdigest()


def symmetry_of(grid: Grid) -> str:
    """The first symmetry the pattern of givens has, or ``none``."""
    for name in SYMMETRIES:
        if name != "none" and is_symmetric(grid, name):
            return name
    return Symmetry.NONE


def givens_clash_text(grid: Grid) -> str | None:
    """'r1c1 and r1c5 both hold 3 in row 1' for the first clash of givens, or None."""
    found = conflicts(grid)
    if not found:
        return None
    first = found[0]
    a, b = (cell_name(grid.shape, c) for c in first.cells)
    return f"{a} and {b} both hold {symbol(first.value)} in {unit_name(grid.shape, first.unit)}"


def puzzle_solution_checked(grid: Grid) -> Grid:
    """The one solution of ``grid``; raises PuzzleNotUnique saying why there is not one."""
    clash = givens_clash_text(grid)
    if clash:
        raise PuzzleNotUnique(f"The puzzle has no solution: {clash}.", code="no_solution")
    try:
        # One search both counts (up to two) and keeps the solution.
        found = solutions(grid, limit=2, budget=CHECK_BUDGET)
    except BudgetExceeded:
        raise PuzzleNotUnique(
            "The puzzle is too sparse to prove it has one solution in reasonable time.",
            code="too_hard_to_check",
        ) from None
    if not found:
        raise PuzzleNotUnique("The puzzle has no solution.", code="no_solution")
    if len(found) > 1:
        raise PuzzleNotUnique("The puzzle has more than one solution.", code="multiple_solutions")
    return found[0]


def _puzzle_row(
    *, grid: Grid, solution: Grid, rated: Grade, symmetry: str, source: str, key: str
) -> Puzzle:
    return Puzzle(
        size=grid.size,
        box_rows=grid.shape.box_rows,
        box_cols=grid.shape.box_cols,
        givens=format_line(grid),
        solution=format_line(solution),
        difficulty=rated.level,
        score=rated.score,
        techniques=dict(rated.techniques),
        hardest_technique=rated.hardest or "",
        clue_count=grid.clues,
        symmetry=symmetry,
        canonical_key=key,
        source=source,
    )


def _puzzle_existing(grid: Grid, key: str) -> Puzzle | None:
    return (
        Puzzle.objects.filter(canonical_key=key).first()
        or Puzzle.objects.filter(size=grid.size, givens=format_line(grid)).first()
    )


def puzzle_get_or_create_from_grid(
    *,
    grid: Grid,
    source: str = Source.IMPORTED,
    grade_budget: int | None = None,
    solution: Grid | None = None,
) -> tuple[Puzzle, bool]:
    """The stored puzzle equal to ``grid`` up to symmetry and relabelling, or a new one.

    Raises PuzzleNotUnique (``no_solution`` / ``multiple_solutions``) for a puzzle
    without exactly one solution. ``grade_budget`` caps the grader's passes for a grid
    from an untrusted client (BudgetExceeded when used up; nothing is stored then).
    A caller that has already proven the solution unique passes it as ``solution``,
    so the grid is not searched a second time.
    """
    key = puzzle_key(grid)
    existing = _puzzle_existing(grid, key)
    if existing is not None:
        return existing, False
    if solution is None:
        solution = puzzle_solution_checked(grid)
    row = _puzzle_row(
        grid=grid,
        solution=solution,
        rated=grade(grid, budget=grade_budget),
        symmetry=symmetry_of(grid),
        source=source,
        key=key,
    )
    # Another writer may store it between our look above and this insert.
    return insert_or_existing(row, lambda: _puzzle_existing(grid, key))


def puzzle_regrade(*, puzzles: Any) -> int:
    """Grade ``puzzles`` (a queryset or list) again and store level, score and techniques;
    returns how many changed."""
    changed = 0
    for puzzle in puzzles:
        rated = grade(puzzle.grid())
        fields = {
            "difficulty": rated.level,
            "score": rated.score,
            "techniques": dict(rated.techniques),
            "hardest_technique": rated.hardest or "",
        }
        if any(getattr(puzzle, k) != v for k, v in fields.items()):
            Puzzle.objects.filter(pk=puzzle.pk).update(**fields)
            changed += 1
    return changed


# --- Import ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportLine:
    line: int
    status: str  # imported, duplicate, invalid, multiple_solutions
    message: str
    puzzle_id: int | None = None


@dataclass
class ImportReport:
    """What happened to each puzzle of an import, by line number."""

    lines: list[ImportLine] = field(default_factory=list)
    committed: bool = True

    def of(self, status: str) -> list[ImportLine]:
        return [line for line in self.lines if line.status == status]

    @property
    def counts(self) -> dict[str, int]:
        out = {"imported": 0, "duplicate": 0, "invalid": 0, "multiple_solutions": 0}
        for line in self.lines:
            out[line.status] += 1
        return out

    @property
    def rejected(self) -> list[ImportLine]:
        return [line for line in self.lines if line.status in ("invalid", "multiple_solutions")]


class ImportRejected(DomainError):
    """A strict import met bad lines; nothing was imported. ``report`` says which."""

    code = "import_rejected"
    message = "The import has bad lines; nothing was imported."

    def __init__(self, report: ImportReport) -> None:
        bad = report.rejected
        lines = ", ".join(str(line.line) for line in bad[:10]) + (" ..." if len(bad) > 10 else "")
        super().__init__(
            f"{len(bad)} bad line(s) ({lines}); nothing was imported.",
            extra={"report": [vars(line) for line in bad]},
        )
        self.report = report


class ImportUnreadable(DomainError):
    code = "import_unreadable"
    message = "The file cannot be read."


def import_text_decode(data: bytes) -> str:
    """The text of an uploaded file; ImportUnreadable saying why it is not text."""
    if len(data) > IMPORT_MAX_BYTES:
        raise ImportUnreadable(
            f"The file has {len(data):,} bytes; the limit is {IMPORT_MAX_BYTES:,}."
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportUnreadable(f"line {line}: the file is not UTF-8 text.") from None


def _sdk_body(text: str) -> str:
    """Drop the ``[Puzzle]`` section header and ``#`` metadata of SadMan .sdk files,
    keeping line numbers (blank lines are skipped by the parser)."""
    lines = text.splitlines()
    return "\n".join(
        "" if line.strip().lower() in ("[puzzle]", "[state]") else line for line in lines
    )


@transaction.atomic
def puzzle_import_text(
    *,
    text: str,
    strict: bool = False,
    box_rows: int | None = None,
    box_cols: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ImportReport:
    """Import puzzles from text in any format the solver parses: one per line (``.txt``,
    ``.sdm``) or one grid over several lines (``.sdk``, a pretty grid).

    Every puzzle is checked (exactly one solution), graded and deduplicated against the
    bank and the file. The import is one transaction, so it is never half done. By
    default the valid lines are imported and the bad ones reported; with ``strict`` a
    single bad line imports nothing (raises ImportRejected carrying the report).
    """
    if (box_rows is None) != (box_cols is None):
        raise ImportUnreadable("Give both box_rows and box_cols, or neither.")
    parsed = parse_many(_sdk_body(text), box_rows=box_rows, box_cols=box_cols)
    if not parsed:
        raise ImportUnreadable("The file holds no puzzle.")
    if len(parsed) > IMPORT_MAX_PUZZLES:
        raise ImportUnreadable(
            f"The file holds {len(parsed):,} puzzles; the limit is {IMPORT_MAX_PUZZLES:,}."
        )
    report = ImportReport()
    seen: dict[str, int] = {}  # canonical key -> line in this file
    for index, (line, item) in enumerate(parsed):
        if progress:
            progress(index, len(parsed))
        report.lines.append(_import_one(line, item, seen))
    if strict and report.rejected:
        transaction.set_rollback(True)
        report.committed = False
        raise ImportRejected(report)
    return report


def _import_one(line: int, item: Grid | ParseError, seen: dict[str, int]) -> ImportLine:
    if isinstance(item, ParseError):
        message = str(item)
        prefix = f"line {line}: "
        return ImportLine(line, "invalid", message.removeprefix(prefix))
    grid = item
    key = puzzle_key(grid)
    if key in seen:
        return ImportLine(line, "duplicate", f"the same puzzle as line {seen[key]}")
    existing = _puzzle_existing(grid, key)
    if existing is not None:
        seen[key] = line
        return ImportLine(line, "duplicate", f"already in the bank as #{existing.pk}", existing.pk)
    try:
        puzzle, created = puzzle_get_or_create_from_grid(grid=grid, source=Source.IMPORTED)
    except PuzzleNotUnique as exc:
        status = "multiple_solutions" if exc.code == "multiple_solutions" else "invalid"
        return ImportLine(line, status, exc.message)
    seen[key] = line
    if not created:
        return ImportLine(line, "duplicate", f"already in the bank as #{puzzle.pk}", puzzle.pk)
    return ImportLine(
        line, "imported", f"#{puzzle.pk} {puzzle.difficulty} ({puzzle.score})", puzzle.pk
    )


def puzzle_import_file(*, data: bytes, strict: bool = False, **kwargs: Any) -> ImportReport:
    """:func:`puzzle_import_text` for the bytes of a file."""
    return puzzle_import_text(text=import_text_decode(data), strict=strict, **kwargs)


# --- Packs -------------------------------------------------------------------------------


def pack_request_validate(
    *, name: str, size: Any, difficulty: Any, count: Any, symmetry: Any = "none"
) -> Shape:
    """The shape of a pack request, or PackRequestInvalid naming the field and the fix."""
    if not isinstance(name, str) or not name.strip():
        raise PackRequestInvalid("name: give the pack a name.", field_name="name")
    if len(name.strip()) > 100:
        raise PackRequestInvalid("name: at most 100 characters.", field_name="name")
    sizes = ", ".join(str(s) for s in PACK_SIZES)
    if isinstance(size, bool) or not isinstance(size, int) or size not in PACK_SIZES:
        raise PackRequestInvalid(
            f"size: {size!r} is not offered; use one of {sizes}.", field_name="size"
        )
    if difficulty not in LEVELS:
        raise PackRequestInvalid(
            f"difficulty: {difficulty!r} is not a level; use one of {', '.join(LEVELS)}.",
            field_name="difficulty",
        )
    shape = Shape.for_size(size)
    offered = supported_levels(shape)
    if difficulty not in offered:
        raise PackRequestInvalid(
            f"difficulty: {size}x{size} puzzles are made only at {', '.join(offered)}, "
            f"not {difficulty}.",
            field_name="difficulty",
        )
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= PACK_MAX_COUNT:
        raise PackRequestInvalid(
            f"count: {count!r} is out of range; ask for 1 to {PACK_MAX_COUNT:,} puzzles.",
            field_name="count",
        )
    if symmetry not in SYMMETRIES:
        raise PackRequestInvalid(
            f"symmetry: {symmetry!r} is unknown; use one of {', '.join(SYMMETRIES)}.",
            field_name="symmetry",
        )
    return shape


def _enqueue_chunks(pack_id: int, numbers: list[int], queue: str | None) -> None:
    """Send the chunks' tasks and note when. A broker that cannot be reached is logged,
    not raised: the pack is recorded, and pack_resume_stalled sends its chunks once the
    broker is back."""
    from kombu.exceptions import OperationalError

    from puzzles.tasks import pack_chunk_generate

    PackChunk.objects.filter(pack_id=pack_id, number__in=numbers).update(queued=timezone.now())
    options = {"queue": queue} if queue else {}
    for sent, number in enumerate(numbers):
        try:
            pack_chunk_generate.apply_async(args=[pack_id, number], **options)
        except OperationalError as exc:
            logger.warning(
                "pack %s: the broker is unreachable (%s); %d chunk(s) left for the resume sweep",
                pack_id,
                exc,
                len(numbers) - sent,
            )
            return


@transaction.atomic
def pack_create(
    *,
    name: str,
    size: int,
    difficulty: str,
    count: int,
    symmetry: str = Symmetry.NONE,
    seed: str | None = None,
    requested_by: Any = None,
    chunk_size: int | None = None,
    enqueue: bool = True,
    queue: str | None = None,
) -> PuzzlePack:
    """Record a pack and its chunks; the chunk tasks are queued once this commits.

    ``enqueue=False`` leaves the chunks for the caller (``generate_puzzles --sync``).
    """
    shape = pack_request_validate(
        name=name, size=size, difficulty=difficulty, count=count, symmetry=symmetry
    )
    name = name.strip()
    if PuzzlePack.objects.filter(name=name).exists():
        raise PackNameTaken(f"name: a pack named {name!r} exists; choose another name.")
    pack = PuzzlePack(
        name=name,
        size=size,
        box_rows=shape.box_rows,
        box_cols=shape.box_cols,
        difficulty=difficulty,
        symmetry=symmetry,
        count=count,
        seed=seed or secrets.token_hex(8),
        chunk_size=chunk_size or _chunk_size(size, difficulty),
        requested_by=requested_by if getattr(requested_by, "pk", None) else None,
    )
    try:
        with transaction.atomic():
            pack.save()
    except IntegrityError:
        raise PackNameTaken(f"name: a pack named {name!r} exists; choose another name.") from None
    numbers = list(range(pack.chunk_count))
    PackChunk.objects.bulk_create(PackChunk(pack=pack, number=n) for n in numbers)
    if enqueue:
        transaction.on_commit(lambda: _enqueue_chunks(pack.pk, numbers, queue))
    return pack


def pack_cancel(*, pack: PuzzlePack) -> PuzzlePack:
    """Stop a pending or running pack: chunks not yet started never start, running ones
    stop before their next puzzle. The puzzles made so far stay."""
    stopped = PuzzlePack.objects.filter(pk=pack.pk, status__in=PuzzlePack.ACTIVE).update(
        status=PackStatus.CANCELLED, finished=timezone.now()
    )
    pack.refresh_from_db()
    if not stopped:
        raise PackNotActive(f"The pack {pack.name!r} is {pack.status} already.")
    return pack


def pack_finish_if_complete(*, pack_id: int) -> bool:
    """Mark the pack done if every position is filled; True for the one caller that did."""
    pack = PuzzlePack.objects.get(pk=pack_id)
    if PackEntry.objects.filter(pack_id=pack_id).count() < pack.count:
        return False
    return (
        PuzzlePack.objects.filter(pk=pack_id, status=PackStatus.RUNNING).update(
            status=PackStatus.DONE, finished=timezone.now()
        )
        == 1
    )


def pack_chunk_fail(*, pack_id: int, number: int, error: str) -> None:
    """Give up on a chunk: the pack fails with ``error`` (unless it already finished)."""
    now = timezone.now()
    PackChunk.objects.filter(pack_id=pack_id, number=number).exclude(
        status=ChunkStatus.DONE
    ).update(status=ChunkStatus.FAILED, error=error[:4000], finished=now)
    failed = PuzzlePack.objects.filter(pk=pack_id, status__in=PuzzlePack.ACTIVE).update(
        status=PackStatus.FAILED, error=f"chunk {number}: {error}"[:4000], finished=now
    )
    if failed:
        logger.warning("pack %s failed: chunk %s: %s", pack_id, number, error)


def pack_chunk_may_retry(*, pack_id: int, number: int) -> bool:
    """True while the chunk has starts left and its pack still wants it."""
    return PackChunk.objects.filter(
        pack_id=pack_id,
        number=number,
        status__in=(ChunkStatus.PENDING, ChunkStatus.RUNNING),
        attempts__lt=CHUNK_MAX_ATTEMPTS,
        pack__status__in=PuzzlePack.ACTIVE,
    ).exists()


def _pack_is_running(pack_id: int) -> bool:
    return PuzzlePack.objects.filter(pk=pack_id, status=PackStatus.RUNNING).exists()


def pack_chunk_generate(*, pack_id: int, number: int) -> int:
    """Fill chunk ``number`` of the pack; returns how many puzzles this call added.

    Safe to run any number of times, also concurrently (see the module docstring).
    """
    pack = PuzzlePack.objects.filter(pk=pack_id).first()
    if pack is None or pack.status not in PuzzlePack.ACTIVE:
        return 0
    now = timezone.now()
    claimed = PackChunk.objects.filter(
        pack_id=pack_id,
        number=number,
        status__in=(ChunkStatus.PENDING, ChunkStatus.RUNNING),
        attempts__lt=CHUNK_MAX_ATTEMPTS,
    ).update(
        status=ChunkStatus.RUNNING,
        attempts=F("attempts") + 1,
        started=now,
        claimed_by=f"{socket.gethostname()}:{os.getpid()}"[:200],
    )
    if not claimed:
        chunk = PackChunk.objects.filter(pack_id=pack_id, number=number).first()
        if chunk is None or chunk.status not in (ChunkStatus.PENDING, ChunkStatus.RUNNING):
            return 0
        positions = pack.chunk_positions(number)
        if PackEntry.objects.filter(pack_id=pack_id, position__in=positions).count() == len(
            positions
        ):
            # Out of starts, but an earlier start filled every position before it died.
            PackChunk.objects.filter(pk=chunk.pk).exclude(status=ChunkStatus.DONE).update(
                status=ChunkStatus.DONE, finished=timezone.now()
            )
            pack_finish_if_complete(pack_id=pack_id)
        else:
            pack_chunk_fail(
                pack_id=pack_id,
                number=number,
                error=f"started {chunk.attempts} times without finishing "
                "(its worker died or it kept failing)",
            )
        return 0
    PuzzlePack.objects.filter(pk=pack_id, status=PackStatus.PENDING).update(
        status=PackStatus.RUNNING, started=now
    )
    positions = pack.chunk_positions(number)
    filled = set(
        PackEntry.objects.filter(pack_id=pack_id, position__in=positions).values_list(
            "position", flat=True
        )
    )
    added = 0
    for position in positions:
        if position in filled:
            continue
        if not _pack_is_running(pack_id):
            return added  # cancelled, or failed by another chunk
        added += _pack_fill_position(pack, number, position)
    PackChunk.objects.filter(pack_id=pack_id, number=number, status=ChunkStatus.RUNNING).update(
        status=ChunkStatus.DONE, finished=timezone.now(), error=""
    )
    pack_finish_if_complete(pack_id=pack_id)
    return added


def _pack_fill_position(pack: PuzzlePack, number: int, position: int) -> int:
    """Store a new puzzle at ``position``; 1 if this call stored it, 0 if another copy of
    the chunk did."""
    shape = Shape(pack.box_rows, pack.box_cols)
    for replacement in range(MAX_REPLACEMENTS):
        seed = f"{pack.seed}:{number}:{position}" + (f":{replacement}" if replacement else "")
        try:
            made = generate(shape, level=pack.difficulty, symmetry=pack.symmetry, seed=seed)
        except GenerationFailed:
            continue  # this seed reached no puzzle of the level; the next one will
        if count_solutions(made.puzzle, limit=2) != 1:
            raise PackChunkError(
                f"position {position}: the generator made a puzzle without "
                f"exactly one solution (seed {seed!r})"
            )
        if made.grade.level != pack.difficulty:
            continue
        row = _puzzle_row(
            grid=made.puzzle,
            solution=made.solution,
            rated=made.grade,
            symmetry=pack.symmetry,
            source=Source.GENERATED,
            key=puzzle_key(made.puzzle),
        )
        try:
            with transaction.atomic():
                row.save()
                PackEntry.objects.create(pack=pack, puzzle=row, position=position)
        except IntegrityError:
            if PackEntry.objects.filter(pack_id=pack.pk, position=position).exists():
                return 0  # another copy of this chunk filled it
            continue  # the bank holds this puzzle already: take the next sub-seed
        return 1
    raise PackChunkError(
        f"position {position}: {MAX_REPLACEMENTS} puzzles in a row were already in the bank"
    )


def pack_run_sync(*, pack: PuzzlePack, progress: Callable[[int], None] | None = None) -> PuzzlePack:
    """Generate every chunk of the pack in this process, with no worker (seeding,
    scripts). A chunk that fails fails the pack, as in a worker."""
    for number in range(pack.chunk_count):
        while True:
            try:
                added = pack_chunk_generate(pack_id=pack.pk, number=number)
            except Exception as exc:
                if pack_chunk_may_retry(pack_id=pack.pk, number=number):
                    continue
                pack_chunk_fail(pack_id=pack.pk, number=number, error=_error_text(exc))
                added = 0
            break
        if progress:
            progress(added)
        pack.refresh_from_db()
        if pack.status in PuzzlePack.FINISHED:
            break
    pack.refresh_from_db()
    return pack


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def pack_resume_stalled(*, idle_for: timedelta | None = None, queue: str | None = None) -> int:
    """Send again the chunks a broker lost; returns how many were sent.

    Redis hands the work of a dead worker to another one by itself, but only after the
    visibility timeout, and a Redis that restarts without persistence (or the filesystem
    broker of ``make run``) forgets every message it held: the pack would wait forever.
    After ``idle_for`` (``PACK_STALL_SECONDS``, longer than the hard task time limit, so a
    chunk quiet for that long is surely not running) this sends:

    - every unfinished chunk of an active pack in which no chunk was started, finished or
      sent for ``idle_for`` (its messages were lost, or never sent while the broker was
      down);
    - a chunk still marked running that started more than ``idle_for`` ago (its worker
      died), even while the rest of its pack moves.

    A chunk is sent again at most once per ``idle_for``; running one twice is harmless
    (see the module docstring), and its attempts stay bounded, so this never loops.
    """
    if idle_for is None:
        idle_for = timedelta(seconds=settings.PACK_STALL_SECONDS)
    cutoff = timezone.now() - idle_for
    unfinished = (ChunkStatus.PENDING, ChunkStatus.RUNNING)
    quiet_packs = (
        PuzzlePack.objects.filter(status__in=PuzzlePack.ACTIVE, created__lt=cutoff)
        .annotate(
            last_start=Max("chunks__started"),
            last_end=Max("chunks__finished"),
            last_sent=Max("chunks__queued"),
        )
        .filter(Q(last_start__isnull=True) | Q(last_start__lt=cutoff))
        .filter(Q(last_end__isnull=True) | Q(last_end__lt=cutoff))
        .filter(Q(last_sent__isnull=True) | Q(last_sent__lt=cutoff))
        .values("pk")
    )
    dead = Q(status=ChunkStatus.RUNNING, started__lt=cutoff) & (
        Q(queued__isnull=True) | Q(queued__lt=cutoff)
    )
    stale = (
        PackChunk.objects.filter(pack__status__in=PuzzlePack.ACTIVE, status__in=unfinished)
        .filter(Q(pack__in=quiet_packs) | dead)
        .order_by("pack_id", "number")
        .values_list("pack_id", "number")[:1000]
    )
    by_pack: dict[int, list[int]] = {}
    for pack_id, number in stale:
        by_pack.setdefault(pack_id, []).append(number)
    for pack_id, numbers in by_pack.items():
        logger.warning("pack %s: sending again stalled chunks %s", pack_id, numbers)
        _enqueue_chunks(pack_id, numbers, queue)
    return sum(len(numbers) for numbers in by_pack.values())


# --- Stock and the daily puzzle ------------------------------------------------------------


def bank_levels(size: int) -> tuple[str, ...]:
    return supported_levels(Shape.for_size(size))


def bank_stock() -> dict[tuple[int, str], int]:
    """Puzzles in the bank per (size, level)."""
    rows = Puzzle.objects.values("size", "difficulty").annotate(n=Count("id")).order_by()
    return {(row["size"], row["difficulty"]): row["n"] for row in rows}


def bank_top_up(
    *,
    minimum: int | None = None,
    target: int | None = None,
    sizes: tuple[int, ...] = BANK_SIZES,
    queue: str | None = None,
) -> list[PuzzlePack]:
    """Queue a pack for every size and level with fewer than ``minimum`` puzzles and no
    pack already on its way, to bring it up to ``target``. Returns the packs queued."""
    minimum = settings.PUZZLE_BANK_MINIMUM if minimum is None else minimum
    target = settings.PUZZLE_BANK_TARGET if target is None else target
    stock = bank_stock()
    created = []
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    for size in sizes:
        for level in bank_levels(size):
            have = stock.get((size, level), 0)
            if have >= minimum:
                continue
            busy = PuzzlePack.objects.filter(
                size=size, difficulty=level, status__in=PuzzlePack.ACTIVE
            ).exists()
            if busy:
                continue
            try:
                pack = pack_create(
                    name=f"top-up {size}x{size} {level} {stamp}",
                    size=size,
                    difficulty=level,
                    count=min(max(target - have, 1), PACK_MAX_COUNT),
                    queue=queue,
                )
            except PackNameTaken:
                continue  # another top-up ran this very second
            created.append(pack)
    return created


def _level_for_day(day: date, size: int) -> str:
    """Easy on Monday, harder through the week, the hardest offered on Sunday."""
    levels = [lv for lv in bank_levels(size) if lv != Difficulty.MASTER] or list(LEVELS[:1])
    week = (0, 1, 1, 2, 2, 3, 3)  # Monday .. Sunday
    return levels[min(week[day.weekday()], len(levels) - 1)]


def daily_puzzle_pick(*, day: date, size: int = 9) -> DailyPuzzle:
    """The daily puzzle of ``day`` for ``size``, chosen and stored on first use.

    A puzzle that was a daily puzzle before is not chosen again while others remain.
    Raises BankEmpty when the bank holds no puzzle of this size.
    """
    from puzzles.selectors import puzzle_pick

    existing = DailyPuzzle.objects.filter(date=day, size=size).select_related("puzzle").first()
    if existing is not None:
        return existing
    level = _level_for_day(day, size)
    used = DailyPuzzle.objects.filter(size=size).values("puzzle_id")
    puzzle = (
        puzzle_pick(size=size, difficulty=level, exclude=(used,), seed=day.isoformat())
        or puzzle_pick(size=size, difficulty=None, exclude=(used,), seed=day.isoformat())
        or puzzle_pick(size=size, difficulty=level, seed=day.isoformat())
        or puzzle_pick(size=size, difficulty=None, seed=day.isoformat())
    )
    if puzzle is None:
        raise BankEmpty(f"The bank holds no {size}x{size} puzzle yet.")
    try:
        with transaction.atomic():
            return DailyPuzzle.objects.create(date=day, size=size, puzzle=puzzle)
    except IntegrityError:
        # Picked by another request at the same moment: theirs stands.
        return DailyPuzzle.objects.select_related("puzzle").get(date=day, size=size)


def daily_puzzles_pick(*, days: tuple[date, ...] | None = None, sizes=BANK_SIZES) -> int:
    """Choose the daily puzzles of today and tomorrow (UTC) for every stocked size."""
    today = timezone.now().date()
    days = days or (today, today + timedelta(days=1))
    picked = 0
    for day in days:
        for size in sizes:
            try:
                daily_puzzle_pick(day=day, size=size)
                picked += 1
            except BankEmpty:
                continue
    return picked


# --- The starter bank ----------------------------------------------------------------------

STARTER_FILE = Path(__file__).resolve().parent / "data" / "starter.jsonl"
"""Puzzles made once by ``seed_bank --rebuild`` and shipped, so a fresh bank is stocked in
seconds: generating a 16x16 master puzzle alone takes the better part of a minute."""

STARTER_PLAN_COUNTS = {4: 4, 6: 4, 9: 6, 16: 2}
"""Puzzles per level in the starter file, by size (every level the size is offered at)."""

REGRADE_MAX_SIZE = 9
"""Starter puzzles up to this size are graded again when loaded (milliseconds each); the
bigger ones keep the grade stored in the file (grading a 16x16 master takes seconds)."""


def starter_plan() -> dict[tuple[int, str], int]:
    """How many puzzles the starter file holds per (size, level)."""
    return {
        (size, level): STARTER_PLAN_COUNTS[size]
        for size in BANK_SIZES
        for level in bank_levels(size)
    }


def starter_file_build(
    *,
    path: Path = STARTER_FILE,
    plan: dict[tuple[int, str], int] | None = None,
    progress: Callable[[str], None] | None = None,
) -> int:
    """Generate the starter file (seeds ``starter:<size>:<level>:<i>``): one JSON object
    per line. A level the generator cannot reach for a size is left out. Returns the
    puzzles written."""
    plan = starter_plan() if plan is None else plan
    lines: list[str] = []
    keys: set[str] = set()
    for (size, level), wanted in plan.items():
        made_here = failures = 0
        for index in range(wanted + MAX_REPLACEMENTS):
            if made_here == wanted or failures == 3:
                break
            try:
                made = generate(size, level=level, seed=f"starter:{size}:{level}:{index}")
            except (GenerationFailed, ValueError):
                failures += 1  # three seeds in a row: the level is out of reach for the size
                continue
            key = puzzle_key(made.puzzle)
            if made.grade.level != level or key in keys:
                continue
            if count_solutions(made.puzzle, limit=2) != 1:
                continue
            keys.add(key)
            made_here += 1
            lines.append(
                json.dumps(
                    {
                        "box_rows": made.puzzle.shape.box_rows,
                        "box_cols": made.puzzle.shape.box_cols,
                        "givens": format_line(made.puzzle),
                        "solution": format_line(made.solution),
                        "difficulty": made.grade.level,
                        "score": made.grade.score,
                        "hardest_technique": made.grade.hardest or "",
                        "techniques": dict(made.grade.techniques),
                        "symmetry": made.symmetry,
                        "grader_version": GRADER_VERSION,
                    },
                    sort_keys=True,
                )
            )
        if progress:
            progress(f"{size}x{size} {level}: {made_here}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{line}\n" for line in lines))
    return len(lines)


class StarterFileBroken(RuntimeError):
    """A line of the starter file is not a puzzle with one solution."""


def bank_seed(*, path: Path = STARTER_FILE, progress: Callable[[str], None] | None = None) -> int:
    """Load the starter file into the bank: each puzzle checked for one solution (and graded
    again up to 9x9), stored once. Idempotent: a second run adds nothing. Returns the
    puzzles added."""
    added = 0
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        item = json.loads(line)
        grid = parse(item["givens"], box_rows=item["box_rows"], box_cols=item["box_cols"])
        key = puzzle_key(grid)
        if _puzzle_existing(grid, key) is not None:
            continue
        solution = parse(item["solution"], box_rows=item["box_rows"], box_cols=item["box_cols"])
        if count_solutions(grid, limit=2) != 1 or not is_solution(grid, solution):
            raise StarterFileBroken(f"{path.name} line {number}: not a puzzle with one solution")
        if grid.size <= REGRADE_MAX_SIZE:
            rated = grade(grid)
        else:
            rated = Grade(
                level=item["difficulty"],
                score=item["score"],
                hardest=item["hardest_technique"],
                techniques=item["techniques"],
            )
        row = _puzzle_row(
            grid=grid,
            solution=solution,
            rated=rated,
            symmetry=item.get("symmetry", Symmetry.NONE),
            source=Source.GENERATED,
            key=key,
        )
        if grid.size > REGRADE_MAX_SIZE:  # the file's grade: as old as the file's grader
            row.grader_version = item.get("grader_version", 0)
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError:
            continue
        added += 1
    if progress:
        stock = bank_stock()
        for (size, level), have in sorted(stock.items()):
            progress(f"{size}x{size} {level}: {have}")
    return added
