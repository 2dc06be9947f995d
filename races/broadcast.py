"""Telling a race's sockets what changed: one publish per change, after the commit.

The message is serialised once here (``text``), so each socket in the group forwards the
same string without touching the database or re-encoding it. ``due_at`` (a Unix time, by
the server's clock) tells the sockets when the race next changes by itself (the end of the
countdown, the time limit), so they can ask for it to happen on time. How the publish is
sent (one PUBLISH on Redis, from any thread) is sudokusite.publish.
"""

from __future__ import annotations

import json
from typing import Any

from sudokusite.publish import group_send_on_commit

EVENT = "race.message"


def group_name(race_id: int) -> str:
    return f"race-{race_id}"


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def race_broadcast(*, race_id: int, message: dict[str, Any], due_at: float | None = None) -> None:
    """Send ``message`` to everyone watching the race once the current transaction commits
    (at once outside one). A broken channel layer loses the update, never the move: the
    sockets get the whole race again when they reconnect."""
    race_broadcast_text(race_id=race_id, text=encode(message), due_at=due_at)


def race_broadcast_text(*, race_id: int, text: str, due_at: float | None = None) -> None:
    """``race_broadcast`` of a message already encoded."""
    group_send_on_commit(group_name(race_id), {"type": EVENT, "text": text, "due_at": due_at})
