"""Telling a race's sockets what changed: one ``group_send`` per change, after the commit.

The message is serialised once here (``text``), so each socket in the group forwards the
same string without touching the database or re-encoding it. ``due_at`` (a Unix time, by
the server's clock) tells the sockets when the race next changes by itself (the end of the
countdown, the time limit), so they can ask for it to happen on time.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

EVENT = "race.message"


def group_name(race_id: int) -> str:
    return f"race-{race_id}"


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def race_broadcast(*, race_id: int, message: dict[str, Any], due_at: float | None = None) -> None:
    """Send ``message`` to everyone watching the race once the current transaction commits
    (at once outside one). A broken channel layer loses the update, never the move."""
    event = {"type": EVENT, "text": encode(message), "due_at": due_at}
    transaction.on_commit(lambda: _send(race_id, event))


def _send(race_id: int, event: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(race_id), event)
    except Exception:  # the layer's store (Redis) unreachable: the race page can reconnect
        logger.warning("Could not send an update of race %s.", race_id, exc_info=True)
