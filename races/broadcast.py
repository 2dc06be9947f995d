"""Telling a race's sockets what changed: one publish per change, after the commit.

The message is serialised once here (``text``), so each socket in the group forwards the
same string without touching the database or re-encoding it. ``due_at`` (a Unix time, by
the server's clock) tells the sockets when the race next changes by itself (the end of the
countdown, the time limit), so they can ask for it to happen on time.

The channel layer is channels_redis' Pub/Sub layer with Redis (settings.CHANNEL_LAYERS):
a group send is one PUBLISH, and each server process subscribed to the race fans it out
to its own sockets. From a view or task (no event loop in the thread: a WSGI worker)
the PUBLISH is sent here with a plain Redis client, as the layer itself would send it:
``async_to_sync(layer.group_send)`` would make an event loop and a Redis connection for
every move (2 ms of CPU, more than the move's own work). Anywhere else (an event loop in
the thread, the in-memory layer) the layer sends it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from functools import cache
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

EVENT = "race.message"
PUBSUB_LAYER = "channels_redis.pubsub.RedisPubSubChannelLayer"


def group_name(race_id: int) -> str:
    return f"race-{race_id}"


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def race_broadcast(*, race_id: int, message: dict[str, Any], due_at: float | None = None) -> None:
    """Send ``message`` to everyone watching the race once the current transaction commits
    (at once outside one). A broken channel layer loses the update, never the move: the
    sockets get the whole race again when they reconnect."""
    event = {"type": EVENT, "text": encode(message), "due_at": due_at}
    transaction.on_commit(lambda: _send(race_id, event))


def group_channel(prefix: str, group: str) -> str:
    """The Redis channel the Pub/Sub layer publishes a group's messages on (its
    ``_get_group_channel_name``; tests/races checks the two agree)."""
    return f"{prefix}__group__{group}"


@cache
def _publisher() -> tuple[Any, Any, str] | None:
    """(Redis client, the layer, the channel prefix) for sending without an event loop, or
    None when the layer is not Redis' Pub/Sub layer."""
    config = settings.CHANNEL_LAYERS["default"]
    if config["BACKEND"] != PUBSUB_LAYER:
        return None
    import redis

    hosts = config["CONFIG"]["hosts"]
    if len(hosts) != 1 or not isinstance(hosts[0], str):
        return None  # sharded: the layer chooses the shard
    return redis.Redis.from_url(hosts[0]), get_channel_layer(), config["CONFIG"]["prefix"]


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _send(race_id: int, event: dict[str, Any]) -> None:
    try:
        publisher = None if _in_event_loop() else _publisher()
        if publisher is not None:
            client, layer, prefix = publisher
            client.publish(group_channel(prefix, group_name(race_id)), layer.serialize(event))
            return
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group_name(race_id), event)
    except Exception:  # the layer's store (Redis) unreachable
        logger.warning("Could not send an update of race %s.", race_id, exc_info=True)
