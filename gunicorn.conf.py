"""gunicorn's settings, read from the project root whichever way it starts (Procfile,
``make serve``, bench/moves.py, ops/chaos.py); command-line options still win.

Threaded workers (gthread), one process per core, two threads each. gthread keeps HTTP
connections alive between requests, which sync workers do not, so a phone or a load
generator does not pay a new connection per move; the second thread keeps a process
answering while one request is slow (a hint, a typed-in grid). More threads or
processes only add GIL and context-switch overhead: on 2 cores under wrk, gunicorn's CPU
per move was 6.0-7.0 ms with 5 sync workers (before the move endpoint's other changes,
so partly those), and with today's code 4.0-4.2 ms for 2x1 or 2x2, 4.4-4.8 ms for 2x4,
2x8 or 3x2 (processes x threads). Each thread holds its own PostgreSQL connection
(``DATABASE_CONN_MAX_AGE``): workers × threads connections in all.

Each process listens on a socket of its own (``reuse_port``: SO_REUSEPORT), so the kernel
shares new connections out among the processes evenly. With the one socket they would
otherwise share, whichever process is awake when connections arrive takes as many as it
can, and keeps them (keep-alive): in the move bench, all 16 of 16 clients on one process
now and then, and 75% against 21% of a core under paced load, one process queueing moves
while the other idled. Side by side on 2 cores, 64 clients back to back: 429-477 against
393-425 moves/s, p99 235-263 against 307-388 ms. The price: a second server started on
the same port by the same user shares the traffic instead of failing to start.

Each worker process runs on a core of its own (``WEB_PIN_CPUS``, on by default; nginx's
``worker_cpu_affinity`` and uWSGI's ``cpu-affinity`` do the same). Left to the scheduler,
which moves threads between cores as they wake one another (client, worker, PostgreSQL
backend), a loaded 2-core server now and then tips into a queue it does not recover from.
With 64 clients offering 1,000 moves/s (bench/moves.py), 15 of 26 runs pinned met a p99
under 50 ms against 1 of 11 unpinned (the others 68-3,148 ms); in alternating runs, p99
12-39 ms pinned against 38-788 ms unpinned, and gunicorn's CPU per move 1.08-1.23 ms
against 1.17-1.36. The PostgreSQL backends, Celery and everything else still go wherever
the scheduler puts them. Set it to 0 where the cores are shared with other busy services
or already assigned by the host.
"""

from __future__ import annotations

import os
import sys
from typing import Any

# gunicorn reads this file before it changes to --chdir: the project's modules are found
# beside it, wherever gunicorn was started.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from django.core.exceptions import ImproperlyConfigured

from sudokusite.env import env_bool


def _count(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise SystemExit(f"{name}={raw!r} must be a whole number of at least 1.")
    return int(raw)


worker_class = "gthread"
reuse_port = True
workers = _count("WEB_CONCURRENCY", os.cpu_count() or 1)
threads = _count("WEB_THREADS", 2)
try:
    pin_cpus = env_bool("WEB_PIN_CPUS", True)
except ImproperlyConfigured as exc:
    raise SystemExit(str(exc)) from None


def least_used_cpu(allowed: set[int], taken: list[int]) -> int:
    """Of the cores this server may run on, the one the fewest live workers are pinned to
    (the lowest-numbered of those)."""
    return min(sorted(allowed), key=taken.count)


def pre_fork(server: Any, worker: Any) -> None:
    """Choose the new worker's core here in the master, which knows its live siblings'
    cores; a replacement for a dead worker takes the core it left."""
    if not pin_cpus or not hasattr(os, "sched_setaffinity"):  # Linux only
        return
    allowed = os.sched_getaffinity(0)
    if len(allowed) < 2:
        return
    taken = [w.cpu for w in server.WORKERS.values() if getattr(w, "cpu", None) is not None]
    worker.cpu = least_used_cpu(allowed, taken)


def post_fork(server: Any, worker: Any) -> None:
    """Pin the new worker (and the threads it starts) to the core chosen for it."""
    cpu = getattr(worker, "cpu", None)
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})


def post_worker_init(worker: object) -> None:
    """Load the URLconf (and with it every view, serializer and model) now, then move
    everything loaded so far out of the garbage collector's reach. A full collection in a
    loaded worker otherwise walks ~100,000 long-lived objects, a pause of 30-80 ms (on a
    2-core machine) for every request in flight; after the freeze it walks only what
    requests have made since."""
    import gc

    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports the views)
    gc.collect()
    gc.freeze()
