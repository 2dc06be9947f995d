"""Pack throughput: puzzles per second of a 9x9 pack per level, with one Celery worker
process and with two, from the request to the last puzzle stored, on a scratch database
(``<DATABASE_URL's name>_packbench``). Needs DATABASE_URL (PostgreSQL) and REDIS_URL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench import ROOT
from bench.stack import Process, scratch_site, wait

TITLE = "## Puzzle packs (Celery workers + PostgreSQL + Redis)"
LEVELS = ("easy", "medium", "hard", "expert", "master")
RUN_TIMEOUT = 1800  # seconds for one pack before giving up


def _make_pack(level: str, count: int, queue: str) -> None:
    """Ask for a pack and wait for it (in a subprocess); print its outcome as JSON."""
    import django

    django.setup()
    from puzzles import packs
    from puzzles.models import PuzzlePack

    started = time.perf_counter()
    pack = packs.pack_create(
        name=f"bench {level} {queue}", size=9, difficulty=level, count=count, queue=queue
    )
    while pack.status not in PuzzlePack.FINISHED:
        time.sleep(0.05)
        pack.refresh_from_db()
    seconds, made = time.perf_counter() - started, pack.entries.count()
    print(
        json.dumps({"status": pack.status, "made": made, "seconds": seconds, "error": pack.error})
    )


def _run_pack(env: dict[str, str], level: str, count: int, workers: int, logs: Path) -> dict:
    queue = f"packbench-{uuid.uuid4().hex[:10]}"
    argv = [sys.executable, "-m", "celery", "-A", "sudokusite", "worker", "-l", "INFO",
            "--concurrency", "1", "--queues", queue, "--without-gossip", "--without-mingle",
            "--without-heartbeat"]  # fmt: skip
    pool = [
        Process(f"{queue}-{i}", [*argv, "--hostname", f"bench{i}-{queue}@%h"], env, logs)
        for i in range(workers)
    ]
    try:
        for worker in pool:
            worker.start()
        wait(lambda: all(" ready." in w.output() for w in pool), 120, "the bench workers")
        command = [sys.executable, "-m", "bench.packs", "make", level, str(count), queue]
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT
        )
    finally:
        for worker in pool:
            worker.stop()
    if done.returncode != 0:
        last = [line.strip() for line in done.stderr.splitlines() if line.strip()] or ["?"]
        return {"status": "crashed", "made": 0, "seconds": 0, "error": last[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(quick: bool = False) -> list[str]:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        return [TITLE, "", "skipped: needs DATABASE_URL=postgres://... and REDIS_URL=redis://..."]
    count, levels = (40, LEVELS[:3]) if quick else (200, LEVELS)
    lines = [
        TITLE,
        "",
        f"One 9x9 pack of {count} puzzles per level; workers are `celery worker --concurrency 1`"
        f" processes. Load average before: {os.getloadavg()[0]:.2f}.",
        "",
        "| level | 1 worker (puzzles/s) | 2 workers (puzzles/s) | 2 / 1 |",
        "|---|---|---|---|",
    ]
    problems: list[str] = []
    with scratch_site(url, "_packbench") as env, tempfile.TemporaryDirectory() as tmp:
        for level in levels:
            rates = []
            for workers in (1, 2):
                result = _run_pack(env, level, count, workers, Path(tmp))
                done = result["status"] == "done" and result["made"] == count
                rates.append(count / result["seconds"] if done else None)
                problems += [] if done else [f"{level}, {workers} worker(s): {result}"]
            one, two = rates
            ratio = f"{two / one:.2f}x" if one and two else "n/a"
            cells = [f"{r:.1f}" if r else "failed" for r in rates]
            lines.append(f"| {level} | {cells[0]} | {cells[1]} | {ratio} |")
    return [*lines, "", f"Load average after: {os.getloadavg()[0]:.2f}."] + [
        f"- failed: {problem}" for problem in problems
    ]


if __name__ == "__main__":
    if sys.argv[1:2] == ["make"]:
        _make_pack(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        print("\n".join(run(quick="--quick" in sys.argv)))
