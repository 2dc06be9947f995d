"""gunicorn.conf.py: the web server's settings and its worker start-up hook."""

from __future__ import annotations

import gc
import http.client
import os
import runpy
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.conf import settings

CONF = Path(settings.BASE_DIR) / "gunicorn.conf.py"


def load_conf(monkeypatch, **env: str) -> dict:
    for name in ("WEB_CONCURRENCY", "WEB_THREADS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(CONF))


def test_it_runs_threaded_workers_sized_by_the_environment(monkeypatch):
    conf = load_conf(monkeypatch, WEB_CONCURRENCY="3", WEB_THREADS="4")
    assert (conf["worker_class"], conf["workers"], conf["threads"]) == ("gthread", 3, 4)
    assert conf["reuse_port"] is True


@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5"])
def test_it_refuses_a_worker_count_that_is_not_a_whole_number(monkeypatch, value):
    with pytest.raises(SystemExit, match="WEB_THREADS"):
        load_conf(monkeypatch, WEB_THREADS=value)


def test_a_started_worker_keeps_what_it_loaded_out_of_the_collectors_reach(monkeypatch):
    conf = load_conf(monkeypatch)
    assert gc.get_freeze_count() == 0
    try:
        conf["post_worker_init"](object())
        # The views are loaded, and what was loaded is frozen: a full collection now walks
        # only what is made from here on.
        assert gc.get_freeze_count() > 10 * len(gc.get_objects())
    finally:
        gc.unfreeze()


def _worker_pid(port: int) -> int:
    """The pid of the worker that accepted a new connection and answered on it."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/")
        return int(conn.getresponse().read())
    finally:
        conn.close()


def test_connections_opened_at_once_are_shared_out_among_the_workers(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "DEBUG": "1", "WEB_CONCURRENCY": "2", "WEB_THREADS": "2",
           "WORKER_READY_DIR": str(tmp_path)}  # fmt: skip
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(CONF), "--bind", f"127.0.0.1:{port}",
         "--log-level", "warning", "tests.site.worker_pid_app:application"],
        cwd=settings.BASE_DIR, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while len(list(tmp_path.iterdir())) < 2:  # both workers have loaded the app
            assert server.poll() is None, "gunicorn exited"
            assert time.monotonic() < deadline, "the two workers did not both start"
            time.sleep(0.1)
        # 32 clients at once, as a load generator (or a crowd of phones) connects.
        with ThreadPoolExecutor(max_workers=32) as pool:
            pids = list(pool.map(lambda _: _worker_pid(port), range(32)))
    finally:
        server.terminate()
        server.wait(timeout=30)
    counts = sorted((pids.count(pid) for pid in set(pids)), reverse=True)
    assert len(counts) == 2, counts
    # Spread by the kernel's hash of each connection: never all (or nearly all) on one.
    assert counts[1] >= 4, counts
