"""The site's stack on this machine, for the chaos drill and the service benchmarks: a
scratch PostgreSQL database, the site's settings for it, child processes in their own
session."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]


def scratch_database(url: str, suffix: str = "") -> tuple[str, str, str]:
    """(scratch URL, its database name, maintenance URL) for a postgres:// URL."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/") + suffix
    maintenance = urlunsplit(parts._replace(path="/postgres", scheme="postgresql"))
    return urlunsplit(parts._replace(path=f"/{name}")), name, maintenance


def recreate_database(maintenance: str, name: str, *, drop_only: bool = False) -> None:
    import psycopg

    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


DRILL_SETTINGS = {
    # No periodic bank top-up competing with the drill's own work.
    "PUZZLE_BANK_MINIMUM": "0",
    "PUZZLE_BANK_TARGET": "1",
    # A drill's devices start a game the moment one ends, faster than people do; the
    # per-account limits are tested on their own (tests/play/test_limits.py).
    "GAME_STARTS_PER_MINUTE": "100000",
    "GAME_STARTS_PER_DAY": "1000000",
}
"""What the chaos drill and the two-node drill set alike on the sites they run."""


def site_environment(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a production-like site (DEBUG off, no HTTPS) on this machine."""
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "PACK_"))},
        "DJANGO_SETTINGS_MODULE": "sudokusite.settings",
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "SECURE_HSTS_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
        "PYTHONWARNINGS": "ignore::UserWarning",  # whitenoise: collectstatic has not run
        **extra,
    }


def migrate(env: dict[str, str]) -> None:
    command = [sys.executable, "manage.py", "migrate", "--noinput", "--skip-checks", "-v0"]
    subprocess.run(command, cwd=ROOT, env=env, check=True, timeout=600)


@contextmanager
def scratch_site(database_url: str, suffix: str, **extra: str) -> Iterator[dict[str, str]]:
    """The site's environment on a fresh, migrated database beside ``database_url``'s,
    dropped afterwards."""
    url, name, maintenance = scratch_database(database_url, suffix)
    recreate_database(maintenance, name)
    try:
        env = site_environment(url, **extra)
        migrate(env)
        yield env
    finally:
        recreate_database(maintenance, name, drop_only=True)


def free_port(preferred: int | None = None) -> int:
    for port in ([preferred] if preferred else []) + [0]:
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError("no free port")


def listening(port: int) -> bool:
    """Whether something accepts connections on ``port`` of this machine."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def wait(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"gave up waiting for {what}")
        time.sleep(0.1)


class Process:
    """A child process in its own session (a signal reaches its children), logging to
    ``<logs>/<name>.log``."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], logs: Path) -> None:
        self.name, self.argv, self.env = name, argv, env
        self.log_path, self.log_offset = logs / f"{name}.log", 0
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.log_offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with self.log_path.open("a") as log:
            self.proc = subprocess.Popen(
                self.argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is not None and self.alive():
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                return
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.alive():
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self, since_start: bool = False) -> str:
        if not self.log_path.exists():
            return ""
        with self.log_path.open("rb") as log:
            log.seek(self.log_offset if since_start else 0)
            return log.read().decode(errors="replace")
