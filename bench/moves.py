"""The move endpoint under load: POST /api/v1/games/{id}/moves/ through gunicorn.

A scratch database (``<DATABASE_URL's name>_movebench``) holds 64 players and 256 games;
gunicorn serves it as ``gunicorn.conf.py`` configures it, with Redis as the cache. ``wrk``
plays moves back to back at 16 and 64 connections, then ``bench/paced.py`` offers the
target rate on a schedule. In one process, the statements, CPU, cProfile top and callgrind
instructions of a move. Needs DATABASE_URL (PostgreSQL), REDIS_URL, wrk; valgrind counts.
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
from urllib.parse import unquote, urlsplit

from bench import ROOT
from bench.stack import (
    Process,
    cpu_seconds,
    free_port,
    scratch_database,
    scratch_site,
    server_cpu_seconds,
    wait,
)

TITLE = "## Moves API (gunicorn + PostgreSQL + Redis)"
CLIENTS, TARGET_RATE, TARGET_RUNS = (16, 64), 1000, 3
GAMES, PLAYERS = 256, 64
COUNTED_MOVES = 200  # under callgrind, after as many to warm up
# Wikipedia's example puzzle; every bench game plays a relabelled copy of it.
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
LUA = r"""
local games, counter, run = {}, 0, tonumber(os.getenv("MOVEBENCH_RUN") or "1")
local threads = 0
function setup(thread) thread:set("tid", threads); threads = threads + 1 end
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
        unit = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[m.group(2)] if m else 0
        out[f"p{pct}"] = float(m.group(1)) * unit if m else float("nan")
    errors = re.search(r"Socket errors: (.*)", text)
    out["socket_errors"] = sum(map(float, re.findall(r"\d+", errors.group(1)))) if errors else 0.0
    return out


def run(quick: bool = False) -> list[str]:
    import psutil
    import psycopg

    database_url, wrk = os.environ.get("DATABASE_URL", ""), shutil.which("wrk")
    if not database_url.startswith("postgres") or not os.environ.get("REDIS_URL") or not wrk:
        return [TITLE, "", "skipped: needs DATABASE_URL=postgres://..., REDIS_URL and wrk"]
    duration, postmaster = 5 if quick else 15, None
    if database_is_local(database_url):
        with psycopg.connect(scratch_database(database_url)[2], autocommit=True) as conn:
            postmaster = psutil.Process(conn.info.backend_pid).ppid()
    rows: list[tuple[str, dict[str, float]]] = []
    site = scratch_site(database_url, "_movebench", CACHE_KEY_PREFIX="movebench")
    with site as env, tempfile.TemporaryDirectory(prefix="movebench-") as tmp_name:
        tmp, port = Path(tmp_name), free_port()
        data, summary, script = tmp / "games.txt", tmp / "summary.json", tmp / "moves.lua"
        script.write_text(LUA)
        bind = ["--log-level", "warning", "--bind", f"127.0.0.1:{port}"]
        gunicorn = [sys.executable, "-m", "gunicorn", "sudokusite.wsgi", *bind]
        web = Process("gunicorn", gunicorn, env, tmp)
        db = None
        try:
            prepare = [sys.executable, "-m", "bench.moves", "prepare", str(data), str(summary)]
            subprocess.run(prepare, cwd=ROOT, env=env, check=True)
            prepared = json.loads(summary.read_text())
            instructions = _count_instructions(env, data, tmp)
            db = psycopg.connect(env["DATABASE_URL"], autocommit=True)
            sql = f'SELECT coalesce(max("id"), 0) FROM "{prepared["move_table"]}"'

            def cpu() -> tuple[float, float]:
                database = server_cpu_seconds(postmaster) if postmaster else 0.0
                return server_cpu_seconds(web.proc.pid), database  # type: ignore[union-attr]

            def load(command: list[str], parse: Any, extra: dict[str, str]) -> dict[str, float]:
                """One run; gunicorn's and PostgreSQL's CPU over its middle part, divided by
                the moves the database stored in that span."""
                proc = subprocess.Popen(command, env={**env, **extra}, stdout=subprocess.PIPE)
                time.sleep(1)
                before, stored = cpu(), db.execute(sql).fetchone()[0]
                time.sleep(max(duration - 2, 1))
                moves = db.execute(sql).fetchone()[0] - stored or float("nan")
                after = cpu()
                out, _ = proc.communicate(timeout=duration + 60)
                if proc.returncode:
                    raise RuntimeError(f"{Path(command[0]).name} failed ({proc.returncode})")
                result = parse(out.decode())
                result["web_cpu_ms"] = 1000 * (after[0] - before[0]) / moves
                result["db_cpu_ms"] = 1000 * (after[1] - before[1]) / moves if postmaster else 0
                return result

            web.start()
            wait(lambda: _answers(port, prepared), 60, "gunicorn")
            runs = [("warm-up", 64, 3 if quick else 5)] + [(str(c), c, duration) for c in CLIENTS]
            for number, (label, clients, seconds) in enumerate(runs):
                options = f"-t2 -c{clients} -d{seconds}s --timeout 10s --latency -s {script}"
                extra = {"MOVEBENCH_DATA": str(data), "MOVEBENCH_RUN": str(number or 99)}
                result = load([wrk, *options.split(), f"http://127.0.0.1:{port}"], parse_wrk, extra)
                rows += [(label, result)] if number else []
            for number in range(1 if quick else TARGET_RUNS):
                paced = f"-m bench.paced {port} {data} 64 {TARGET_RATE} {duration} {10 + number}"
                result = load([sys.executable, *paced.split()], json.loads, {})
                rows.append((f"64, {TARGET_RATE:,} moves/s offered", result))
        finally:
            if db is not None:
                db.close()
            web.stop()
    count = f"{instructions / 1e6:.2f} million" if isinstance(instructions, float) else instructions
    return [
        TITLE,
        "",
        f"{GAMES} games of {PLAYERS} players, {duration} s per run.",
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
        f"- statements per move (the whole request, max over moves of each kind): "
        f"{prepared['statements']}",
        f"- CPU per move in one process (Django's WSGI handler, 1,000 moves): "
        f"{prepared['cpu_ms']:.2f} ms in Python, {prepared['db_cpu_ms']:.2f} ms in PostgreSQL",
        f"- **instructions per move** (callgrind, {COUNTED_MOVES} moves): **{count}**",
        "",
        "| cProfile: the project's functions by cumulative share of a move's CPU | share |",
        "|---|---:|",
        *(f"| {fn} | {share:.0f}% |" for fn, share in prepared["profile"]),
    ]


def _answers(port: int, prepared: dict) -> bool:
    import urllib.request

    url = f"http://127.0.0.1:{port}/api/v1/games/{prepared['game']}/"
    request = urllib.request.Request(url, headers={"Authorization": f"Token {prepared['token']}"})
    try:
        with urllib.request.urlopen(request, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


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


def _profile(call_move: Any, rounds: int, top: int = 12) -> list[tuple[str, float]]:
    """The project's functions by cumulative share of the moves' CPU (a CPU clock)."""
    import cProfile
    import pstats

    profiler = cProfile.Profile(time.process_time)
    profiler.runcall(lambda: [call_move(i) for i in range(rounds)])
    stats = pstats.Stats(profiler)
    ours = [
        (f"{Path(filename).relative_to(ROOT)}:{function}", row[3])
        for (filename, _, function), row in stats.stats.items()  # type: ignore[attr-defined]
        if filename.startswith(str(ROOT)) and not re.search(r"/(bench|\.venv)/", filename)
    ]
    ours.sort(key=lambda item: -item[1])
    return [(name, 100 * seconds / stats.total_tt) for name, seconds in ours[:top]]  # type: ignore[attr-defined]


def _prepare(data_path: str, summary_path: str) -> None:
    """Fill the bench database; count a move's statements and CPU (run in a subprocess)."""
    import django

    django.setup()
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
    summary = {"token": token, "game": game, "statements": max(counts), "cpu_ms": cpu_ms,
               "move_table": apps.get_model("play", "Move")._meta.db_table, "db_cpu_ms": db_ms,
               "profile": _profile(call_move, 1000)}  # fmt: skip
    Path(summary_path).write_text(json.dumps(summary))


if __name__ == "__main__":
    if sys.argv[1:2] == ["prepare"]:
        _prepare(sys.argv[2], sys.argv[3])
    elif sys.argv[1:2] == ["instructions"]:
        _play_counted_moves(sys.argv[2])
    else:
        print("\n".join(run(quick="--quick" in sys.argv)))
