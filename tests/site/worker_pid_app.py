"""A WSGI app for tests/site/test_gunicorn_conf.py: it answers with the pid of the worker
that serves it and the cores that worker may run on (``<pid> <core>,<core>...``), and each
worker that loads it leaves a file named after its pid in ``WORKER_READY_DIR``. Django is
set up first, as gunicorn.conf.py's worker hook loads the URLconf."""

from __future__ import annotations

import os
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")
django.setup()
(Path(os.environ["WORKER_READY_DIR"]) / str(os.getpid())).touch()


def application(environ, start_response):
    cores = ",".join(map(str, sorted(os.sched_getaffinity(0))))
    body = f"{os.getpid()} {cores}".encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
