"""Real background work: a Celery worker (with beat) consumes a task end to end.

No eager mode: the worker is a separate process, as in production. Without
REDIS_URL the broker is kombu's filesystem transport and results are files.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings

SEND_PING = """
import sys, django
django.setup()
from sudokusite.tasks import ping
print(ping.apply_async(queue=sys.argv[1]).get(timeout=60))
"""


def _env(tmp_path: Path, *, redis: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    if redis:
        env["REDIS_URL"] = settings.REDIS_URL
    env.update(
        DEBUG="1",
        DJANGO_SETTINGS_MODULE="sudokusite.settings",
        CELERY_DATA_DIR=str(tmp_path / "celery"),
    )
    return env


@pytest.mark.slow
@pytest.mark.parametrize(
    "redis",
    [pytest.param(False, id="filesystem"), pytest.param(True, marks=pytest.mark.redis, id="redis")],
)
def test_it_runs_a_task_in_a_real_worker_with_beat(tmp_path, redis):
    env = _env(tmp_path, redis=redis)
    queue = f"test-{uuid.uuid4().hex[:12]}"  # never steal anyone else's work on a shared broker
    log = (tmp_path / "worker.log").open("w+")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "sudokusite", "worker", "--beat",
         "--loglevel", "INFO", "--concurrency", "1", "--queues", queue,
         "--hostname", f"{queue}@%h", "--without-gossip", "--without-mingle"],
        cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    try:
        sent = subprocess.run(
            [sys.executable, "-c", SEND_PING, queue],
            cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=90,
        )  # fmt: skip
        assert sent.returncode == 0, sent.stderr
        assert sent.stdout.strip() == "pong"
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
    log.seek(0)
    output = log.read()
    assert "beat: Starting" in output
    assert "succeeded" in output
