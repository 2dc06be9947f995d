"""The frame of ``make bench``'s report: where PostgreSQL and Redis are, and the machine.

When ``DATABASE_URL`` or ``REDIS_URL`` is unset, the local default is used if something
answers there (``postgres://postgres@127.0.0.1:5432/bench``, ``redis://127.0.0.1:6379/8``).
"""

from __future__ import annotations

import os
import platform
import re
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/8"


def _postgres_version(url: str) -> str | None:
    try:
        import psycopg

        maintenance = urlunsplit(urlsplit(url)._replace(scheme="postgresql", path="/postgres"))
        with psycopg.connect(maintenance, connect_timeout=3) as conn:
            return str(conn.execute("SHOW server_version").fetchone()[0])
    except Exception:
        return None


def _redis_version(url: str) -> str | None:
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        return str(client.info("server")["redis_version"])
    except Exception:
        return None


def locate_services(environ: dict[str, str] | os._Environ[str] = os.environ) -> dict[str, str]:
    """Set DATABASE_URL / REDIS_URL to the local defaults when unset and answering; return
    the version of each (or why none) for the report."""
    if not environ.get("DATABASE_URL") and _postgres_version(DEFAULT_DATABASE_URL):
        environ["DATABASE_URL"] = DEFAULT_DATABASE_URL
    if not environ.get("REDIS_URL") and _redis_version(DEFAULT_REDIS_URL):
        environ["REDIS_URL"] = DEFAULT_REDIS_URL
    database_url, redis_url = environ.get("DATABASE_URL", ""), environ.get("REDIS_URL", "")
    postgres = _postgres_version(database_url) if database_url.startswith("postgres") else None
    redis = _redis_version(redis_url) if redis_url else None
    return {
        "PostgreSQL": f"{postgres} ({_without_password(database_url)})" if postgres else "none",
        "Redis": f"{redis} ({_without_password(redis_url)})" if redis else "none",
    }


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        return urlunsplit(parts._replace(netloc=parts.netloc.replace(parts.password, "***")))
    return url


def python_build(maps: str | None = None) -> str:
    """The interpreter's file and how libpython is linked into it (builds of one version
    differ in a move's instructions). ``maps``: /proc/self/maps, read when not given."""
    if maps is None:
        maps = Path("/proc/self/maps").read_text() if Path("/proc/self/maps").exists() else ""
    interpreter = os.path.realpath(sys.executable)
    if not maps:
        return interpreter
    shared = re.search(r"/libpython[\d.]*\.so", maps)
    return f"{interpreter}, libpython {'shared' if shared else 'linked in statically'}"


def machine_lines(services: dict[str, str]) -> list[str]:
    """The header of the report: when, on what, against which services."""
    cpu = re.search(
        r"model name\s*:\s*(.*)",
        Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else "",
    )
    return [
        "# Benchmark results",
        "",
        f"Written by `make bench` on {time.strftime('%Y-%m-%d %H:%M %Z')}; how to read it: "
        "[docs/performance.md](../docs/performance.md).",
        "",
        "| Machine | |",
        "|---|---|",
        f"| Cores | {os.cpu_count()} ({cpu.group(1) if cpu else platform.processor()}) |",
        f"| System | {platform.system()} {platform.release()} |",
        f"| Python | {sys.version.split()[0]} ({python_build()}) |",
        *(f"| {name} | {found} |" for name, found in services.items()),
        f"| Load average at the start | {' '.join(f'{x:.2f}' for x in os.getloadavg())} |",
        "",
    ]
