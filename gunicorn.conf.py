"""gunicorn's settings, read from the project root whichever way it starts (Procfile,
``make serve``, bench/moves.py, bench/chaos.py); command-line options still win.

Threaded workers, one per core: a request spends part of its time waiting on
PostgreSQL, and another thread of the same process runs meanwhile, while a second
process per core only adds context switches (measured on 2 cores: CPU per move rose
by half with four processes instead of two). Threads also keep HTTP connections alive
between requests, which sync workers do not, so a phone or a load generator does not
pay a new connection per move. Each thread holds its own PostgreSQL connection
(``DATABASE_CONN_MAX_AGE``): workers × threads connections in all.
"""

from __future__ import annotations

import os


def _count(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise SystemExit(f"{name}={raw!r} must be a whole number of at least 1.")
    return int(raw)


worker_class = "gthread"
workers = _count("WEB_CONCURRENCY", os.cpu_count() or 1)
threads = _count("WEB_THREADS", 4)
