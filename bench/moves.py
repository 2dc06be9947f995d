"""The move endpoint under load: POST /api/v1/games/{id}/moves/ through gunicorn.

A scratch PostgreSQL database (``<DATABASE_URL's name>_movebench``) is created, migrated and
filled with players, tokens and games; gunicorn serves it on a free localhost port with
Redis as the cache, configured by ``gunicorn.conf.py`` as in production (threaded
workers, one process per core); ``wrk`` (Debian's package) drives moves from a Lua script
at 16 and 64 concurrent connections. Each request is a new move (its own client move id)
placing or clearing a value in an open cell of one of many games, as players on phones
would. The queries one move costs are counted in-process with CaptureQueriesContext.

Beside the wall-clock figures it reports the CPU time one move costs the gunicorn
processes and the PostgreSQL server (read from /proc while the load runs, when PostgreSQL
is on this machine): other work on a shared machine stretches wall-clock
figures, much less CPU per move, and the machine's ceiling follows from it.

Run with ``make bench`` or ``python -m bench.moves``; needs DATABASE_URL (PostgreSQL),
REDIS_URL and wrk (``apt-get install wrk``), and says so in one line when one is missing.
The fixed-rate runs (64 clients offering 1,000 moves/s between them, three times, then
lower rates if one missed; each move timed from when it was due) are driven by
bench/paced.py instead of wrk (see there why).
"""

from __future__ import annotations

import json
import math
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from bench.report import SPEED_NOTE, python_speed

ROOT = Path(__file__).resolve().parents[1]
TITLE = "## Moves API (gunicorn + PostgreSQL + Redis, wrk)"
CLIENTS = (16, 64)
# The target (issue: hardening): 1,000 moves/s from 64 clients with a p99 under 50 ms,
# measured at that fixed rate by bench/paced.py.
TARGET_RATE = 1000
TARGET_P99_MS = 50
# Runs at the target's rate: a machine this close to its limit passes one run and fails the
# next, and the target is met only if every run meets it.
TARGET_RUNS = 3
# When the target rate misses, lower rates are tried, a step apart (each while the one before
# missed), for the highest rate this machine carries within the p99 target.
FALLBACK_STEP = 100
FALLBACK_RUNS = 4
GAMES = 256
PLAYERS = 64
# Moves counted under callgrind, after as many to warm up (connection, prepared statements).
COUNTED_MOVES = 200
# Wikipedia's example puzzle; every bench game plays it.
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

LUA = r"""
-- One request = one new move in one of the prepared games.
local games = {}
local counter = 0
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
  -- Threads start at different games so they rarely queue on the same row.
  counter = (tid or 0) * 7919
  math.randomseed(run * 1000 + (tid or 0))
end

function request()
  counter = counter + 1
  local g = games[(counter % #games) + 1]
  local cell = g.cells[math.random(#g.cells)]
  local body = string.format(
    '{"client_move_id":"%08x-%04x-4000-8000-%012x","cell":%d,"value":%d,"kind":"value"}',
    run, tid or 0, counter, cell, math.random(0, 9))
  return wrk.format("POST", "/api/v1/games/" .. g.id .. "/moves/", {
    ["Authorization"] = "Token " .. g.token,
    ["Content-Type"] = "application/json",
  }, body)
end
"""


def _skip(reason: str) -> list[str]:
    return [TITLE, "", f"skipped: {reason}"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _bench_database_url(url: str) -> tuple[str, str, str]:
    """(bench URL, maintenance URL, bench database name) for a postgres:// URL."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/") + "_movebench"
    bench = urlunsplit(parts._replace(path="/" + name))
    maintenance = urlunsplit(parts._replace(path="/postgres", scheme="postgresql"))
    return bench, maintenance, name


def database_is_local(url: str) -> bool:
    """Whether a postgres:// URL names a server on this machine: a loopback address, or a
    socket directory (percent-encoded as libpq writes it, or none: libpq's default)."""
    host = unquote(urlsplit(url).hostname or "")
    return host in {"", "127.0.0.1", "localhost", "::1"} or host.startswith("/")


def _recreate_database(maintenance: str, name: str, *, drop_only: bool = False) -> None:
    import psycopg

    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


def _parse_wrk(text: str) -> dict[str, float]:
    def ms(value: str, unit: str) -> float:
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]

    out: dict[str, float] = {}
    rate = re.search(r"Requests/sec:\s+([\d.]+)", text)
    out["rps"] = float(rate.group(1)) if rate else 0.0
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}(?:\.000)?%\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M)
        out[f"p{pct}"] = ms(m.group(1), m.group(2)) if m else float("nan")
    total = re.search(r"(\d+) requests in", text)
    out["requests"] = float(total.group(1)) if total else 0.0
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    out["non2xx"] = float(bad.group(1)) if bad else 0.0
    errors = re.search(r"Socket errors: (.*)", text)
    out["socket_errors"] = (
        float(sum(int(n) for n in re.findall(r"\d+", errors.group(1)))) if errors else 0.0
    )
    return out


def _wait_until_up(port: int, token: str, game_id: int, proc: subprocess.Popen) -> None:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/games/{game_id}/",
        headers={"Authorization": f"Token {token}"},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited during start-up")
        try:
            with urllib.request.urlopen(request, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("gunicorn did not answer within 60 s")


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _cpu_seconds(pids: set[int]) -> float:
    """utime + stime of these processes (those still alive), in seconds."""
    ticks = 0
    for pid in pids:
        fields = _stat(pid)
        if fields is not None:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _context_switches() -> float:
    """Context switches on the whole machine since it started (NaN where there is no
    /proc/stat)."""
    try:
        with open("/proc/stat") as stat:
            for line in stat:
                if line.startswith("ctxt "):
                    return float(line.split()[1])
    except OSError:
        pass
    return float("nan")


def _server_cpu_seconds(root: int) -> float:
    """CPU seconds of a server: ``root`` and its children now, and the children that have
    exited, whose time the kernel adds to their parent's cutime and cstime once reaped. A
    PostgreSQL backend that ends during a run (a web connection past its
    ``DATABASE_CONN_MAX_AGE``) so still counts, where reading the backends alone lost its
    whole time and could give a negative figure."""
    fields = _stat(root)
    reaped = int(fields[13]) + int(fields[14]) if fields is not None else 0
    return _cpu_seconds(_process_tree(root)) + reaped / os.sysconf("SC_CLK_TCK")


def _process_tree(root: int) -> set[int]:
    """``root`` and its children (gunicorn's master and workers, PostgreSQL's postmaster
    and backends)."""
    found = {root}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == root:
                found.add(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


def _stored_moves_counter(connection: Any, table: str) -> Callable[[], int]:
    """A function whose difference between two calls is the moves stored in between: the
    move table's highest id (a move that is not stored takes no id), one index lookup,
    where count(*) would read the table. The bench's table is never empty by then (the
    prepare step played moves), so the first call is an id too, not 0."""
    sql = f'SELECT coalesce(max("id"), 0) FROM "{table}"'
    return lambda: connection.execute(sql).fetchone()[0]


def _postmaster(maintenance: str) -> int | None:
    """The PostgreSQL server's main process (a backend's parent), if on this machine."""
    import psycopg

    with psycopg.connect(maintenance, autocommit=True) as conn:
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
    fields = _stat(backend)
    return int(fields[1]) if fields is not None else None


def _wrk(wrk: str, script: Path, port: int, clients: int, duration: int) -> list[str]:
    """wrk's command line: ``clients`` connections moving back to back."""
    return [wrk, "-t2", f"-c{clients}", f"-d{duration}s", "--timeout", "10s", "--latency",
            "-s", str(script), f"http://127.0.0.1:{port}"]  # fmt: skip


def _paced(port: int, data: Path, clients: int, rate: int, duration: int, run: int) -> list[str]:
    """bench.paced's command line: ``clients`` offering ``rate`` moves/s between them; each
    run a number of its own, so no two runs send the same client move id."""
    return [sys.executable, "-m", "bench.paced", str(port), str(data), str(clients),
            str(rate), str(duration), str(run)]  # fmt: skip


def _load(
    command: list[str], parse: Callable[[str], dict[str, float]], duration: int, env: dict,
    gunicorn_pid: int, postmaster: int | None, stored: Callable[[], int],
) -> dict[str, float]:  # fmt: skip
    """One run of a load generator, its output read by ``parse`` (``_parse_wrk``, or
    ``json.loads`` for bench.paced); the CPU per move of gunicorn and of the PostgreSQL
    server (``postmaster``'s, when it is on this machine) over its middle part, divided by
    the moves ``stored`` in that same span (``stored()``: how many the database holds). Not
    by the load generator's rate: a fixed-rate run that falls behind answers for longer
    than it offers, so its rate over the whole run is not the rate in the middle part."""
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    time.sleep(1)  # connections open, workers warm
    web = _process_tree(gunicorn_pid)
    workers = sorted(web - {gunicorn_pid})
    per_worker0 = [_cpu_seconds({pid}) for pid in workers]

    def database() -> float:
        return _server_cpu_seconds(postmaster) if postmaster else 0.0

    def sample() -> tuple[float, float, float, int, float]:
        return _cpu_seconds(web), database(), _context_switches(), stored(), time.monotonic()

    web0, db0, switches0, stored0, t0 = sample()
    time.sleep(max(duration - 2, 1))
    web1, db1, switches1, stored1, t1 = sample()
    per_worker1 = [_cpu_seconds({pid}) for pid in workers]
    out, _ = proc.communicate(timeout=duration + 60)
    if proc.returncode:
        raise RuntimeError(f"{Path(command[0]).name} failed ({proc.returncode})")
    result = parse(out)
    moves = stored1 - stored0
    result["window_rps"] = moves / (t1 - t0)
    result["web_cpu_ms"] = 1000 * (web1 - web0) / moves if moves else float("nan")
    # How evenly the work fell on the processes (each keeps the connections it accepted).
    result["worker_load"] = sorted(
        (
            100 * (after - before) / (t1 - t0)
            for before, after in zip(per_worker0, per_worker1, strict=True)
        ),
        reverse=True,
    )
    result["db_cpu_ms"] = 1000 * (db1 - db0) / moves if moves and postmaster else float("nan")
    result["switches"] = (switches1 - switches0) / moves if moves else float("nan")
    return result


def _kept_up(row: dict[str, float]) -> bool:
    """A fixed-rate row whose answers came as many per second as were offered, give or take
    2%, over the whole run (one that fell behind answers on after its schedule ends)."""
    return row["rps"] >= 0.98 * row["rate"]


def _within_target(row: dict[str, float]) -> bool:
    """A fixed-rate row that carried its whole offered rate (every move answered 200, and
    kept up) with a p99 under the target."""
    carried = _kept_up(row) and row["requests"] == row["offered"]
    clean = row["non2xx"] == 0 and row["socket_errors"] == 0
    return carried and clean and row["p99"] < TARGET_P99_MS


def fallback_rates(flat_out: float) -> list[int]:
    """The rates to try after a missed target: steps of ``FALLBACK_STEP`` below the target,
    from the highest not above ``flat_out`` (the most moves/s the back-to-back runs got; a
    server cannot carry more than it answers flat out), ``FALLBACK_RUNS`` at most. So a
    machine far below the target is still told what it carries, without runs that could
    only miss."""
    highest = min(TARGET_RATE - FALLBACK_STEP, int(flat_out) // FALLBACK_STEP * FALLBACK_STEP)
    return list(range(highest, 0, -FALLBACK_STEP))[:FALLBACK_RUNS]


def _span(values: list[float], digits: int = 0) -> str:
    """``low-high`` of the values to ``digits`` decimals, or one figure when both read alike."""
    low, high = f"{min(values):.{digits}f}", f"{max(values):.{digits}f}"
    return low if low == high else f"{low}-{high}"


def _switches_note(flat_out: list[dict[str, float]], at_target: list[dict[str, float]]) -> str:
    """How many times the machine switched context per move at the target's rate and back
    to back, as a parenthesis; empty where that was not counted."""

    def counted(rows: list[dict[str, float]]) -> list[float]:
        return [r["switches"] for r in rows if not math.isnan(r.get("switches", math.nan))]

    paced, closed = counted(at_target), counted(flat_out)
    if not paced or not closed:
        return ""
    return (
        f" (the machine switched context {_span(paced)} times per move at the target's rate, "
        f"{_span(closed)} back to back)"
    )


# A move at the target's rate, in runs that kept up with it, is called dearer than flat out
# when every run there cost this much more than the cheapest back-to-back run (3%: runs
# minutes apart differ by that much).
DEARER = 1.03


def cpu_summary(rows: list[dict[str, float]], cores: int) -> list[str]:
    """The report's closing paragraph: what a move costs the server's CPU flat out (and the
    rate that allows), and at the target's rate, whether it is dearer there, and how much
    of the machine that rate keeps busy. Empty when PostgreSQL's CPU was not measured."""

    def server_ms(row: dict[str, float]) -> float:
        return row["web_cpu_ms"] + row["db_cpu_ms"]

    measured = [r for r in rows if not math.isnan(r["db_cpu_ms"])]
    flat_out = [r for r in measured if "rate" not in r]
    if not flat_out:
        return []
    best = min(map(server_ms, flat_out))
    text = (
        f"Back to back a move costs gunicorn and PostgreSQL {best:.2f} ms of CPU together "
        f"(best run above), so {cores} cores serve at most about {1000 * cores / best:,.0f} "
        "moves/s with nothing else running (the load generator's and the kernel's share "
        "come on top)."
    )
    at_target = [r for r in measured if r.get("rate") == TARGET_RATE]
    if at_target:
        # The rate answered while the CPU was read: a run that fell behind answers for
        # longer than its schedule, so its rate over the whole run is lower.
        busy = [
            100 * (server_ms(r) + r["client_cpu_ms"]) * r["window_rps"] / 1000 / cores
            for r in at_target
        ]
        costs = list(map(server_ms, at_target))
        text += (
            f" At {TARGET_RATE:,} moves/s offered the same move cost {_span(costs, 2)} ms, and "
            f"with the load generator's share those runs kept {_span(busy)}% of the {cores} "
            "cores busy."
        )
        switches = _switches_note(flat_out, at_target)
        if not all(map(_kept_up, at_target)):
            # Moves queued throughout: what the rate does to a move's cost is not seen here.
            text += (
                " Those runs fell behind the offered rate, so the server worked flat out "
                f"through them, as back to back{switches}."
            )
        elif min(costs) > DEARER * best:
            text += (
                " A move is dearer at a fixed rate than flat out: moves then arrive one at a "
                "time and each wakes a sleeping thread, backend and core, where flat out they "
                f"queue and are taken in turn{switches}."
            )
        else:
            text += f" No dearer than flat out{switches}."
        text += (
            " What is left spare decides the p99: a spell of slower CPU (runs minutes apart "
            "differ in CPU per move, as the rows show) builds a queue that only the spare "
            "CPU drains."
        )
    text += (
        " The wall-clock figures also carry whatever else the machine was running (see the "
        "load average)."
    )
    return ["", text]


def _verdict(rows: list[dict[str, float]]) -> str:
    """Whether every run at the target's rate met it and, when one missed, the highest
    lower rate that met the p99."""
    target = [row for row in rows if row["rate"] == TARGET_RATE]
    met = sum(map(_within_target, target))
    runs = "; ".join(
        f"{row['rps']:,.0f} moves/s answered, p99 {row['p99']:.1f} ms, "
        f"{row['non2xx'] + row['socket_errors']:.0f} errors"
        for row in target
    )
    line = (
        f"Target: {TARGET_RATE:,} moves/s at 64 clients with a p99 under {TARGET_P99_MS} ms. "
        f"{'Met' if met == len(target) else 'Not met'} on this machine: {met} of "
        f"{len(target)} runs at {TARGET_RATE:,} offered met it ({runs})."
    )
    if met == len(target):
        return line
    carried = [row["rate"] for row in rows if row["rate"] != TARGET_RATE and _within_target(row)]
    if carried:
        return line + f" The highest rate tried that met the p99: {max(carried):,.0f} moves/s."
    lowest = min(row["rate"] for row in rows)
    if lowest == TARGET_RATE:
        return line + " No lower rate was tried."
    return line + f" No rate tried (down to {lowest:,.0f} moves/s) met the p99."


def run(quick: bool = False) -> list[str]:
    import psycopg

    database_url = os.environ.get("DATABASE_URL", "")
    if urlsplit(database_url).scheme not in {"postgres", "postgresql", "pgsql"}:
        return _skip("set DATABASE_URL=postgres://... (and REDIS_URL=redis://...) to run it.")
    if not os.environ.get("REDIS_URL"):
        return _skip("set REDIS_URL=redis://... (and DATABASE_URL=postgres://...) to run it.")
    wrk = shutil.which("wrk")
    if wrk is None:
        return _skip("the load generator wrk is not installed (apt-get install wrk).")

    bench_url, maintenance, name = _bench_database_url(database_url)
    load = os.getloadavg()
    local_db = database_is_local(database_url)
    duration = 5 if quick else 15
    env = {
        **os.environ,
        "DATABASE_URL": bench_url,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "SECURE_HSTS_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
        "CACHE_KEY_PREFIX": "movebench",
        "PYTHONPATH": str(ROOT),
        # WhiteNoise warns in every worker that collectstatic has not run: not our subject.
        "PYTHONWARNINGS": "ignore::UserWarning",
    }
    python = sys.executable
    _recreate_database(maintenance, name)
    postmaster = _postmaster(maintenance) if local_db else None
    gunicorn = None
    moves_db = None
    try:
        with tempfile.TemporaryDirectory(prefix="movebench-") as tmp:
            data = Path(tmp) / "games.txt"
            summary = Path(tmp) / "summary.json"
            subprocess.run(
                [python, "manage.py", "migrate", "--noinput", "-v", "0"],
                cwd=ROOT,
                env=env,
                check=True,
            )
            subprocess.run(
                [python, "-m", "bench.moves", "prepare", str(data), str(summary)],
                cwd=ROOT,
                env=env,
                check=True,
            )
            prepared = json.loads(summary.read_text())
            instructions = _count_instructions(python, env, data, Path(tmp))
            moves_db = psycopg.connect(bench_url, autocommit=True)
            stored = _stored_moves_counter(moves_db, prepared["move_table"])
            script = Path(tmp) / "moves.lua"
            script.write_text(LUA)
            port = _free_port()
            config = subprocess.run(
                [python, "-m", "gunicorn", "--print-config", "sudokusite.wsgi"],
                cwd=ROOT, env=env, capture_output=True, text=True, check=True,
            ).stdout  # fmt: skip
            shape = dict(re.findall(r"^(workers|threads|worker_class)\s+= (\S+)", config, re.M))
            gunicorn = subprocess.Popen(
                [python, "-m", "gunicorn", "sudokusite.wsgi", "--bind", f"127.0.0.1:{port}",
                 "--log-level", "warning"],
                cwd=ROOT, env=env, start_new_session=True,
            )  # fmt: skip
            _wait_until_up(port, prepared["token"], prepared["game"], gunicorn)
            speed_before = python_speed()
            # Not reported: every thread's connection opened, its statements prepared.
            warm = 3 if quick else 5
            warm_env = {**env, "MOVEBENCH_DATA": str(data), "MOVEBENCH_RUN": "99"}
            _load(_wrk(wrk, script, port, 64, warm), _parse_wrk, warm, warm_env,
                  gunicorn.pid, postmaster, stored)  # fmt: skip
            rows = []
            for run_number, clients in enumerate(CLIENTS, start=1):
                wrk_env = {**env, "MOVEBENCH_DATA": str(data), "MOVEBENCH_RUN": str(run_number)}
                result = _load(_wrk(wrk, script, port, clients, duration), _parse_wrk,
                               duration, wrk_env, gunicorn.pid, postmaster, stored)  # fmt: skip
                rows.append((str(clients), result))

            # The target's own terms, three times: 64 clients offering 1,000 moves/s between
            # them; then, unless every run met it, lower rates until one does.
            def fixed_rate(rate: int) -> dict[str, float]:
                run_number = len(rows) + 1  # the wrk runs took 1 and 2
                result = _load(_paced(port, data, 64, rate, duration, run_number), json.loads,
                               duration, env, gunicorn.pid, postmaster, stored)  # fmt: skip
                result["rate"] = rate
                rows.append((f"64, {rate:,} moves/s offered", result))
                return result

            target_runs = [fixed_rate(TARGET_RATE) for _ in range(TARGET_RUNS)]
            if not all(map(_within_target, target_runs)):
                flat_out = max(r["rps"] for _, r in rows if "rate" not in r)
                for rate in fallback_rates(flat_out):
                    if _within_target(fixed_rate(rate)):
                        break
            speed_after = python_speed()
    finally:
        if moves_db is not None:
            moves_db.close()
        if gunicorn is not None:
            os.killpg(gunicorn.pid, signal.SIGTERM)
            try:
                gunicorn.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(gunicorn.pid, signal.SIGKILL)
                gunicorn.wait()
        _recreate_database(maintenance, name, drop_only=True)

    q = prepared["queries"]
    fixed_rate = [r for _, r in rows if "rate" in r]  # the target's row first
    cores = os.cpu_count() or 1
    lines = [
        TITLE,
        "",
        f"{GAMES} games of {PLAYERS} players; gunicorn {shape.get('worker_class', '?')} with "
        f"{shape.get('workers', '?')} processes of {shape.get('threads', '?')} threads "
        f"(gunicorn.conf.py); {duration} s per run, the back-to-back rows driven by wrk (2 "
        "threads), the fixed-rate rows by bench/paced.py (one uvloop loop); all on this "
        f"{cores}-core machine (load average {load[0]:.1f} before the runs, "
        f"{os.getloadavg()[0]:.1f} after). Python speed (the report's yardstick, {SPEED_NOTE}) "
        f"just before the runs: {speed_before:,.0f}; just after: {speed_after:,.0f}.",
        "",
        "| clients | moves/s | p50 ms | p99 ms | moves | non-2xx | socket errors "
        "| CPU ms/move: gunicorn | PostgreSQL | gunicorn processes, % of a core each |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for clients, r in rows:
        lines.append(
            f"| {clients} | {r['rps']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} | "
            f"{r['requests']:.0f} | {r['non2xx']:.0f} | {r['socket_errors']:.0f} | "
            f"{r['web_cpu_ms']:.2f} | {r['db_cpu_ms']:.2f} | "
            f"{' / '.join(f'{load:.0f}' for load in r['worker_load'])} |"
        )
    lines += [
        "",
        f"Queries per move: {q['service_max']} in move_apply (the SELECT of the game with its "
        "puzzle and any move stored under the client's move id; one statement that updates "
        "the game if its version and move count are unchanged and inserts the move if it "
        f"did), {q['request_max']} for the whole request with a token (the same read "
        "brings the token's rows and checks the token: no query of its own); max "
        f"over {q['samples']} moves of each kind (wrong, clear, note, right). A move opens "
        "no transaction (no BEGIN or COMMIT): the write is one statement. Target: at most 4.",
        "",
        f"CPU per move in one process through Django's WSGI handler (no server, no network, "
        f"1,000 moves): {prepared['cpu_ms']:.2f} ms in Python, {prepared['db_cpu_ms']:.2f} ms "
        "in its PostgreSQL backend.",
        "",
        _instructions_note(instructions, prepared["cpu_ms"]),
        "",
        "Where a move's Python time goes (cProfile on a CPU clock over the same 1,000 moves; "
        "the profiler slows call-heavy code more than the rest, so read the shares, not "
        "the times):",
        "",
        "| part | share |",
        "|---|---:|",
        *(f"| {label} | {share:.0f}% |" for label, share in prepared["profile"].items()),
        "",
        "What was changed to get here (the first measurement: 261 moves/s at 64 clients, "
        "5.7 ms of gunicorn CPU and 1.4 ms of PostgreSQL CPU per move): the move's read and "
        "write and the token's lookup are hand-written SQL (compiling the ORM's queries cost "
        "more than running them), and the instances they load skip Model.__init__; the "
        "move's read checks the API token on the token rows it brings along (knox's checks, "
        "no query of its own); the move is optimistic (no row lock, no BEGIN/COMMIT: one "
        "SELECT, then one statement writing game and move if version and move count are "
        "unchanged; the row lock only for a move that loses that race); PostgreSQL prepares "
        "the statements a connection repeats (server-side parameters); the body is checked "
        "by a shared serializer instance; the Content-Security-Policy header is built once, "
        "not twice per response; DRF's content negotiation is skipped when the client "
        "accepts JSON or anything; an API request gets no message storage (Django's "
        "messages are the pages'); the API's URL patterns come first; each gunicorn process "
        "listens on a socket of its own, so one cannot take most of the connections, and "
        "runs on a core of its own (gunicorn.conf.py: left to the scheduler, the loaded "
        "server now and then tipped into a queue it did not recover from; at 1,000 moves/s "
        "offered, 15 of 26 runs pinned met the p99 target, 1 of 11 unpinned); the move "
        "table keeps no index on the game alone (both its unique constraints begin with the "
        "game), one index fewer for every move's INSERT.",
        "",
        "The back-to-back rows are closed loops: each client sends its next move when the "
        "last is answered. They measure how fast the server goes flat out; their latency "
        "is then the number of clients divided by the throughput (64 clients at 1,000 "
        "moves/s wait 64 ms on average whatever the server does), so they cannot tell "
        "whether the server carries a given rate with a given p99. The fixed-rate rows ask "
        f"that the way wrk2 does: the 64 clients offer {TARGET_RATE:,} moves/s between them on a "
        "schedule that does not wait for the server (each client one move every 64 ms on "
        "average, each gap between half and one and a half times that), and every move is "
        "timed from when it was due, so a move that queued behind a late answer counts its "
        f"wait. The first {TARGET_RUNS} offer the target's rate; unless all of them meet "
        f"it, lower rates follow, {FALLBACK_STEP} moves/s apart from the highest not above "
        f"the back-to-back rate ({FALLBACK_RUNS} at most), until one meets the "
        "p99. These rows are "
        "measured by bench/paced.py, not wrk: wrk's own pauses (a Lua "
        "delay()) put a p99 near one second on moves that gunicorn timed at under 40 ms "
        f"each. The load generator (uvloop) itself took {fixed_rate[0]['client_cpu_ms']:.2f} ms of "
        "CPU per move at the target's rate, on the same cores.",
        "",
        _verdict(fixed_rate),
        "",
        "The last column is each gunicorn process's CPU over the run. A process keeps the "
        "connections it accepted (keep-alive); each listens on a socket of its own "
        "(reuse_port), so the kernel shares connections out by a hash and the split is even "
        "on average, where with one shared socket a process now and then took all 16 "
        "clients, or 75% of a core against 21% under a paced load.",
    ]
    lines += cpu_summary([r for _, r in rows], cores)
    return lines


def _statements(captured: Any) -> int:
    """Queries that did work: psycopg reports BEGIN and COMMIT as queries too."""
    return sum(
        1
        for q in captured.captured_queries
        if q["sql"].strip().upper() not in {"BEGIN", "COMMIT", "ROLLBACK"}
        and not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    )


# Where a move's CPU goes: (label, file, function) whose cumulative time is one part.
PROFILE_PARTS = (
    ("the body's check (MoveInputSerializer)", "sudokusite/serializers.py", "validated"),
    ("the token's check (one SELECT)", "accounts/auth.py", "authenticate_credentials"),
    ("the game's read (one SELECT)", "play/game_store.py", "game_read"),
    ("the write of game and move (one statement)", "play/game_store.py", "game_write"),
    ("the answer (GameSerializer)", "play/api/serializers.py", "to_representation"),
)


def _wsgi_mover(token: str, game_id: int, cells: list[int]) -> Any:
    """A function that plays move ``i`` through Django's WSGI handler, as gunicorn would."""
    import io

    from django.core.handlers.wsgi import WSGIHandler

    handler = WSGIHandler()
    statuses: list[str] = []

    def start_response(status: str, headers: Any, exc_info: Any = None) -> None:
        statuses.append(status)

    def call(i: int) -> None:
        body = json.dumps(
            {"client_move_id": str(uuid.uuid4()), "cell": cells[i % len(cells)],
             "value": i % 10, "kind": "value"}
        ).encode()  # fmt: skip
        environ = {
            "REQUEST_METHOD": "POST", "PATH_INFO": f"/api/v1/games/{game_id}/moves/",
            "SCRIPT_NAME": "", "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1", "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1", "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr,
            "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body)),
            "CONTENT_TYPE": "application/json", "HTTP_AUTHORIZATION": f"Token {token}",
        }  # fmt: skip
        response = handler(environ, start_response)
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
    """Instructions one move costs the web process's Python (Django's WSGI handler, as in the
    CPU figure; the PostgreSQL backend not counted), under callgrind: the same count on any
    host and in any spell, where CPU time is not. A str says why there is no count."""
    valgrind, control = shutil.which("valgrind"), shutil.which("callgrind_control")
    if valgrind is None or control is None:
        return "not counted: valgrind is not installed (apt-get install valgrind)"
    profile = tmp / "callgrind.out"
    done = subprocess.run(
        [valgrind, "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={profile}",
         python, "-m", "bench.moves", "instructions", str(data)],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    total = callgrind_total(profile.read_text()) if profile.exists() else None
    if done.returncode or not total:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"not counted: callgrind failed ({last})"
    return total / COUNTED_MOVES


def _instructions_note(instructions: float | str, cpu_ms: float) -> str:
    """The report's sentence on the instruction count, and the pace the host ran it at."""
    if isinstance(instructions, str):
        return f"Instructions per move in that process (callgrind): {instructions}."
    pace = instructions / (cpu_ms * 1e6)
    return (
        f"Instructions per move in that process (callgrind, {COUNTED_MOVES} moves): "
        f"{instructions / 1e6:.2f} million, the same on any host with the same interpreter "
        "build (the header names it) and however busy it is, where the CPU time above is "
        f"not; this machine ran them at {pace:.2f} per "
        "nanosecond. The count tells a change in the code from a change in the host: a "
        "slower move with the same count is a slower host, or a slower spell of it."
    )


def _play_counted_moves(data_path: str) -> None:
    """Play the first bench game's moves under callgrind (run in a subprocess), with the
    instruction count on for ``COUNTED_MOVES`` of them only."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")
    django.setup()
    game, token, cells = Path(data_path).read_text().split("\n", 1)[0].split()
    call_move = _wsgi_mover(token, int(game), [int(c) for c in cells.split(",")])
    for i in range(COUNTED_MOVES):
        call_move(i)

    def collect(switch: str) -> None:
        subprocess.run(["callgrind_control", "-i", switch, str(os.getpid())],
                       check=True, capture_output=True)  # fmt: skip

    collect("on")
    for i in range(COUNTED_MOVES, 2 * COUNTED_MOVES):
        call_move(i)
    collect("off")


def _backend_cpu_reader(connection: Any) -> Any:
    """A function giving the CPU seconds of this connection's PostgreSQL backend (NaN when
    the server is not on this machine)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    if not Path(f"/proc/{pid}/stat").exists():
        return lambda: float("nan")
    return lambda: _cpu_seconds({pid})


def _profile(call_move: Any, rounds: int) -> dict[str, float]:
    """Shares of a move's CPU time (cProfile on a CPU clock, so waiting on the database is
    not counted) by the parts in PROFILE_PARTS, the rules and board work, and the rest
    (Django's handler and middleware, DRF's request and response)."""
    import cProfile
    import pstats

    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for i in range(rounds):
        call_move(i)
    profiler.disable()
    stats = pstats.Stats(profiler)

    def cumulative(path: str, function: str) -> float:
        return sum(
            row[3]
            for (filename, _, name), row in stats.stats.items()  # type: ignore[attr-defined]
            if name == function and filename.endswith(path)
        )

    total = stats.total_tt  # type: ignore[attr-defined]
    parts = {label: cumulative(path, fn) for label, path, fn in PROFILE_PARTS}
    play = cumulative("play/moves.py", "_move_play")
    store = cumulative("play/game_store.py", "game_read") + cumulative(
        "play/game_store.py", "game_write"
    )
    parts["the move's rules, board and clock (play.moves)"] = play - store
    parts["the rest: gunicorn excluded, Django's handler and middleware, DRF"] = total - sum(
        parts.values()
    )
    return {label: 100 * seconds / total for label, seconds in parts.items()}


def _prepare(data_path: str, summary_path: str) -> None:
    """Fill the bench database (run in a subprocess pointed at it)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")
    django.setup()

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.services import token_create
    from play import lifecycle, moves
    from play.lifecycle import Player
    from play.models import Move
    from puzzles.models import Puzzle
    from solver import format_line, parse, solve

    grid = parse(PUZZLE)
    givens, solved = format_line(grid), format_line(solve(grid))

    def relabelled(text: str, shift: int) -> str:
        return "".join(ch if ch == "." else str((int(ch) - 1 + shift) % 9 + 1) for ch in text)

    # A player has one unfinished game of a puzzle at most, so each of a player's games
    # (and the two games measured below) plays a copy of the puzzle with its digits
    # relabelled: the same work, a puzzle of its own.
    puzzles = [
        Puzzle.objects.create(
            size=9,
            box_rows=3,
            box_cols=3,
            givens=relabelled(givens, shift),
            solution=relabelled(solved, shift),
            difficulty="easy",
            score=1,
            clue_count=grid.clues,
            canonical_key=secrets.token_hex(32),
            source="imported",
        )
        for shift in range(GAMES // PLAYERS + 2)
    ]
    open_cells = [i for i, ch in enumerate(givens) if ch == "."]
    # One open cell is never played, so no bench game can complete.
    playable = open_cells[1:]
    players = []
    for i in range(PLAYERS):
        # Token players need no password (hashing 64 would take longer than the runs).
        user = get_user_model()(username=f"bench{i}")
        user.set_unusable_password()
        user.save()
        players.append((user, token_create(user=user)[1]))
    lines = []
    for g in range(GAMES):
        user, token = players[g % PLAYERS]
        game, _ = lifecycle.game_start(player=Player(user=user), puzzle_id=puzzles[g // PLAYERS].pk)
        lines.append(f"{game.pk} {token} {','.join(map(str, playable))}")
    Path(data_path).write_text("\n".join(lines) + "\n")

    # Queries per move, in-process, on a game of its own.
    user, token = players[0]
    player = Player(user=user)
    puzzle = puzzles[-2]
    solution = puzzle.solution
    game, _ = lifecycle.game_start(player=player, puzzle_id=puzzle.pk)
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    client.get(f"/api/v1/games/{game.pk}/")  # let the token's refresh happen first
    service_counts, request_counts = [], []
    samples = 5
    for i in range(samples):
        cell = playable[i]
        right = int(solution[cell])
        for kind, value in (("value", right % 9 + 1), ("value", 0), ("note", 3), ("value", right)):
            body = {"client_move_id": str(uuid.uuid4()), "cell": cell, "value": value}
            body["kind"] = kind
            with CaptureQueriesContext(connection) as request_queries:
                response = client.post(
                    f"/api/v1/games/{game.pk}/moves/", body, content_type="application/json"
                )
            assert response.status_code == 200, response.content
            request_counts.append(_statements(request_queries))
        with CaptureQueriesContext(connection) as service_queries:
            moves.move_apply(
                game_id=game.pk,
                player=player,
                client_move_id=uuid.uuid4(),
                kind="note",
                cell=playable[-1],
                value=i + 1,
            )
        service_counts.append(_statements(service_queries))
    # CPU one move costs in this process through Django's WSGI handler, as gunicorn calls
    # it (no server, no network): steadier than the figures under load. Then the same moves
    # under cProfile with a CPU clock, for where that time goes.
    cpu_game, _ = lifecycle.game_start(player=player, puzzle_id=puzzles[-1].pk)
    call_move = _wsgi_mover(token, cpu_game.pk, playable)
    for i in range(100):
        call_move(i)
    rounds = 1000
    database_cpu = _backend_cpu_reader(connection)
    db_started, started = database_cpu(), time.process_time()
    for i in range(rounds):
        call_move(i)
    cpu_ms = (time.process_time() - started) * 1000 / rounds
    db_cpu_ms = (database_cpu() - db_started) * 1000 / rounds
    profile = _profile(call_move, rounds)
    Path(summary_path).write_text(
        json.dumps(
            {
                "token": players[0][1],
                "game": game.pk,
                "move_table": Move._meta.db_table,
                "cpu_ms": cpu_ms,
                "db_cpu_ms": db_cpu_ms,
                "profile": profile,
                "queries": {
                    "service_max": max(service_counts),
                    "request_max": max(request_counts),
                    "samples": samples,
                },
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
