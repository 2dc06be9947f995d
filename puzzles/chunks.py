"""Filling a pack's chunks, the work a Celery task runs.

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

import logging
import os
import socket

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from puzzles.bank import puzzle_key, puzzle_row
from puzzles.models import ChunkStatus, PackChunk, PackEntry, PackStatus, PuzzlePack, Source
from puzzles.techniques import puzzle_techniques_store
from solver import Shape, count_solutions
from solver.generation.classic import GenerationFailed, generate

logger = logging.getLogger(__name__)

CHUNK_MAX_ATTEMPTS = 4
"""Starts of one chunk (first run, retries after an error, redeliveries after a worker
died) before the pack is failed."""

MAX_REPLACEMENTS = 25
"""Sub-seeds tried for one position when the bank already holds each puzzle made."""


class PackChunkError(RuntimeError):
    """A chunk could not fill a position (the task retries, then fails the pack)."""


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
        if pack.variant != "classic":
            stored = _variant_fill_position(pack, shape, position, seed)
            if stored is None:
                continue  # the bank holds this puzzle already: take the next sub-seed
            return stored
        try:
            made = generate(
                shape,
                level=pack.difficulty,
                symmetry=pack.symmetry,
                seed=seed,
                require=pack.technique or None,
            )
        except GenerationFailed:
            continue  # this seed reached no puzzle of the level; the next one will
        if count_solutions(made.puzzle, limit=2) != 1:
            raise PackChunkError(
                f"position {position}: the generator made a puzzle without "
                f"exactly one solution (seed {seed!r})"
            )
        if made.grade.level != pack.difficulty:
            continue
        row = puzzle_row(
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
                puzzle_techniques_store(puzzle=row)
                PackEntry.objects.create(pack=pack, puzzle=row, position=position)
        except IntegrityError:
            if PackEntry.objects.filter(pack_id=pack.pk, position=position).exists():
                return 0  # another copy of this chunk filled it
            continue  # the bank holds this puzzle already: take the next sub-seed
        return 1
    raise PackChunkError(
        f"position {position}: {MAX_REPLACEMENTS} puzzles in a row were already in the bank"
    )


def _variant_fill_position(pack: PuzzlePack, shape: Shape, position: int, seed: str) -> int | None:
    """A variant pack's position: 1 stored now, 0 stored by another copy, None when the
    seed made no puzzle of the level or one the bank holds already."""
    from puzzles.variant_bank import variant_puzzle_row
    from puzzles.variants import variant_puzzle_make
    from solver.generation.general import VariantGenerationFailed

    try:
        grid, solution, rules, _ = variant_puzzle_make(
            variant=pack.variant, shape=shape, level=pack.difficulty, seed=seed
        )
    except VariantGenerationFailed:
        return None  # this seed reached no puzzle of the level; the next one will
    except ValueError as exc:
        raise PackChunkError(f"position {position}: {exc}") from None
    row = variant_puzzle_row(
        grid=grid,
        rules=rules,
        solution=solution,
        source=Source.GENERATED,
    )
    if row.difficulty != pack.difficulty:
        return None  # graded otherwise in full (the generator grades as the bank does)
    try:
        with transaction.atomic():
            row.save()
            PackEntry.objects.create(pack=pack, puzzle=row, position=position)
    except IntegrityError:
        if PackEntry.objects.filter(pack_id=pack.pk, position=position).exists():
            return 0
        return None
    return 1
