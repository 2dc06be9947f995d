"""The frame of ``make bench``'s report (bench/RESULTS.md): where PostgreSQL and Redis are,
and what machine the figures come from.

Every report also gives the machine's speed at plain Python when it starts and ends
(``python_speed``): the hosts these figures come from differ, and one host's speed drifts,
by more than most changes to the code move a figure.

The sections that need services read ``DATABASE_URL`` and ``REDIS_URL``. When one is not
set, the local default is used if something answers there (PostgreSQL at
``postgres://postgres@127.0.0.1:5432/bench``, Redis at ``redis://127.0.0.1:6379/8``); the
sections make their own scratch databases from the name (``bench_packbench``,
``bench_movebench``) and say they were skipped when a service is missing.
"""

from __future__ import annotations

import os
import platform
import re
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol, TextIO
from urllib.parse import urlsplit, urlunsplit

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/8"
# The yardstick: the reference solver, whose code never changes, on the first puzzles of
# one shared set.
SPEED_SET = "royle_17clue_first1000"
SPEED_PUZZLES = 100
SPEED_NOTE = (
    f"puzzles/s: bench/norvig.py solving the first {SPEED_PUZZLES} {SPEED_SET} puzzles, "
    "one core, CPU time, best of 3"
)


def python_speed() -> float:
    """Puzzles per CPU second that the reference solver solves now: a measure of how fast
    this machine runs plain Python at the moment, to read the other figures against. Fixed
    code on fixed input, so it moves only with the machine; the best of three short runs,
    so a moment of other work does not count, while a slower host does."""
    from bench import norvig
    from bench.solve import cpu, load

    lines = load(SPEED_SET)[:SPEED_PUZZLES]
    best = min(cpu(lambda: [norvig.solve(line, 3, 3) for line in lines]) for _ in range(3))
    return len(lines) / best


def _postgres_version(url: str) -> str | None:
    """The server version, or None when nothing answers at ``url``'s server."""
    try:
        import psycopg

        parts = urlsplit(url)
        maintenance = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
        with psycopg.connect(maintenance, connect_timeout=3) as conn:
            row = conn.execute("SHOW server_version").fetchone()
    except Exception:
        return None
    return str(row[0]) if row else None


def _redis_version(url: str) -> str | None:
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        return str(client.info("server")["redis_version"])
    except Exception:
        return None


def locate_services(environ: dict[str, str] | os._Environ[str] = os.environ) -> dict[str, str]:
    """Set DATABASE_URL / REDIS_URL to the local defaults when unset and answering.

    Returns what was found, for the report: ``postgres`` and ``redis`` (a version, or why
    not), ``database_url`` and ``redis_url``.
    """
    found: dict[str, str] = {}
    database_url = environ.get("DATABASE_URL", "").strip()
    if not database_url and _postgres_version(DEFAULT_DATABASE_URL):
        environ["DATABASE_URL"] = database_url = DEFAULT_DATABASE_URL
    if urlsplit(database_url).scheme in {"postgres", "postgresql", "pgsql"}:
        version = _postgres_version(database_url)
        found["postgres"] = f"PostgreSQL {version}" if version else "PostgreSQL not answering"
    else:
        found["postgres"] = "no PostgreSQL (DATABASE_URL unset and nothing at 127.0.0.1:5432)"
    redis_url = environ.get("REDIS_URL", "").strip()
    if not redis_url and _redis_version(DEFAULT_REDIS_URL):
        environ["REDIS_URL"] = redis_url = DEFAULT_REDIS_URL
    if redis_url:
        version = _redis_version(redis_url)
        found["redis"] = f"Redis {version}" if version else "Redis not answering"
    else:
        found["redis"] = "no Redis (REDIS_URL unset and nothing at 127.0.0.1:6379)"
    found["database_url"] = _without_password(database_url) or "(none)"
    found["redis_url"] = _without_password(redis_url) or "(none)"
    return found


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


def _memory() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def python_build(maps: str | None = None) -> str:
    """The interpreter's own file and how libpython is linked into it. Builds of one Python
    version differ by up to a quarter in a move's CPU (a distribution's, optimised with profiles
    and linked statically, against a pyenv build, shared and not optimised), so the report
    names the one it ran on. ``maps``: the text of /proc/self/maps, read when not given."""
    if maps is None:
        try:
            maps = Path("/proc/self/maps").read_text()
        except OSError:
            maps = ""
    interpreter = os.path.realpath(sys.executable)
    if not maps:
        return interpreter
    shared = re.search(r"/libpython[\d.]*\.so", maps)
    return f"{interpreter}, libpython {'shared' if shared else 'linked in statically'}"


def machine_lines(services: dict[str, str]) -> list[str]:
    """The header of the report: when, on what, against which services."""
    load = os.getloadavg()
    return [
        "# Benchmark results",
        "",
        f"Written by `make bench` (`python -m bench --out bench/RESULTS.md`) on "
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}.",
        "",
        "| Machine | |",
        "|---|---|",
        f"| Cores | {os.cpu_count()} ({_cpu_model()}) |",
        f"| Memory | {_memory()} |",
        f"| System | {platform.system()} {platform.release()} |",
        f"| Python | {sys.version.split()[0]} ({platform.python_implementation()}: "
        f"{python_build()}) |",
        f"| PostgreSQL | {services['postgres']} ({services['database_url']}) |",
        f"| Redis | {services['redis']} ({services['redis_url']}) |",
        f"| Load average at the start | {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} |",
        f"| Python speed at the start | {python_speed():,.0f} {SPEED_NOTE} |",
        "",
        "Every section runs on this one machine; the load generator, PostgreSQL and Redis "
        "share its cores. Where other work on the machine could stretch a figure, the "
        "sections also give CPU time and ratios measured side by side. Python speed is the "
        "yardstick for comparing reports from different hosts, or one host on different "
        "days: fixed code on fixed input, so when it is half another report's, so are most "
        "figures that are not ratios.",
        "",
    ]


class Writer(Protocol):
    """What the runner prints to: a text stream, or a :class:`Tee` of several."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class Tee:
    """A text stream that writes to several others (the terminal and the report)."""

    def __init__(self, *streams: TextIO) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self) -> None:
        for stream in self.streams:
            stream.flush()


def write_results(path: Path, header: Iterable[str], body: str, status: int) -> None:
    """Write the report: the header, every section, and how the run ended."""
    load = os.getloadavg()
    footer = [
        "",
        f"Load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; Python speed "
        f"at the end: {python_speed():,.0f} puzzles/s. "
        + ("Every section ran." if status == 0 else "A section failed: see above."),
        "",
    ]
    path.write_text("\n".join(header) + "\n" + body.rstrip() + "\n" + "\n".join(footer))
