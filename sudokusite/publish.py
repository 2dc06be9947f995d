"""Sending a message to a group of sockets (Django Channels), from anywhere, after the commit.

The channel layer is channels_redis' Pub/Sub layer with Redis (settings.CHANNEL_LAYERS):
a group send is one PUBLISH, and each server process subscribed to the group fans it out
to its own sockets. From a view or task (no event loop in the thread: a WSGI worker) the
PUBLISH is sent here on a connection of our own (``_Publisher``), as the layer would:
``async_to_sync(layer.group_send)`` would make an event loop and a Redis connection for
every call (2 ms of CPU, more than a move's own work). Anywhere else (an event loop in
the thread, the in-memory layer) the layer sends it.

Two kinds of group use it: a race's sockets (races.broadcast) and a user's sockets
(``user_group``: told to check their credential again when one is revoked).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from functools import cache
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from redis.exceptions import ConnectionError as RedisConnectionError

logger = logging.getLogger(__name__)

PUBSUB_LAYER = "channels_redis.pubsub.RedisPubSubChannelLayer"
# The event a user's sockets get when one of that user's credentials was revoked.
CREDENTIALS_CHANGED = "credentials.changed"


def user_group(user_id: int) -> str:
    """The group every socket a signed-in user opened is in."""
    return f"user-{user_id}"


def group_channel(prefix: str, group: str) -> str:
    """The Redis channel the Pub/Sub layer publishes a group's messages on (its
    ``_get_group_channel_name``; tests/races checks the two agree)."""
    return f"{prefix}__group__{group}"


def group_send_on_commit(group: str, event: dict[str, Any]) -> None:
    """Send ``event`` to ``group`` once the current transaction commits (at once outside
    one). A broken channel layer loses the message, never the write that caused it."""
    transaction.on_commit(lambda: group_send_now(group, event))


def user_sockets_recheck(*, user_id: int) -> None:
    """Have every open socket of the user check its credential again once this transaction
    commits, and close if it no longer holds (a token revoked, a session ended, a password
    changed, the account deleted)."""
    group_send_on_commit(user_group(user_id), {"type": CREDENTIALS_CHANGED})


class _Publisher:
    """A process's one Redis connection for publishing, with replies turned off (``CLIENT
    REPLY OFF``): a PUBLISH is one write to the socket, never a wait for an answer.
    redis-py's ``client.publish`` takes a connection from a pool, sends, reads and parses
    the reply and gives the connection back: 20 times the CPU (about 150 against 7 µs),
    which made a race move cost a fifth more than a plain one. A write that fails (Redis
    restarted) is sent again once on a new connection; Pub/Sub delivers at most once, and
    a progress message carries the racer's whole count, so the next one heals a lost one.
    """

    def __init__(self, url: str, layer: Any, prefix: str) -> None:
        from redis.connection import Connection, parse_url

        options = parse_url(url)
        self.connection_class = options.pop("connection_class", Connection)
        # A Redis that stops reading must not hold a request: a second, then an error.
        self.options = {
            **options,
            "socket_timeout": 1.0,
            "socket_connect_timeout": 1.0,
            "client_name": f"{prefix}:publisher",  # for CLIENT LIST
        }
        self.layer, self.prefix = layer, prefix
        self.lock = threading.Lock()
        self.connection: Any = None
        self.pid = 0

    def _connected(self) -> Any:
        if self.connection is None or self.pid != os.getpid():  # none yet, or forked
            connection = self.connection_class(**self.options)
            connection.connect()
            connection.send_command("CLIENT", "REPLY", "OFF")
            self.connection, self.pid = connection, os.getpid()
        return self.connection

    def publish(self, group: str, event: dict[str, Any]) -> None:
        command = None
        with self.lock:
            for attempt in (1, 2):
                try:
                    connection = self._connected()
                    command = command or _publish_command(
                        group_channel(self.prefix, group).encode(), self.layer.serialize(event)
                    )
                    connection.send_packed_command([command], check_health=False)
                    return
                except (OSError, ConnectionError, RedisConnectionError):
                    if self.connection is not None:
                        self.connection.disconnect()
                    self.connection = None
                    if attempt == 2:
                        raise


def _publish_command(channel: bytes, payload: bytes) -> bytes:
    """PUBLISH in Redis' protocol (RESP), as redis-py's ``pack_command`` would write it
    for these two byte strings, at a tenth of its cost."""
    return b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%b\r\n$%d\r\n%b\r\n" % (
        len(channel),
        channel,
        len(payload),
        payload,
    )


@cache
def _publisher() -> _Publisher | None:
    """The publisher for sending without an event loop, or None when the layer is not
    Redis' Pub/Sub layer."""
    config = settings.CHANNEL_LAYERS["default"]
    if config["BACKEND"] != PUBSUB_LAYER:
        return None
    hosts = config["CONFIG"]["hosts"]
    if len(hosts) != 1 or not isinstance(hosts[0], str):
        return None  # sharded: the layer chooses the shard
    return _Publisher(hosts[0], get_channel_layer(), config["CONFIG"]["prefix"])


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def group_send_now(group: str, event: dict[str, Any]) -> None:
    try:
        publisher = None if _in_event_loop() else _publisher()
        if publisher is not None:
            publisher.publish(group, event)
            return
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, event)
    except Exception:  # the layer's store (Redis) unreachable
        logger.warning("Could not send to the sockets of %s.", group, exc_info=True)
