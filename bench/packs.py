"""Pack throughput: puzzles per second of a 9x9 pack per level, with one Celery worker
process and with two, from the request to the last puzzle stored, on a scratch database
(``<DATABASE_URL's name>_packbench``). Needs DATABASE_URL (PostgreSQL) and REDIS_URL."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import psycopg

from bench import ROOT
from ops.stack import Process, scratch_site, wait

TITLE = "## Puzzle packs (Celery workers + PostgreSQL + Redis)"
LEVELS = ("easy", "medium", "hard", "expert", "master")
RUN_TIMEOUT = 1800  # seconds for one pack before giving up


def _run_pack(
    env: dict[str, str], level: str, count: int, workers: int, logs: Path
) -> tuple[float | None, str]:
    """Puzzles per second of one pack made by ``workers`` worker processes, or why none."""
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
        name = f"bench {level} {queue}"
        command = [sys.executable, "manage.py", "generate_puzzles", "--size", "9", "--wait",
                   "--difficulty", level, "--count", str(count), "--queue", queue, "--pack", name,
                   "-v0"]  # fmt: skip
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT
        )
    finally:
        for worker in pool:
            worker.stop()
    with psycopg.connect(env["DATABASE_URL"]) as conn:
        # From the request to the last puzzle stored, as the pack records them.
        row = conn.execute(
            "SELECT extract(epoch FROM finished - created), (SELECT count(*) FROM "
            "puzzles_packentry WHERE pack_id = p.id) FROM puzzles_puzzlepack p WHERE name = %s",
            [name],
        ).fetchone()
    if done.returncode != 0 or row is None or row[1] != count:
        last = [line.strip() for line in done.stderr.splitlines() if line.strip()] or ["?"]
        return None, f"{level}, {workers} worker(s): {last[-1]}"
    return count / float(row[0]), ""


def run(quick: bool = False) -> list[str]:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        return [TITLE, "", "skipped: needs DATABASE_URL=postgres://... and REDIS_URL=redis://..."]
    count, levels = (40, LEVELS[:3]) if quick else (200, LEVELS)
    lines = [
        TITLE,
        "",
        f"One 9x9 pack of {count} puzzles per level (`manage.py generate_puzzles`); workers are "
        "`celery worker --concurrency 1` processes.",
        "",
        "| level | 1 worker (puzzles/s) | 2 workers (puzzles/s) | 2 / 1 |",
        "|---|---|---|---|",
    ]
    problems: list[str] = []
    with scratch_site(url, "_packbench") as env, tempfile.TemporaryDirectory() as tmp:
        for level in levels:
            rates = []
            for workers in (1, 2):
                rate, problem = _run_pack(env, level, count, workers, Path(tmp))
                rates.append(rate)
                problems += [problem] if problem else []
            one, two = rates
            ratio = f"{two / one:.2f}x" if one and two else "n/a"
            cells = [f"{r:.1f}" if r else "failed" for r in rates]
            lines.append(f"| {level} | {cells[0]} | {cells[1]} | {ratio} |")
    return [*lines, *(f"- failed: {problem}" for problem in problems)]
