"""gunicorn.conf.py: the web server's settings and its worker start-up hook."""

from __future__ import annotations

import gc
import http.client
import os
import runpy
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings

CONF = Path(settings.BASE_DIR) / "gunicorn.conf.py"


def load_conf(monkeypatch, **env: str) -> dict:
    for name in ("WEB_CONCURRENCY", "WEB_THREADS", "WEB_PIN_CPUS"):
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


def _worker(port: int) -> tuple[int, str]:
    """The pid of the worker that accepted a new connection and answered on it, and the
    cores it may run on."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/")
        pid, cores = conn.getresponse().read().decode().split()
        return int(pid), cores
    finally:
        conn.close()


@contextmanager
def _server(ready_dir: Path, **env: str) -> Iterator[tuple[int, subprocess.Popen]]:
    """gunicorn with this config and two workers serving tests/site/worker_pid_app.py: its
    port and process, once both workers have loaded the app."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "DEBUG": "1", "WEB_CONCURRENCY": "2", "WEB_THREADS": "2",
           "WORKER_READY_DIR": str(ready_dir), **env}  # fmt: skip
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(CONF), "--bind", f"127.0.0.1:{port}",
         "--log-level", "warning", "tests.site.worker_pid_app:application"],
        cwd=settings.BASE_DIR, env=env,
    )  # fmt: skip
    try:
        _wait_for_workers(ready_dir, 2, server)
        yield port, server
    finally:
        server.terminate()
        server.wait(timeout=30)


def _wait_for_workers(ready_dir: Path, count: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while len(list(ready_dir.iterdir())) < count:  # each worker leaves a file once loaded
        assert server.poll() is None, "gunicorn exited"
        assert time.monotonic() < deadline, f"{count} workers did not start"
        time.sleep(0.1)


def _answers(port: int) -> list[tuple[int, str]]:
    """The answers to 32 clients connecting at once, as a load generator or a crowd of
    phones does."""
    with ThreadPoolExecutor(max_workers=32) as pool:
        return list(pool.map(lambda _: _worker(port), range(32)))


def _workers_seen(port: int) -> dict[int, str]:
    """Each worker's pid and cores: both workers answer 32 clients (see the test below)."""
    return dict(_answers(port))


def test_connections_opened_at_once_are_shared_out_among_the_workers(tmp_path):
    with _server(tmp_path) as (port, _):
        pids = [pid for pid, _ in _answers(port)]
    counts = sorted((pids.count(pid) for pid in set(pids)), reverse=True)
    assert len(counts) == 2, counts
    # Spread by the kernel's hash of each connection: never all (or nearly all) on one.
    assert counts[1] >= 4, counts


def test_the_least_used_core_is_chosen_lowest_first():
    choose = runpy.run_path(str(CONF))["least_used_cpu"]
    assert choose({0, 1}, []) == 0
    assert choose({0, 1}, [0]) == 1
    assert choose({0, 1}, [0, 1]) == 0
    assert choose({2, 5, 7}, [2, 5, 2]) == 7
    assert choose({0, 1, 2}, [1, 1, 0, 2]) == 0


ALLOWED = ",".join(map(str, sorted(os.sched_getaffinity(0))))


def test_each_worker_runs_on_a_core_of_its_own_and_a_replacement_takes_the_freed_core(tmp_path):
    with _server(tmp_path) as (port, server):
        workers = _workers_seen(port)
        if len(os.sched_getaffinity(0)) < 2:
            # One core: nothing to spread, and no worker is narrowed to it.
            assert set(workers.values()) == {ALLOWED}
            return
        cores = sorted(workers.values())
        assert len(cores) == 2 and all("," not in c for c in cores), workers
        assert cores[0] != cores[1], workers
        killed = min(workers)
        (tmp_path / str(killed)).unlink()
        os.kill(killed, signal.SIGKILL)
        _wait_for_workers(tmp_path, 2, server)
        after = _workers_seen(port)
        assert killed not in after and len(after) == 2, after
        assert sorted(after.values()) == cores, (workers, after)


def test_workers_are_left_to_the_scheduler_when_pinning_is_off(tmp_path):
    with _server(tmp_path, WEB_PIN_CPUS="0") as (port, _):
        assert set(_workers_seen(port).values()) == {ALLOWED}


@pytest.mark.parametrize("value", ["2", "maybe"])
def test_it_refuses_a_pinning_switch_that_is_not_on_or_off(monkeypatch, value):
    with pytest.raises(SystemExit, match="WEB_PIN_CPUS"):
        load_conf(monkeypatch, WEB_PIN_CPUS=value)


def test_workers_start_unpinned_where_the_system_cannot_pin(monkeypatch):
    conf = load_conf(monkeypatch)
    monkeypatch.delattr(os, "sched_setaffinity")
    server, worker = SimpleNamespace(WORKERS={}), SimpleNamespace()
    conf["pre_fork"](server, worker)
    conf["post_fork"](server, worker)
    assert not hasattr(worker, "cpu")
