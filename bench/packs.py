"""Pack throughput: puzzles per second for a 9x9 pack per level, with one Celery worker
process and with two, from the request to the last puzzle stored, on a scratch database
(``<DATABASE_URL's name>_packbench``). Needs DATABASE_URL (PostgreSQL) and REDIS_URL;
``--quick``: 40 puzzles, three levels.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from urllib.parse import urlsplit

from bench.stack import ROOT, Process, recreate_database, scratch_database, wait

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


def _run_pack(env: dict[str, str], level: str, count: int, workers: int, logs: Path) -> dict:
    queue = f"packbench-{uuid.uuid4().hex[:10]}"
    argv = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "sudokusite",
        "worker",
        "-l",
        "INFO",
        "--concurrency",
        "1",
        "--queues",
        queue,
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
    pool = [
        Process(f"{queue}-{i}", [*argv, "--hostname", f"bench{i}-{queue}@%h"], env, logs)
        for i in range(workers)
    ]
    try:
        for worker in pool:
            worker.start()
        wait(lambda: all(" ready." in w.output() for w in pool), 120, "the bench workers")
        done = subprocess.run(
            [sys.executable, "-c", DRIVER, level, str(count), queue],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
        )
    finally:
        for worker in pool:
            worker.stop()
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
    scratch, name, maintenance = scratch_database(url, "_packbench")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CELERY_")}
    env.update(DATABASE_URL=scratch, DEBUG="1", DJANGO_SETTINGS_MODULE="sudokusite.settings")
    try:
        recreate_database(maintenance, name)
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
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
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
        recreate_database(maintenance, name, drop_only=True)
    lines += ["", f"Load average after: {os.getloadavg()[0]:.2f}."]
    lines += [f"- failed: {problem}" for problem in problems]
    return lines


if __name__ == "__main__":
    print("\n".join(run(quick="--quick" in sys.argv)))
