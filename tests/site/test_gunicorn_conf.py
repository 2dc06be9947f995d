"""gunicorn.conf.py: the web server's settings and its worker start-up hook."""

from __future__ import annotations

import gc
import runpy
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
