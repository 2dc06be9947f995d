"""The move endpoint under load: POST /api/v1/games/{id}/moves/ through gunicorn.

A scratch database (``<DATABASE_URL's name>_movebench``) is filled with 64 players and 256
games; gunicorn serves it as ``gunicorn.conf.py`` configures it, with Redis as the cache.
``wrk`` drives moves back to back at 16 and 64 connections, then ``bench/paced.py`` offers
the target rate on a schedule. In one process the bench also counts the statements, CPU,
cProfile top and callgrind instructions of a move. How to read the figures:
docs/performance.md. Needs DATABASE_URL (PostgreSQL), REDIS_URL and wrk; valgrind for the
instruction count.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from bench.stack import (
    ROOT,
    Process,
    cpu_seconds,
    free_port,
    process_tree,
    recreate_database,
    scratch_database,
    server_cpu_seconds,
    site_environment,
    wait,
)

TITLE = "## Moves API (gunicorn + PostgreSQL + Redis)"
CLIENTS = (16, 64)
TARGET_RATE, TARGET_P99_MS, TARGET_RUNS = 1000, 50, 3
GAMES, PLAYERS = 256, 64
COUNTED_MOVES = 200  # under callgrind, after as many to warm up
PROFILE_TOP = 12
# Wikipedia's example puzzle; every bench game plays a relabelled copy of it.
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

LUA = r"""
local games, counter = {}, 0
local run = tonumber(os.getenv("MOVEBENCH_RUN") or "1")
function setup(thread)
  thread:set("tid", thread_count or 0)
  thread_count = (thread_count or 0) + 1
end
function init(args)
  for line in io.lines(os.getenv("MOVEBENCH_DATA")) do
    local id, token, cells = line:match("^(%d+) (%S+) (%S+)$")
    local list = {}
    for c in cells:gmatch("%d+") do list[#list + 1] = tonumber(c) end
    games[#games + 1] = {id = id, token = token, cells = list}
  end
  counter = (tid or 0) * 7919
  math.randomseed(run * 1000 + (tid or 0))
end
function request()
  counter = counter + 1
  local g = games[(counter % #games) + 1]
  local body = string.format(
    '{"client_move_id":"%08x-%04x-4000-8000-%012x","cell":%d,"value":%d,"kind":"value"}',
    run, tid or 0, counter, g.cells[math.random(#g.cells)], math.random(0, 9))
  return wrk.format("POST", "/api/v1/games/" .. g.id .. "/moves/", {
    ["Authorization"] = "Token " .. g.token, ["Content-Type"] = "application/json"}, body)
end
"""


def database_is_local(url: str) -> bool:
    """Whether a postgres:// URL names a server on this machine (loopback or a socket)."""
    host = unquote(urlsplit(url).hostname or "")
    return host in {"", "127.0.0.1", "localhost", "::1"} or host.startswith("/")


def parse_wrk(text: str) -> dict[str, float]:
    def ms(value: str, unit: str) -> float:
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]

    def number(pattern: str) -> float:
        found = re.search(pattern, text)
        return float(found.group(1)) if found else 0.0

    out = {
        "rps": number(r"Requests/sec:\s+([\d.]+)"),
        "requests": number(r"(\d+) requests in"),
        "non2xx": number(r"Non-2xx or 3xx responses: (\d+)"),
    }
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}(?:\.000)?%\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M)
        out[f"p{pct}"] = ms(m.group(1), m.group(2)) if m else float("nan")
    errors = re.search(r"Socket errors: (.*)", text)
    out["socket_errors"] = (
        float(sum(map(int, re.findall(r"\d+", errors.group(1))))) if errors else 0.0
    )
    return out


def _load(
    command: list[str],
    parse: Any,
    duration: int,
    env: dict,
    web_pid: int,
    postmaster: int | None,
    stored: Any,
) -> dict[str, float]:
    """One load run; gunicorn's and PostgreSQL's CPU over its middle part, divided by the
    moves the database stored in that span."""
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    time.sleep(1)
    web = process_tree(web_pid)

    def sample() -> tuple[float, float, int]:
        db = server_cpu_seconds(postmaster) if postmaster else 0.0
        return cpu_seconds(web), db, stored()

    web0, db0, stored0 = sample()
    time.sleep(max(duration - 2, 1))
    web1, db1, stored1 = sample()
    out, _ = proc.communicate(timeout=duration + 60)
    if proc.returncode:
        raise RuntimeError(f"{Path(command[0]).name} failed ({proc.returncode})")
    result = parse(out)
    moves = stored1 - stored0 or float("nan")
    result["web_cpu_ms"] = 1000 * (web1 - web0) / moves
    result["db_cpu_ms"] = 1000 * (db1 - db0) / moves if postmaster else float("nan")
    return result


def run(quick: bool = False) -> list[str]:
    import psycopg

    database_url = os.environ.get("DATABASE_URL", "")
    wrk = shutil.which("wrk")
    if urlsplit(database_url).scheme not in {"postgres", "postgresql", "pgsql"}:
        return [TITLE, "", "skipped: set DATABASE_URL=postgres://... and REDIS_URL=redis://..."]
    if not os.environ.get("REDIS_URL") or wrk is None:
        return [TITLE, "", "skipped: needs REDIS_URL and wrk (apt-get install wrk)"]
    url, name, maintenance = scratch_database(database_url, "_movebench")
    duration = 5 if quick else 15
    env = site_environment(url, CACHE_KEY_PREFIX="movebench")
    python = sys.executable
    recreate_database(maintenance, name)
    postmaster = None
    if database_is_local(database_url):
        with psycopg.connect(maintenance, autocommit=True) as conn:
            backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        postmaster = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
    rows: list[tuple[str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory(prefix="movebench-") as tmp_name:
        tmp = Path(tmp_name)
        data, summary, script = tmp / "games.txt", tmp / "summary.json", tmp / "moves.lua"
        script.write_text(LUA)
        port = free_port()
        gunicorn = ["-m", "gunicorn", "sudokusite.wsgi", "--log-level", "warning", "--bind"]
        web = Process("gunicorn", [python, *gunicorn, f"127.0.0.1:{port}"], env, tmp)
        db = None
        try:
            for argv in (
                ["manage.py", "migrate", "--noinput", "-v", "0"],
                ["-m", "bench.moves", "prepare", str(data), str(summary)],
            ):
                subprocess.run([python, *argv], cwd=ROOT, env=env, check=True)
            prepared = json.loads(summary.read_text())
            instructions = _count_instructions(python, env, data, tmp)
            db = psycopg.connect(url, autocommit=True)
            sql = f'SELECT coalesce(max("id"), 0) FROM "{prepared["move_table"]}"'
            stored = lambda: db.execute(sql).fetchone()[0]  # noqa: E731
            web.start()
            wait(lambda: _answers(port, prepared), 60, "gunicorn")

            def wrk_run(clients: int, seconds: int, number: int) -> dict[str, float]:
                options = f"-t2 -c{clients} -d{seconds}s --timeout 10s --latency -s {script}"
                argv = [wrk, *options.split(), f"http://127.0.0.1:{port}"]
                wrk_env = {**env, "MOVEBENCH_DATA": str(data), "MOVEBENCH_RUN": str(number)}
                return _load(argv, parse_wrk, seconds, wrk_env, web.proc.pid, postmaster, stored)

            wrk_run(64, 3 if quick else 5, 99)  # warm-up: connections open, statements prepared
            for number, clients in enumerate(CLIENTS, start=1):
                rows.append((str(clients), wrk_run(clients, duration, number)))
            for number in range(TARGET_RUNS if not quick else 1):
                paced = f"-m bench.paced {port} {data} 64 {TARGET_RATE} {duration} {10 + number}"
                argv = [python, *paced.split()]
                result = _load(argv, json.loads, duration, env, web.proc.pid, postmaster, stored)
                rows.append((f"64, {TARGET_RATE:,} moves/s offered", result))
        finally:
            if db is not None:
                db.close()
            web.stop()
            recreate_database(maintenance, name, drop_only=True)
    return _report(rows, prepared, instructions, duration)


def _answers(port: int, prepared: dict) -> bool:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/games/{prepared['game']}/",
        headers={"Authorization": f"Token {prepared['token']}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def _report(rows: list, prepared: dict, instructions: float | str, duration: int) -> list[str]:
    count = f"{instructions / 1e6:.2f} million" if isinstance(instructions, float) else instructions
    return [
        TITLE,
        "",
        f"{GAMES} games of {PLAYERS} players; {duration} s per run; back to back by wrk, "
        f"at the target's rate by bench/paced.py (target: p99 under {TARGET_P99_MS} ms).",
        "",
        "| clients | moves/s | p50 ms | p99 ms | moves | non-2xx | socket errors "
        "| CPU ms/move: gunicorn | PostgreSQL |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *(
            f"| {label} | {r['rps']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} | {r['requests']:.0f} "
            f"| {r['non2xx']:.0f} | {r['socket_errors']:.0f} | {r['web_cpu_ms']:.2f} "
            f"| {r['db_cpu_ms']:.2f} |"
            for label, r in rows
        ),
        "",
        f"Statements per move (the whole request, with a token; max over moves of each kind): "
        f"{prepared['statements']}.",
        f"CPU per move in one process (Django's WSGI handler, 1,000 moves): "
        f"{prepared['cpu_ms']:.2f} ms in Python, {prepared['db_cpu_ms']:.2f} ms in PostgreSQL.",
        f"Instructions per move (callgrind, {COUNTED_MOVES} moves): {count}.",
        "",
        f"cProfile: the project's functions by cumulative share of the CPU, top {PROFILE_TOP}:",
        "",
        "| function | share |",
        "|---|---:|",
        *(f"| {fn} | {share:.0f}% |" for fn, share in prepared["profile"]),
    ]


def statements(captured: Any) -> int:
    """Queries that did work (psycopg reports BEGIN and COMMIT as queries too)."""
    skipped = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")
    return sum(
        1 for q in captured.captured_queries if not q["sql"].strip().upper().startswith(skipped)
    )


def _wsgi_mover(token: str, game_id: int, cells: list[int]) -> Any:
    """A function that plays move ``i`` through Django's WSGI handler, as gunicorn would."""
    import io

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


def callgrind_total(profile: str) -> int | None:
    """The instructions a callgrind profile counted (its ``totals:`` line), if any."""
    found = re.search(r"^totals:\s+(\d+)", profile, re.M)
    return int(found.group(1)) if found else None


def _count_instructions(python: str, env: dict, data: Path, tmp: Path) -> float | str:
    """Instructions one move costs the web process (not PostgreSQL), or why not counted."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        return "not counted (apt-get install valgrind)"
    profile = tmp / "callgrind.out"
    command = f"valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file={profile} "
    command += f"{python} -m bench.moves instructions {data}"
    done = subprocess.run(shlex.split(command), cwd=ROOT, env=env, capture_output=True, text=True)
    total = callgrind_total(profile.read_text()) if profile.exists() else None
    if done.returncode or not total:
        return f"not counted: callgrind failed ({(done.stderr.strip().splitlines() or ['?'])[-1]})"
    return total / COUNTED_MOVES


def _setup_django() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")
    django.setup()


def _play_counted_moves(data_path: str) -> None:
    """Under callgrind: warm up, then count ``COUNTED_MOVES`` moves of the first game."""
    _setup_django()
    game, token, cells = Path(data_path).read_text().split("\n", 1)[0].split()
    call_move = _wsgi_mover(token, int(game), [int(c) for c in cells.split(",")])
    for i in range(2 * COUNTED_MOVES):
        if i == COUNTED_MOVES:
            subprocess.run(
                ["callgrind_control", "-i", "on", str(os.getpid())], check=True, capture_output=True
            )
        call_move(i)
    subprocess.run(
        ["callgrind_control", "-i", "off", str(os.getpid())], check=True, capture_output=True
    )


def _profile(call_move: Any, rounds: int) -> list[tuple[str, float]]:
    """The project's functions by cumulative share of the moves' CPU (a CPU clock)."""
    import cProfile
    import pstats

    profiler = cProfile.Profile(time.process_time)
    profiler.runcall(lambda: [call_move(i) for i in range(rounds)])
    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    ours = [
        (f"{Path(filename).relative_to(ROOT)}:{function}", row[3])
        for (filename, _, function), row in stats.stats.items()  # type: ignore[attr-defined]
        if filename.startswith(str(ROOT))
        and "/bench/" not in filename
        and "/.venv/" not in filename
    ]
    ours.sort(key=lambda item: -item[1])
    return [(name, 100 * seconds / total) for name, seconds in ours[:PROFILE_TOP]]


def _prepare(data_path: str, summary_path: str) -> None:
    """Fill the bench database, count a move's statements and CPU (run in a subprocess)."""
    _setup_django()
    import secrets

    from django.apps import apps
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
            size=9,
            box_rows=3,
            box_cols=3,
            givens=relabelled(givens, s),
            solution=relabelled(solved, s),
            difficulty="easy",
            score=1,
            clue_count=grid.clues,
            canonical_key=secrets.token_hex(32),
            source="imported",
        )
        for s in range(GAMES // PLAYERS + 2)
    ]
    playable = [i for i, ch in enumerate(givens) if ch == "."][1:]  # one cell never played
    tokens = []
    for i in range(PLAYERS):
        user = get_user_model()(username=f"bench{i}")
        user.set_unusable_password()
        user.save()
        tokens.append(token_create(user=user)[1])

    def start(token: str, puzzle: Any) -> int:
        client = Client(HTTP_AUTHORIZATION=f"Token {token}")
        response = client.post(
            "/api/v1/games/", {"puzzle": puzzle.pk}, content_type="application/json"
        )
        assert response.status_code == 201, response.content
        return response.json()["id"]

    cells = ",".join(map(str, playable))
    lines = [
        f"{start(tokens[g % PLAYERS], puzzles[g // PLAYERS])} {tokens[g % PLAYERS]} {cells}"
        for g in range(GAMES)
    ]
    Path(data_path).write_text("\n".join(lines) + "\n")

    token, solution = tokens[0], puzzles[-2].solution
    game = start(token, puzzles[-2])
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    client.get(f"/api/v1/games/{game}/")  # the token's refresh first
    counts = []
    for cell in playable[:5]:
        right = int(solution[cell])
        for kind, value in (("value", right % 9 + 1), ("value", 0), ("note", 3), ("value", right)):
            body = {"client_move_id": str(uuid.uuid4()), "cell": cell, "value": value, "kind": kind}
            with CaptureQueriesContext(connection) as captured:
                response = client.post(
                    f"/api/v1/games/{game}/moves/", body, content_type="application/json"
                )
            assert response.status_code == 200, response.content
            counts.append(statements(captured))
    call_move = _wsgi_mover(token, start(token, puzzles[-1]), playable)
    for i in range(100):
        call_move(i)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    local = Path(f"/proc/{backend}/stat").exists()
    db0, cpu0 = cpu_seconds({backend}), time.process_time()
    for i in range(1000):
        call_move(i)
    # Seconds over 1,000 moves are milliseconds per move.
    cpu_ms, db_ms = time.process_time() - cpu0, cpu_seconds({backend}) - db0
    Path(summary_path).write_text(
        json.dumps(
            {
                "token": token,
                "game": game,
                "move_table": apps.get_model("play", "Move")._meta.db_table,
                "statements": max(counts),
                "cpu_ms": cpu_ms,
                "db_cpu_ms": db_ms if local else float("nan"),
                "profile": _profile(call_move, 1000),
            }
        )
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["prepare"]:
        _prepare(sys.argv[2], sys.argv[3])
    elif sys.argv[1:2] == ["instructions"]:
        _play_counted_moves(sys.argv[2])
    else:
        print("\n".join(run(quick="--quick" in sys.argv)))
