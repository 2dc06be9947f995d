"""An ASGI live server for browser tests that need the race socket.

pytest-django's ``live_server`` is WSGI (no WebSocket). This runs the project's ASGI
application (sudokusite.asgi: HTTP and the race sockets) under uvicorn, the server used in
production, in a thread of the test process, so it shares the test database (SQLite's
in-memory test database is shared between the connections of one process; PostgreSQL's is
the test database) and the channel layer settings (in memory, or Redis with REDIS_URL).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest


@dataclass
class AsgiServer:
    url: str


@pytest.fixture
def asgi_server(
    transactional_db: None, one_connection_a_request: None, shared_memory_reads: None
) -> Iterator[AsgiServer]:
    import uvicorn

    from sudokusite.asgi import application

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        application,
        lifespan="off",
        loop="asyncio",
        ws="websockets-sansio",
        log_level="warning",
        ws_max_size=16 * 1024,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the ASGI server did not start")
        time.sleep(0.05)
    try:
        yield AsgiServer(url=f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _read_uncommitted(connection: Any, **kwargs: Any) -> None:
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted = 1")


@pytest.fixture
def shared_memory_reads(transactional_db: None) -> Iterator[None]:
    """SQLite's in-memory test database is shared between the connections of the process in
    shared-cache mode, where a table being written is locked for readers at once (no busy
    timeout): a page read while another request writes would fail. Readers here read
    without those locks (PostgreSQL needs nothing of the kind)."""
    from django.db import connections
    from django.db.backends.signals import connection_created

    connection_created.connect(_read_uncommitted)
    _read_uncommitted(connections["default"])
    try:
        yield
    finally:
        connection_created.disconnect(_read_uncommitted)


@pytest.fixture
def one_connection_a_request() -> Iterator[None]:
    """Database connections that close at the end of each request and socket call.

    The server runs Django's sync code in threads of its own (one per request context), and
    a connection kept for reuse (DATABASE_CONN_MAX_AGE) would outlive its thread and keep
    the test database from being dropped at the end of the run."""
    from django.db import connections

    config = connections["default"].settings_dict
    kept = config["CONN_MAX_AGE"]
    config["CONN_MAX_AGE"] = 0
    try:
        yield
    finally:
        config["CONN_MAX_AGE"] = kept
