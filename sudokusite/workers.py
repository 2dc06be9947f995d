"""The gunicorn worker for the ASGI application (HTTP and the race sockets).

gunicorn manages the processes (gunicorn.conf.py: one per core, pinned, restarted when
they die); each runs uvicorn's event loop (uvloop, httptools) with the sans-I/O
``websockets`` protocol. Frames over ``ws_max_size`` close the socket at the protocol
level; the consumer answers smaller oversized messages with an error (races.consumers).
Run it with ``make asgi HOST=... PORT=...`` or the ``ws`` line of Procfile.
"""

from __future__ import annotations

from typing import Any, ClassVar

from uvicorn_worker import UvicornWorker


class AsgiWorker(UvicornWorker):
    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {
        "loop": "uvloop",
        "http": "httptools",
        "ws": "websockets-sansio",
        # Channels' ProtocolTypeRouter has no lifespan handler.
        "lifespan": "off",
        "ws_max_size": 16 * 1024,
        # A ping every 20 s finds sockets whose phone went away (and keeps proxies from
        # closing idle ones).
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
    }
