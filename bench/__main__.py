"""``python -m bench [--quick] [--out FILE] [SECTION...]``: run the sections, print one report.

``python -m bench ratings --fit`` prints the rating prior's table refitted on the grader.

A section is a module ``bench.<name>`` listed in SECTIONS. A section that fails is reported
as failed and the others still run; the exit status is then 1. PostgreSQL and Redis come
from DATABASE_URL and REDIS_URL, else the local defaults below if they answer.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import platform
import re
import sys
import time
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO
from urllib.parse import urlsplit, urlunsplit

SECTIONS = ("solve", "grade", "generate", "constraints", "learning", "packs", "moves",
            "ratings", "replays", "races")  # fmt: skip
LOCAL = {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/bench",
         "REDIS_URL": "redis://127.0.0.1:6379/8"}  # fmt: skip


def run_sections(
    names: Iterable[str], *, quick: bool = False, out: TextIO | None = None, tracebacks: bool = True
) -> int:
    """Run the named sections; 1 if any of them failed."""
    out, failed = out if out is not None else sys.stdout, 0
    for name in names:
        started = time.perf_counter()
        try:
            lines = importlib.import_module(f"bench.{name}").run(quick=quick)
        except Exception as exc:  # a broken section must not stop the others
            if tracebacks:
                traceback.print_exc(file=sys.stderr)
            failed += 1
            lines = [f"## {name}", "", f"**section failed**: {type(exc).__name__}: {exc}"]
        print("\n".join(lines), file=out)
        print(f"\n({name}: {time.perf_counter() - started:.1f} s)\n", file=out, flush=True)
    return 1 if failed else 0


def service_versions() -> dict[str, str]:
    """Point DATABASE_URL / REDIS_URL at the local defaults when unset and answering; the
    version of each service in use (or "none")."""
    found = {}
    for variable, name in (("DATABASE_URL", "PostgreSQL"), ("REDIS_URL", "Redis")):
        if not os.environ.get(variable) and _version(LOCAL[variable]):
            os.environ[variable] = LOCAL[variable]
        url = os.environ.get(variable, "")
        version = _version(url)
        found[name] = f"{version} ({without_password(url)})" if version else "none"
    return found


def _version(url: str) -> str | None:
    try:
        if url.startswith("postgres"):
            import psycopg

            path = urlunsplit(urlsplit(url)._replace(scheme="postgresql", path="/postgres"))
            with psycopg.connect(path, connect_timeout=3) as conn:
                return str(conn.execute("SHOW server_version").fetchone()[0])
        if url.startswith("redis"):
            import redis

            client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
            return str(client.info("server")["redis_version"])
    except Exception:
        return None
    return None


def without_password(url: str) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc.replace(parts.password, "***") if parts.password else parts.netloc
    return urlunsplit(parts._replace(netloc=netloc))


def header(services: dict[str, str]) -> list[str]:
    cpu = re.search(r"model name\s*:\s*(.*)", Path("/proc/cpuinfo").read_text())
    maps = Path("/proc/self/maps").read_text()
    libpython = "shared" if re.search(r"/libpython[\d.]*\.so", maps) else "linked in statically"
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
        f"| Python | {sys.version.split()[0]} ({os.path.realpath(sys.executable)}, "
        f"libpython {libpython}) |",
        *(f"| {name} | {found} |" for name, found in services.items()),
        f"| Load average at the start | {' '.join(f'{x:.2f}' for x in os.getloadavg())} |",
        "",
    ]


class _Echo(io.StringIO):
    """Keeps what is written and prints it at once."""

    def write(self, text: str) -> int:
        sys.stdout.write(text)
        return super().write(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs on samples")
    parser.add_argument("--out", type=Path, help="also write the report here")
    parser.add_argument(
        "--fit", action="store_true", help="with ratings: refit the rating prior on the grader"
    )
    parser.add_argument("sections", nargs="*", metavar="SECTION", help=", ".join(SECTIONS))
    args = parser.parse_args(argv)
    if args.fit:
        if args.sections != ["ratings"]:
            parser.error("--fit goes with the ratings section alone: python -m bench ratings --fit")
        from bench.ratings import fit

        print("\n".join(fit()))
        return 0
    unknown = set(args.sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section {sorted(unknown)[0]!r}: choose from {', '.join(SECTIONS)}")
    report = _Echo()
    report.write("\n".join(header(service_versions())) + "\n")
    status = run_sections(args.sections or SECTIONS, quick=args.quick, out=report)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    report.write(f"Load average at the end: {load}.{' A section failed.' if status else ''}\n")
    if args.out:
        args.out.write_text(report.getvalue())
    return status


if __name__ == "__main__":
    sys.exit(main())
