"""Sending a message to a group of sockets (Django Channels), from anywhere, after the commit.

The channel layer is channels_redis' Pub/Sub layer with Redis (settings.CHANNEL_LAYERS):
a group send is one PUBLISH, and each server process subscribed to the group fans it out
to its own sockets. From a view or task (no event loop in the thread: a WSGI worker) the
PUBLISH is sent here with a plain Redis client, as the layer itself would send it:
``async_to_sync(layer.group_send)`` would make an event loop and a Redis connection for
every call (2 ms of CPU, more than a move's own work). Anywhere else (an event loop in
the thread, the in-memory layer) the layer sends it.

Two kinds of group use it: a race's sockets (races.broadcast) and a user's sockets
(``user_group``: told to check their credential again when one is revoked).
"""

from __future__ import annotations

import asyncio
import logging
from functools import cache
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

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


def group_send_now(group: str, event: dict[str, Any]) -> None:
    try:
        publisher = None if _in_event_loop() else _publisher()
        if publisher is not None:
            client, layer, prefix = publisher
            client.publish(group_channel(prefix, group), layer.serialize(event))
            return
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, event)
    except Exception:  # the layer's store (Redis) unreachable
        logger.warning("Could not send to the sockets of %s.", group, exc_info=True)
