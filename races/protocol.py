"""Parsing what a client sends on a race socket into a typed command, or saying why not."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.utils.translation import gettext_lazy as _

from sudokusite.parsers import MAX_JSON_DEPTH

from .schemas import CLIENT_MESSAGE

# A string in JSON, with its escapes: brackets inside one do not nest.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?')


class BadMessage(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Command:
    kind: str  # one of schemas.CLIENT_TYPES


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(CLIENT_MESSAGE)


def command_parse(text: str | None, *, max_bytes: int) -> Command:
    """The command in one text frame; BadMessage for a binary frame, one too large, or one
    that is not JSON or not a known message."""
    if text is None:
        raise BadMessage("bad_message", str(_("Send JSON text frames.")))
    if len(text.encode()) > max_bytes:
        raise BadMessage(
            "message_too_large",
            str(_("A message may have at most %(n)s bytes.")) % {"n": max_bytes},
        )
    if too_deep(text):
        # json.loads recurses once per level: a frame of a thousand "[" would exhaust the
        # interpreter's stack (RecursionError) before any schema could refuse it.
        raise BadMessage(
            "message_too_deep",
            str(_("JSON is nested too deeply (the limit is %(limit)s)."))
            % {"limit": MAX_JSON_DEPTH},
        )
    try:
        data = json.loads(text)
    except ValueError:
        raise BadMessage("malformed_message", str(_("The message is not valid JSON."))) from None
    error = next(iter(_validator().iter_errors(data)), None)
    if error is not None:
        raise BadMessage(
            "invalid_message",
            str(_('Expected {"type": one of %(types)s}.'))
            % {"types": ", ".join(CLIENT_MESSAGE["properties"]["type"]["enum"])},
        )
    return Command(kind=data["type"])


def too_deep(text: str) -> bool:
    """Whether arrays and objects in ``text`` nest deeper than MAX_JSON_DEPTH, found
    without parsing it (brackets inside strings do not count; the text need not be valid
    JSON)."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return False
    depth = 0
    for piece in _STRING.split(text):
        for char in piece:
            if char in "[{":
                depth += 1
                if depth > MAX_JSON_DEPTH:
                    return True
            elif char in "]}":
                depth = max(0, depth - 1)
    return False
