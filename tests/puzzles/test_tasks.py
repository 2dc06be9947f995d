"""The bank's Celery tasks: thin wrappers with bounded retries, and a beat schedule that
names real tasks. (Real workers: test_workers.py.)"""

from __future__ import annotations

import pytest
from django.conf import settings

from puzzles import chunks, packs, tasks
from puzzles.models import ChunkStatus, PackChunk, PackStatus, PuzzlePack
from sudokusite.celery import app

pytestmark = pytest.mark.django_db


def test_every_periodic_task_of_the_bank_is_a_registered_task():
    app.loader.import_default_modules()
    names = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {
        "puzzles.bank_top_up",
        "puzzles.daily_puzzles_pick",
        "puzzles.pack_resume_stalled",
    } <= names
    assert names <= set(app.tasks)


def test_the_chunk_task_the_packs_send_by_name_is_a_registered_task():
    app.loader.import_default_modules()
    assert app.tasks[packs.CHUNK_TASK].name == tasks.pack_chunk_generate.name


def test_the_chunk_task_is_acknowledged_late_and_redelivered_if_its_worker_dies():
    assert tasks.pack_chunk_generate.acks_late is True
    assert tasks.pack_chunk_generate.reject_on_worker_lost is True


def test_a_failing_chunk_task_retries_a_bounded_number_of_times_then_fails_the_pack():
    pack = PuzzlePack.objects.create(
        name="p", size=4, box_rows=1, box_cols=4, difficulty="easy", count=2, seed="s"
    )
    PackChunk.objects.create(pack=pack, number=0)
    # apply() runs here, in this process, and runs each retry at once.
    result = tasks.pack_chunk_generate.apply(args=[pack.pk, 0])
    assert result.successful()
    assert result.result == 0
    pack.refresh_from_db()
    assert pack.status == PackStatus.FAILED
    chunk = pack.chunks.get()
    assert (chunk.status, chunk.attempts) == (ChunkStatus.FAILED, chunks.CHUNK_MAX_ATTEMPTS)


def test_the_chunk_task_fills_its_chunk(no_enqueue):
    pack = packs.pack_create(name="p", size=4, difficulty="easy", count=3, chunk_size=3)
    assert tasks.pack_chunk_generate.apply(args=[pack.pk, 0]).result == 3
    pack.refresh_from_db()
    assert pack.status == PackStatus.DONE
