"""The move endpoint under load: POST /api/v1/games/{id}/moves/ through gunicorn.

A scratch database (``<DATABASE_URL's name>_movebench``) holds 64 players and 256 games;
gunicorn serves it as ``gunicorn.conf.py`` configures it, with Redis as the cache.
``bench/client.py`` plays moves back to back from 16 and 64 connections, then offers the
target rate on a schedule; gunicorn's and PostgreSQL's CPU per move in each run. In one
process, the statements, CPU, cProfile top and callgrind instructions of a move. Needs
DATABASE_URL (PostgreSQL) and REDIS_URL; valgrind counts.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import psutil

from bench import ROOT
from bench.stack import cpu_seconds, run_driver
from ops.stack import Process, free_port, listening, scratch_site, wait

TITLE = "## Moves API (gunicorn + PostgreSQL + Redis)"
CLIENTS, TARGET_RATE, TARGET_RUNS = (16, 64), 1000, 3
GAMES, PLAYERS = 256, 64
COUNTED_MOVES = 200  # under callgrind, after as many to warm up
# Wikipedia's example puzzle; every bench game plays a relabelled copy of it.
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def run(quick: bool = False) -> list[str]:
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        return [TITLE, "", "skipped: needs DATABASE_URL=postgres://... and REDIS_URL"]
    duration = 5 if quick else 15
    # (label, clients, moves/s offered, seconds): rate 0 is back to back; the first warms up.
    runs = [("warm-up", 64, 0, 3 if quick else 5), *((str(c), c, 0, duration) for c in CLIENTS)]
    offered = f"64, {TARGET_RATE:,} moves/s offered"
    runs += [(offered, 64, TARGET_RATE, duration)] * (1 if quick else TARGET_RUNS)
    rows: list[tuple[str, dict[str, float]]] = []
    # A bench game takes far more writes than a person's: lift the per-game bound.
    site = scratch_site(
        database_url, "_movebench", CACHE_KEY_PREFIX="movebench", GAME_MOVES_PER_CELL="1000"
    )
    with site as env, tempfile.TemporaryDirectory(prefix="movebench-") as tmp_name:
        tmp, port = Path(tmp_name), free_port()
        data = tmp / "games.txt"
        bind = ["--log-level", "warning", "--bind", f"127.0.0.1:{port}"]
        web = Process("gunicorn", [sys.executable, "-m", "gunicorn", "sudokusite.wsgi", *bind],
                      env, tmp)  # fmt: skip
        try:
            prepared = run_driver(env, "bench.moves", "prepare", str(data))
            instructions = _count_instructions(env, data, tmp)
            web.start()
            # The master listens at once; the warm-up run waits out the workers' start.
            wait(lambda: listening(port), 60, "gunicorn")
            servers = (web.proc.pid, prepared["postmaster"])  # type: ignore[union-attr]
            for number, (label, clients, rate, seconds) in enumerate(runs):
                client = f"{port} {data} {clients} {rate} {seconds} {number + 1}".split()
                before = [cpu_seconds(pid, tree=True) for pid in servers]
                result = run_driver(env, "bench.client", *client, timeout=seconds + 60)
                moves = max(result["requests"], 1) / 1000  # CPU seconds per 1,000: ms per move
                result["web_ms"], result["db_ms"] = (
                    (cpu_seconds(pid, tree=True) - b) / moves
                    for pid, b in zip(servers, before, strict=True)
                )
                rows += [(label, result)] if number else []
        finally:
            web.stop()
    count = f"{instructions / 1e6:.2f} million" if isinstance(instructions, float) else instructions
    return [
        TITLE,
        "",
        f"{GAMES} games of {PLAYERS} players, {duration} s per run.",
        "",
        "| clients | moves/s | p50 ms | p99 ms | moves | non-2xx | socket errors "
        "| CPU ms/move: gunicorn | PostgreSQL | client |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *(
            f"| {label} | {r['rps']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} | {r['requests']:.0f} "
            f"| {r['non2xx']:.0f} | {r['socket_errors']:.0f} | {r['web_ms']:.2f} "
            f"| {r['db_ms']:.2f} | {r['client_cpu_ms']:.2f} |"
            for label, r in rows
        ),
        "",
        f"- statements per move (the whole request, max over moves of each kind): "
        f"{prepared['statements']}",
        f"- CPU per move in one process (Django's WSGI handler, 1,000 moves): "
        f"{prepared['cpu_ms']:.2f} ms in Python, {prepared['db_cpu_ms']:.2f} ms in PostgreSQL",
        f"- **instructions per move** (callgrind, {COUNTED_MOVES} moves): **{count}**",
        "",
        "| cProfile: the project's functions by cumulative share of a move's CPU | share |",
        "|---|---:|",
        *(f"| {name} | {share:.0f}% |" for name, share in prepared["profile"]),
    ]


def callgrind_total(profile: str) -> int | None:
    """The instructions a callgrind profile counted (its ``totals:`` line), if any."""
    found = re.search(r"^totals:\s+(\d+)", profile, re.M)
    return int(found.group(1)) if found else None


def _count_instructions(env: dict, data: Path, tmp: Path) -> float | str:
    """Instructions one move costs the web process (not PostgreSQL), or why not counted."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        return "not counted (apt-get install valgrind)"
    profile = tmp / "callgrind.out"
    command = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
    command += [f"--callgrind-out-file={profile}", sys.executable, "-m", "bench.moves"]
    done = subprocess.run([*command, "instructions", str(data)], cwd=ROOT, env=env,
                          capture_output=True, text=True)  # fmt: skip
    total = callgrind_total(profile.read_text()) if profile.exists() else None
    if done.returncode or not total:
        return f"not counted: callgrind failed ({(done.stderr.strip().splitlines() or ['?'])[-1]})"
    return total / COUNTED_MOVES


def _wsgi_mover(token: str, game_id: int, cells: list[int]) -> Any:
    """A function that plays move ``i`` through Django's WSGI handler, as gunicorn would."""
    from django.core.handlers.wsgi import WSGIHandler

    handler, statuses = WSGIHandler(), []
    base = {"REQUEST_METHOD": "POST", "SCRIPT_NAME": "", "QUERY_STRING": "", "SERVER_PORT": "80",
            "SERVER_NAME": "127.0.0.1", "HTTP_HOST": "127.0.0.1", "REMOTE_ADDR": "127.0.0.1",
            "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr,
            "PATH_INFO": f"/api/v1/games/{game_id}/moves/", "CONTENT_TYPE": "application/json",
            "HTTP_AUTHORIZATION": f"Token {token}"}  # fmt: skip

    def call(i: int) -> None:
        move = {"client_move_id": str(uuid.uuid4()), "cell": cells[i % len(cells)], "value": i % 10}
        body = json.dumps({**move, "kind": "value"}).encode()
        environ = {**base, "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body))}
        response = handler(environ, lambda status, headers, exc_info=None: statuses.append(status))
        b"".join(response)
        response.close()
        if not statuses[-1].startswith("200"):
            raise RuntimeError(f"a bench move was answered {statuses[-1]}")

    return call


def _profile(call_move: Any, rounds: int, top: int = 12) -> list[tuple[str, float]]:
    """The project's functions by cumulative share of the moves' CPU (a CPU clock)."""
    import cProfile
    import pstats

    profiler = cProfile.Profile(time.process_time)
    profiler.runcall(lambda: [call_move(i) for i in range(rounds)])
    stats = pstats.Stats(profiler)
    ours = [
        (f"{Path(filename).relative_to(ROOT)}:{line}:{function}", row[3])
        for (filename, line, function), row in stats.stats.items()  # type: ignore[attr-defined]
        if filename.startswith(str(ROOT)) and not re.search(r"/(bench|\.venv)/", filename)
    ]
    ours.sort(key=lambda item: -item[1])
    return [(name, 100 * seconds / stats.total_tt) for name, seconds in ours[:top]]  # type: ignore[attr-defined]


def _play_counted_moves(data_path: str) -> None:
    """Under callgrind: warm up, then count ``COUNTED_MOVES`` moves of the first game."""
    import django

    django.setup()
    game, token, cells = Path(data_path).read_text().split("\n", 1)[0].split()
    call_move = _wsgi_mover(token, int(game), [int(c) for c in cells.split(",")])
    for i in range(2 * COUNTED_MOVES):
        if i == COUNTED_MOVES:
            subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True)
        call_move(i)
    subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], check=True)


def _prepare(data_path: str) -> None:
    """Fill the bench database; count a move's statements and CPU (run in a subprocess)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.services import token_create
    from puzzles.models import Puzzle
    from solver import format_line, parse, solve

    grid = parse(PUZZLE)
    givens, solved = format_line(grid), format_line(solve(grid))

    def relabelled(text: str, shift: int) -> str:
        return "".join(ch if ch == "." else str((int(ch) - 1 + shift) % 9 + 1) for ch in text)

    # One unfinished game of a puzzle per player: each of a player's games has its own copy.
    puzzles = [
        Puzzle.objects.create(
            size=9, box_rows=3, box_cols=3, givens=relabelled(givens, s), difficulty="easy",
            solution=relabelled(solved, s), score=1, clue_count=grid.clues,
            canonical_key=f"{s:064x}", source="imported",
        )
        for s in range(GAMES // PLAYERS + 2)
    ]  # fmt: skip
    playable = [i for i, ch in enumerate(givens) if ch == "."][1:]  # one cell never played
    tokens = []
    for i in range(PLAYERS):
        user = get_user_model()(username=f"bench{i}")
        user.set_unusable_password()
        user.save()
        tokens.append(token_create(user=user)[1])

    def start(token: str, puzzle: Any) -> int:
        client = Client(HTTP_AUTHORIZATION=f"Token {token}")
        answer = client.post("/api/v1/games/", {"puzzle": puzzle.pk}, "application/json")
        assert answer.status_code == 201, answer.content
        return answer.json()["id"]

    cells = ",".join(map(str, playable))
    Path(data_path).write_text("".join(
        f"{start(tokens[g % PLAYERS], puzzles[g // PLAYERS])} {tokens[g % PLAYERS]} {cells}\n"
        for g in range(GAMES)
    ))  # fmt: skip
    token, solution = tokens[0], puzzles[-2].solution
    game, client = start(token, puzzles[-2]), Client(HTTP_AUTHORIZATION=f"Token {token}")
    client.get(f"/api/v1/games/{game}/")  # the token's refresh first
    counts = []
    for cell in playable[:5]:
        right = int(solution[cell])
        for kind, value in (("value", right % 9 + 1), ("value", 0), ("note", 3), ("value", right)):
            body = {"client_move_id": str(uuid.uuid4()), "cell": cell, "value": value, "kind": kind}
            with CaptureQueriesContext(connection) as captured:
                answer = client.post(f"/api/v1/games/{game}/moves/", body, "application/json")
            assert answer.status_code == 200, answer.content
            skipped = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")
            sql = [q["sql"].strip().upper() for q in captured.captured_queries]
            counts.append(sum(not q.startswith(skipped) for q in sql))
    call_move = _wsgi_mover(token, start(token, puzzles[-1]), playable)
    for i in range(100):
        call_move(i)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    db0, cpu0 = cpu_seconds(backend), time.process_time()
    for i in range(1000):
        call_move(i)
    # Seconds over 1,000 moves are milliseconds per move.
    cpu_ms, db_ms = time.process_time() - cpu0, cpu_seconds(backend) - db0
    summary = {"statements": max(counts), "cpu_ms": cpu_ms, "db_cpu_ms": db_ms,
               "postmaster": psutil.Process(backend).ppid(),
               "profile": _profile(call_move, 1000)}  # fmt: skip
    print(json.dumps(summary))


if __name__ == "__main__":
    if sys.argv[1:2] == ["prepare"]:
        _prepare(sys.argv[2])
    elif sys.argv[1:2] == ["instructions"]:
        _play_counted_moves(sys.argv[2])
