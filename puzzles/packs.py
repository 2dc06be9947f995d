"""Packs of generated puzzles: the request, its chunks queued to workers, cancel, and the
sweep that sends again the chunks a broker lost. (The chunks' work: :mod:`puzzles.chunks`.)

A chunk's task is sent by name once the pack's transaction commits, so this module
imports nothing of :mod:`puzzles.tasks`, which imports the services it runs.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from kombu.exceptions import OperationalError

from puzzles.chunks import pack_chunk_fail, pack_chunk_generate, pack_chunk_may_retry
from puzzles.models import ChunkStatus, PackChunk, PackStatus, PuzzlePack, Symmetry
from solver import Shape
from solver.generation.classic import SYMMETRIES, supported_levels
from solver.generation.practice import generator_reaches, practice_sizes
from solver.logic.grade import LEVELS
from solver.logic.techniques import BY_SLUG
from solving.steps import technique_name
from sudokusite.errors import Conflict, DomainError
from sudokusite.fields import text_problem

logger = logging.getLogger(__name__)

CHUNK_TASK = "puzzles.pack_chunk_generate"
"""The chunk's task, sent by name (:func:`puzzles.tasks.pack_chunk_generate`)."""

PACK_MAX_COUNT = 10_000
"""The largest pack one request may ask for."""

PACK_SIZES = (4, 6, 8, 9, 12, 16)
"""Grid sides a pack can be made of."""


def _chunk_size(size: int, level: str) -> int:
    """Puzzles per chunk: a chunk should take seconds, so a lost one costs little."""
    if size <= 6:
        return 25 if level == "easy" else 10
    if size <= 9:
        return {"easy": 10, "medium": 8, "hard": 5, "expert": 4, "master": 2}.get(level, 5)
    # A hard 16x16 puzzle is slow to make: one or two per chunk.
    return 2 if level in ("easy", "medium") else 1


class PackRequestInvalid(DomainError):
    code = "invalid_pack"
    message = gettext_lazy("The pack request is not valid.")

    def __init__(self, message: str, *, field_name: str) -> None:
        super().__init__(message, code=f"invalid_{field_name}", extra={"field": field_name})
        self.field_name = field_name


class PackNameTaken(Conflict):
    code = "pack_name_taken"
    message = gettext_lazy("A pack with that name exists.")


class PackNotActive(Conflict):
    code = "pack_not_active"
    message = gettext_lazy("The pack has finished.")


def pack_request_validate(
    *,
    name: str,
    size: Any,
    difficulty: Any,
    count: Any,
    symmetry: Any = "none",
    technique: Any = "",
    variant: Any = "classic",
) -> Shape:
    """The shape of a pack request, or PackRequestInvalid naming the field and the fix."""
    if variant != "classic":
        return _variant_request_validate(
            name, size, difficulty, count, symmetry, technique, variant
        )
    if not isinstance(name, str) or not name.strip():
        raise PackRequestInvalid(_("name: give the pack a name."), field_name="name")
    if len(name.strip()) > 100:
        raise PackRequestInvalid(_("name: at most 100 characters."), field_name="name")
    problem = text_problem(name)
    if problem is not None:
        raise PackRequestInvalid(f"name: {problem}", field_name="name")
    sizes = ", ".join(str(s) for s in PACK_SIZES)
    if isinstance(size, bool) or not isinstance(size, int) or size not in PACK_SIZES:
        raise PackRequestInvalid(
            _("size: %(size)s is not offered; use one of %(sizes)s.")
            % {"size": repr(size), "sizes": sizes},
            field_name="size",
        )
    if difficulty not in LEVELS:
        raise PackRequestInvalid(
            _("difficulty: %(level)s is not a level; use one of %(levels)s.")
            % {"level": repr(difficulty), "levels": ", ".join(LEVELS)},
            field_name="difficulty",
        )
    shape = Shape.for_size(size)
    offered = supported_levels(shape)
    if difficulty not in offered:
        raise PackRequestInvalid(
            _("difficulty: %(size)sx%(size)s puzzles are made only at %(levels)s, not %(level)s.")
            % {"size": size, "levels": ", ".join(offered), "level": difficulty},
            field_name="difficulty",
        )
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= PACK_MAX_COUNT:
        raise PackRequestInvalid(
            _("count: %(count)s is out of range; ask for 1 to %(maximum)s puzzles.")
            % {"count": repr(count), "maximum": f"{PACK_MAX_COUNT:,}"},
            field_name="count",
        )
    if symmetry not in SYMMETRIES:
        raise PackRequestInvalid(
            _("symmetry: %(symmetry)s is unknown; use one of %(symmetries)s.")
            % {"symmetry": repr(symmetry), "symmetries": ", ".join(SYMMETRIES)},
            field_name="symmetry",
        )
    if technique:
        _technique_validate(technique, size, difficulty, symmetry)
    return shape


VARIANT_PACK_SIZES = (4, 6, 8, 9)
"""Sizes a variant pack can be made of (the exact search digs bigger ones too slowly)."""


def _variant_request_validate(
    name: Any, size: Any, difficulty: Any, count: Any, symmetry: Any, technique: Any, variant: Any
) -> Shape:
    from puzzles.variants import VARIANT_LEVELS, variant_levels

    if variant not in VARIANT_LEVELS:
        raise PackRequestInvalid(
            _("variant: %(variant)s is unknown; use classic, diagonal, jigsaw or killer.")
            % {"variant": repr(variant)},
            field_name="variant",
        )
    if isinstance(size, bool) or size not in VARIANT_PACK_SIZES:
        raise PackRequestInvalid(
            _("size: %(variant)s packs are made at %(sizes)s only.")
            % {"variant": variant, "sizes": ", ".join(str(s) for s in VARIANT_PACK_SIZES)},
            field_name="size",
        )
    levels = variant_levels(variant, size)
    if difficulty not in levels:
        raise PackRequestInvalid(
            _("difficulty: %(variant)s puzzles are made only at %(levels)s.")
            % {"variant": variant, "levels": ", ".join(levels)},
            field_name="difficulty",
        )
    if technique or symmetry != "none":
        raise PackRequestInvalid(
            _("variant: a variant pack takes no technique and no symmetry."),
            field_name="variant",
        )
    # Name and count are checked as for any pack.
    pack_request_validate(name=name, size=9, difficulty="easy", count=count)
    return Shape.for_size(size)


def _technique_validate(technique: Any, size: int, difficulty: str, symmetry: str) -> None:
    tech = BY_SLUG.get(technique) if isinstance(technique, str) else None
    if tech is None:
        raise PackRequestInvalid(
            _("technique: %(technique)s is not a technique of the engine.")
            % {"technique": repr(technique)},
            field_name="technique",
        )
    name = technique_name({"technique": tech.slug, "name": tech.name})
    if size not in practice_sizes(technique):
        raise PackRequestInvalid(
            _("technique: %(name)s is not practised on %(size)sx%(size)s.")
            % {"name": name, "size": size},
            field_name="technique",
        )
    if not generator_reaches(technique, symmetry):
        raise PackRequestInvalid(
            _("symmetry: %(name)s puzzles are made only without symmetry; ask for none.")
            % {"name": name},
            field_name="symmetry",
        )
    if difficulty != tech.level:
        raise PackRequestInvalid(
            _("difficulty: %(name)s puzzles are %(level)s, not %(other)s.")
            % {"name": name, "level": tech.level, "other": difficulty},
            field_name="difficulty",
        )


def _enqueue_chunks(pack_id: int, numbers: list[int], queue: str | None) -> None:
    """Send the chunks' tasks and note when. A broker that cannot be reached is logged,
    not raised: the pack is recorded, and pack_resume_stalled sends its chunks once the
    broker is back."""
    PackChunk.objects.filter(pack_id=pack_id, number__in=numbers).update(queued=timezone.now())
    options = {"queue": queue} if queue else {}
    for sent, number in enumerate(numbers):
        try:
            current_app.send_task(CHUNK_TASK, args=[pack_id, number], **options)
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
    technique: str = "",
    seed: str | None = None,
    requested_by: Any = None,
    chunk_size: int | None = None,
    enqueue: bool = True,
    queue: str | None = None,
    variant: str = "classic",
) -> PuzzlePack:
    """Record a pack and its chunks; the chunk tasks are queued once this commits.

    ``enqueue=False`` leaves the chunks for the caller (``generate_puzzles --sync``).
    """
    shape = pack_request_validate(
        name=name,
        size=size,
        difficulty=difficulty,
        count=count,
        symmetry=symmetry,
        technique=technique,
        variant=variant,
    )
    name = name.strip()
    if PuzzlePack.objects.filter(name=name).exists():
        raise PackNameTaken(
            _("name: a pack named %(name)s exists; choose another name.") % {"name": repr(name)}
        )
    pack = PuzzlePack(
        name=name,
        size=size,
        box_rows=shape.box_rows,
        box_cols=shape.box_cols,
        difficulty=difficulty,
        symmetry=symmetry,
        technique=technique,
        variant=variant,
        count=count,
        seed=seed or secrets.token_hex(8),
        chunk_size=chunk_size or _chunk_size(size, difficulty),
        requested_by=requested_by if getattr(requested_by, "pk", None) else None,
    )
    try:
        with transaction.atomic():
            pack.save()
    except IntegrityError:
        raise PackNameTaken(
            _("name: a pack named %(name)s exists; choose another name.") % {"name": repr(name)}
        ) from None
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
        raise PackNotActive(
            _("The pack %(name)s is %(status)s already.")
            % {"name": repr(pack.name), "status": str(pack.get_status_display()).lower()}
        )
    return pack


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
