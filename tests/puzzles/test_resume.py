"""The sweep that sends again the chunks a broker lost (``pack_resume_stalled``).

A Redis that restarts without persistence forgets every queued message, and a broker
that is down when a pack is asked for never gets its chunks: without this sweep such a
pack would stay running forever. (ops/chaos.py restarts a real Redis mid-pack.)
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from celery import current_app
from django.utils import timezone
from kombu.exceptions import OperationalError

from puzzles import chunks, packs
from puzzles.models import ChunkStatus, PackChunk, PackStatus

pytestmark = pytest.mark.django_db

IDLE = timedelta(minutes=12)


@pytest.fixture
def sent(monkeypatch) -> list[tuple[int, int]]:
    """(pack id, chunk number) of every chunk task sent to the broker."""
    messages: list[tuple[int, int]] = []

    def send_task(name, args=None, **options):
        assert name == "puzzles.pack_chunk_generate"
        messages.append(tuple(args))

    monkeypatch.setattr(current_app, "send_task", send_task)
    return messages


def _pack(django_capture_on_commit_callbacks, count: int = 6):
    with django_capture_on_commit_callbacks(execute=True):
        return packs.pack_create(name="p", size=4, difficulty="easy", count=count, chunk_size=2)


def test_every_chunk_sent_is_stamped_with_when(sent, django_capture_on_commit_callbacks):
    pack = _pack(django_capture_on_commit_callbacks)
    assert sent == [(pack.pk, 0), (pack.pk, 1), (pack.pk, 2)]
    assert not PackChunk.objects.filter(pack=pack, queued__isnull=True).exists()


def test_chunks_whose_messages_were_lost_are_sent_again_once_the_pack_is_quiet(
    sent, django_capture_on_commit_callbacks
):
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False) as clock:
        pack = _pack(django_capture_on_commit_callbacks)
        chunks.pack_chunk_generate(pack_id=pack.pk, number=0)
        sent.clear()  # the broker restarts: chunks 1 and 2 are lost
        clock.shift(IDLE - timedelta(seconds=1))
        assert packs.pack_resume_stalled(idle_for=IDLE) == 0  # maybe still queued
        clock.shift(timedelta(seconds=2))
        assert packs.pack_resume_stalled(idle_for=IDLE) == 2
        assert sent == [(pack.pk, 1), (pack.pk, 2)]
        # Sent once per quiet period, not on every sweep.
        clock.shift(IDLE / 2)
        assert packs.pack_resume_stalled(idle_for=IDLE) == 0
        clock.shift(IDLE)
        assert packs.pack_resume_stalled(idle_for=IDLE) == 2


def test_a_pack_that_is_moving_is_left_alone(sent, django_capture_on_commit_callbacks):
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False) as clock:
        pack = _pack(django_capture_on_commit_callbacks)
        clock.shift(IDLE * 3)
        chunks.pack_chunk_generate(pack_id=pack.pk, number=0)  # a worker is on it
        clock.shift(IDLE / 2)
        assert packs.pack_resume_stalled(idle_for=IDLE) == 0


def test_a_chunk_whose_worker_died_is_sent_again_while_the_rest_of_the_pack_moves(
    sent, django_capture_on_commit_callbacks
):
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False) as clock:
        pack = _pack(django_capture_on_commit_callbacks)
        # Chunk 0 was claimed by a worker that was then killed: it stays running.
        PackChunk.objects.filter(pack=pack, number=0).update(
            status=ChunkStatus.RUNNING, attempts=1, started=timezone.now()
        )
        clock.shift(IDLE + timedelta(seconds=1))
        chunks.pack_chunk_generate(pack_id=pack.pk, number=1)  # another worker moves on
        sent.clear()
        assert packs.pack_resume_stalled(idle_for=IDLE) == 1
        assert sent == [(pack.pk, 0)]
        assert packs.pack_resume_stalled(idle_for=IDLE) == 0


def test_a_finished_or_cancelled_pack_is_never_sent_again(sent, django_capture_on_commit_callbacks):
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False) as clock:
        pack = _pack(django_capture_on_commit_callbacks)
        packs.pack_cancel(pack=pack)
        sent.clear()
        clock.shift(IDLE * 2)
        assert packs.pack_resume_stalled(idle_for=IDLE) == 0
        assert sent == []


def test_a_pack_asked_for_while_the_broker_is_down_is_recorded_and_sent_later(
    monkeypatch, django_capture_on_commit_callbacks
):
    def broker_down(name, args=None, **options):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(current_app, "send_task", broker_down)
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False) as clock:
        pack = _pack(django_capture_on_commit_callbacks)  # no exception for the caller
        assert pack.status == PackStatus.PENDING
        assert PackChunk.objects.filter(pack=pack, status=ChunkStatus.PENDING).count() == 3

        sent: list[tuple[int, int]] = []
        monkeypatch.setattr(
            current_app, "send_task", lambda name, args=None, **o: sent.append(tuple(args))
        )
        clock.shift(IDLE + timedelta(seconds=1))
        assert packs.pack_resume_stalled(idle_for=IDLE) == 3
        assert sent == [(pack.pk, 0), (pack.pk, 1), (pack.pk, 2)]


def test_the_sweep_waits_longer_than_a_task_may_run_and_runs_four_times_per_period(settings):
    assert settings.PACK_STALL_SECONDS > settings.CELERY_TASK_TIME_LIMIT
    schedule = settings.CELERY_BEAT_SCHEDULE["puzzles-pack-resume"]["schedule"]
    assert schedule == settings.PACK_STALL_SECONDS / 4
