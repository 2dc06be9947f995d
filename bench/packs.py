"""Pack throughput: puzzles per second for a 9x9 pack per level, with one Celery worker
process and with two.

A scratch PostgreSQL database (``<DATABASE_URL's name>_packbench``) is created and migrated;
the workers are real ``celery worker`` processes (``--concurrency 1`` each) on their own
Redis queue, started and ready before the pack is asked for, so the figure is the pack's
wall-clock time from the request to the last puzzle stored: generation, the uniqueness
check, the canonical key, the insert and the chunk bookkeeping. Two workers on two free
cores should approach twice the throughput of one; the load average is printed beside
the figures because other work on the machine takes cores away.

Run with ``make bench`` or ``python -m bench.packs`` (``--quick``: 40 puzzles, three
levels); needs DATABASE_URL (PostgreSQL) and REDIS_URL, and says so in one line when one
is missing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
TITLE = "## Puzzle packs (Celery workers + PostgreSQL + Redis)"
LEVELS = ("easy", "medium", "hard", "expert", "master")
RUN_TIMEOUT = 1800  # seconds for one pack before giving up

DRIVER = r"""
import json, sys, time
import django
django.setup()
from puzzles import packs
from puzzles.models import PuzzlePack
level, count, queue = sys.argv[1], int(sys.argv[2]), sys.argv[3]
started = time.perf_counter()
pack = packs.pack_create(
    name=f"bench {level} {queue}", size=9, difficulty=level, count=count, queue=queue
)
while True:
    pack.refresh_from_db()
    if pack.status in PuzzlePack.FINISHED:
        break
    time.sleep(0.05)
seconds = time.perf_counter() - started
print(json.dumps({"status": pack.status, "made": pack.entries.count(), "seconds": seconds,
                  "error": pack.error}))
"""


def _skip(reason: str) -> list[str]:
    return [TITLE, "", f"skipped: {reason}"]


def _scratch_url(url: str) -> tuple[str, str, str]:
    """(scratch database URL, scratch name, maintenance URL) for DATABASE_URL."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/") + "_packbench"
    scratch = urlunsplit(parts._replace(path=f"/{name}"))
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    return scratch, name, maintenance


def _recreate_database(maintenance_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _drop_database(maintenance_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class _Workers:
    """``count`` worker processes of concurrency 1 on one queue."""

    def __init__(self, env: dict[str, str], queue: str, count: int, logdir: Path) -> None:
        self.processes = []
        self.logs = []
        for index in range(count):
            log = logdir / f"{queue}-{index}.log"
            self.logs.append(log)
            command = [
                sys.executable, "-m", "celery", "-A", "sudokusite", "worker",
                "--loglevel", "INFO", "--concurrency", "1", "--queues", queue,
                "--hostname", f"bench{index}-{queue}@%h", "--without-gossip",
                "--without-mingle", "--without-heartbeat",
            ]  # fmt: skip
            self.processes.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=env,
                    stdout=log.open("w"),
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )

    def wait_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while not all(" ready." in log.read_text() for log in self.logs):
            if time.monotonic() > deadline or any(p.poll() is not None for p in self.processes):
                raise RuntimeError("a bench worker did not start: see " + str(self.logs[0]))
            time.sleep(0.2)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _run_pack(env: dict[str, str], level: str, count: int, workers: int, logdir: Path) -> dict:
    queue = f"packbench-{uuid.uuid4().hex[:10]}"
    pool = _Workers(env, queue, workers, logdir)
    try:
        pool.wait_ready()
        done = subprocess.run(
            [sys.executable, "-c", DRIVER, level, str(count), queue],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT,
        )  # fmt: skip
    finally:
        pool.stop()
    if done.returncode != 0:
        lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
        return {"status": "crashed", "made": 0, "seconds": 0, "error": (lines or ["?"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(quick: bool = False) -> list[str]:
    url = os.environ.get("DATABASE_URL", "")
    if urlsplit(url).scheme not in ("postgres", "postgresql", "pgsql"):
        return _skip("needs DATABASE_URL=postgres://... (the workers share the database)")
    if not os.environ.get("REDIS_URL"):
        return _skip("needs REDIS_URL=redis://... (the broker the workers take chunks from)")
    count = 40 if quick else 200
    levels = LEVELS[:3] if quick else LEVELS
    scratch, name, maintenance = _scratch_url(url)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CELERY_")}
    env.update(DATABASE_URL=scratch, DEBUG="1", DJANGO_SETTINGS_MODULE="sudokusite.settings")
    try:
        _recreate_database(maintenance, name)
    except Exception as exc:  # reported as a skipped section
        return _skip(f"cannot create the scratch database {name}: {exc}")
    lines = [
        TITLE,
        "",
        f"One 9x9 pack of {count} puzzles per level; workers are `celery worker "
        "--concurrency 1` processes; time from the request to the last puzzle stored. "
        f"{os.cpu_count()} cores; load average before: {os.getloadavg()[0]:.2f}.",
        "",
        "| level | 1 worker (puzzles/s) | 2 workers (puzzles/s) | 2 / 1 |",
        "|---|---|---|---|",
    ]
    try:
        migrated = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "--skip-checks", "-v0"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        if migrated.returncode != 0:
            return _skip(f"migrating {name} failed: {migrated.stderr.strip()[-300:]}")
        problems: list[str] = []
        with tempfile.TemporaryDirectory(prefix="packbench-") as tmp:
            for level in levels:
                rates = []
                for workers in (1, 2):
                    result = _run_pack(env, level, count, workers, Path(tmp))
                    if result["status"] != "done" or result["made"] != count:
                        rates.append(None)
                        problems.append(
                            f"{level} with {workers} worker(s): {result['status']} after "
                            f"{result['made']} puzzles: {result['error'][:300]}"
                        )
                        continue
                    rates.append(count / result["seconds"])
                one, two = rates
                ratio = f"{two / one:.2f}x" if one and two else "n/a"
                cells = [f"{r:.1f}" if r else "failed" for r in rates]
                lines.append(f"| {level} | {cells[0]} | {cells[1]} | {ratio} |")
    finally:
        _drop_database(maintenance, name)
    lines += ["", f"Load average after: {os.getloadavg()[0]:.2f}."]
    lines += [f"- failed: {problem}" for problem in problems]
    return lines


if __name__ == "__main__":
    print("\n".join(run(quick="--quick" in sys.argv)))
