"""The race socket's messages as JSON Schemas: the protocol's one definition.

docs/api.md prints these; races.protocol validates what a client sends against
``CLIENT_MESSAGE``; tests/races validate every message the server sends against
``SERVER_MESSAGES`` (by its ``type``).
"""

from __future__ import annotations

import json
from typing import Any

from .models import MAX_RACERS, Outcome, RaceStatus

_NULLABLE_INT = {"type": ["integer", "null"], "minimum": 0}


def _object(properties: dict[str, Any], title: str, *, root: bool = True) -> dict[str, Any]:
    return {
        **({"$schema": "https://json-schema.org/draft/2020-12/schema"} if root else {}),
        "title": title,
        "type": "object",
        "properties": properties,
        "required": sorted(properties),
        "additionalProperties": False,
    }


CLIENT_TYPES = ("ping", "snapshot", "join", "leave", "start")

CLIENT_MESSAGE = _object(
    {"type": {"enum": list(CLIENT_TYPES)}},
    "A message from a client: ping, ask for a snapshot, join, leave or start the race",
)

RACER = {
    "type": "object",
    "properties": {
        "player": {"type": "integer", "description": "The racer's user id."},
        "name": {"type": "string"},
        "progress": {
            "type": "integer",
            "minimum": 0,
            "description": "Cells filled right so far (never which).",
        },
        "mistakes": {"type": "integer", "minimum": 0},
        "outcome": {"enum": list(Outcome.values)},
        "place": {
            **_NULLABLE_INT,
            "description": "1 for the first to finish among the racers who may be ranked; "
            "null if not finished, or marked.",
        },
        "mark": {
            "enum": ["held", "flagged", "provisional", None],
            "description": "Why a finished racer is not ranked: held by the review of "
            "their games, or flagged (this game, or repeatedly); provisional: a new "
            "player, ranked here, whose games count nowhere else yet; null otherwise "
            "(docs/integrity.md).",
        },
        "time_ms": {**_NULLABLE_INT, "description": "From the start to the racer's end."},
        "replay": {
            "type": ["string", "null"],
            "description": "The shared replay's page, once the race is over.",
        },
    },
    "required": [
        *("player", "name", "progress", "mistakes", "outcome"),
        *("place", "mark", "time_ms", "replay"),
    ],
    "additionalProperties": False,
}

RACE = {
    "type": "object",
    "properties": {
        "code": {"type": "string"},
        "status": {"enum": list(RaceStatus.values)},
        "size": {"type": "integer"},
        "difficulty": {"type": "string", "description": "Empty for a daily race."},
        "daily": {"type": "boolean"},
        "variant": {"type": "string"},
        "host": {"type": "string"},
        "capacity": {"const": MAX_RACERS},
        "time_limit_s": {"type": "integer", "minimum": 1},
        "starts_in_ms": {
            **_NULLABLE_INT,
            "description": "During the countdown: milliseconds to the start, by the server.",
        },
        "ends_in_ms": {
            **_NULLABLE_INT,
            "description": "While running: milliseconds to the time limit, by the server.",
        },
        "cells": {**_NULLABLE_INT, "description": "Cells to fill, once the race has started."},
        "racers": {"type": "array", "items": RACER, "maxItems": MAX_RACERS},
    },
    "required": [
        "code",
        "status",
        "size",
        "difficulty",
        "daily",
        "variant",
        "host",
        "capacity",
        "time_limit_s",
        "starts_in_ms",
        "ends_in_ms",
        "cells",
        "racers",
    ],
    "additionalProperties": False,
}

YOU = _object(
    {
        "player": {"type": ["integer", "null"], "description": "Your user id; null signed out."},
        "racer": {"type": "boolean"},
        "host": {"type": "boolean"},
        "game": {
            "type": ["integer", "null"],
            "description": "Your game of the race (play it with the game API), once started.",
        },
    },
    "You, in the race",
    root=False,
)

SERVER_MESSAGES: dict[str, dict[str, Any]] = {
    "snapshot": _object(
        {"type": {"const": "snapshot"}, "race": RACE, "you": YOU},
        "The whole race as it stands: sent on connecting and when asked",
    ),
    "race": _object(
        {"type": {"const": "race"}, "race": RACE},
        "The race changed: someone joined or left, the countdown, the start, an end",
    ),
    "progress": _object(
        {
            "type": {"const": "progress"},
            "player": {"type": "integer"},
            "progress": {"type": "integer", "minimum": 0},
            "mistakes": {"type": "integer", "minimum": 0},
        },
        "A racer's move: their count of cells filled right, and of mistakes",
    ),
    "pong": _object({"type": {"const": "pong"}}, "The answer to a ping"),
    "error": _object(
        {
            "type": {"const": "error"},
            "error": _object(
                {"code": {"type": "string"}, "message": {"type": "string"}}, "The error", root=False
            ),
        },
        "A message that was refused, and why (the socket stays open)",
    ),
}


def _brief(schema: dict[str, Any], shared: dict[int, str]) -> str:
    """A schema as docs/api.md prints it: one property a line, the race and racer objects
    by name (printed once on their own)."""

    def value(v: Any) -> str:
        if id(v) in shared:
            return f'{{"$ref": "#/{shared[id(v)]}"}}'
        if isinstance(v, dict) and v.get("type") == "array" and id(v.get("items")) in shared:
            return json.dumps({**v, "items": {"$ref": f"#/{shared[id(v['items'])]}"}})
        return json.dumps(v, ensure_ascii=False)

    head = {k: v for k, v in schema.items() if k not in ("properties", "$schema", "title")}
    lines = [f'  "{name}": {value(prop)}' for name, prop in schema["properties"].items()]
    return "{" + json.dumps(head)[1:-1] + ', "properties": {\n' + ",\n".join(lines) + "\n}}"


def docs_markdown() -> str:
    """The socket's messages as docs/api.md shows them (tests/races checks it does)."""
    shared = {id(RACE): "race", id(RACER): "racer", id(YOU): "you"}
    parts = [f"Client → server ({CLIENT_MESSAGE['title']}):\n", _fence(_brief(CLIENT_MESSAGE, {}))]
    for name, schema in SERVER_MESSAGES.items():
        parts += [f"`{name}`: {schema['title']}.\n", _fence(_brief(schema, shared))]
    parts += ["`race`, the race object:\n", _fence(_brief(RACE, {id(RACER): "racer"}))]
    parts += ["`racer`, one racer:\n", _fence(_brief(RACER, {}))]
    parts += ["`you`, in a snapshot only:\n", _fence(_brief(YOU, {}))]
    return "\n".join(parts)


def _fence(text: str) -> str:
    return f"```json\n{text}\n```\n"
