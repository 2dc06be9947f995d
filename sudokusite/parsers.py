"""The API's only parser: JSON, strictly.

Beyond DRF's JSONParser it refuses duplicate keys, NaN/Infinity, bodies that are
not UTF-8 and nesting deeper than MAX_JSON_DEPTH (Python's json module raises
RecursionError on very deep input; that would otherwise be a 500).
"""

from __future__ import annotations

import json
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

MAX_JSON_DEPTH = 64


class _DuplicateKey(ValueError):
    pass


def _pairs_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _depth(value: Any) -> int:
    """Nesting depth of parsed JSON, without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in item)
    return deepest


def loads_strict(raw: bytes | str) -> Any:
    """Parse JSON or raise ParseError with a message a client can act on."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ParseError("The request body is not valid UTF-8.") from exc
    try:
        data = json.loads(
            raw, object_pairs_hook=_pairs_without_duplicates, parse_constant=_reject_constant
        )
    except _DuplicateKey as exc:
        raise ParseError(f"Malformed JSON: the key {exc.args[0]!r} appears twice.") from exc
    except RecursionError as exc:
        raise ParseError(f"JSON is nested too deeply (the limit is {MAX_JSON_DEPTH}).") from exc
    except ValueError as exc:
        raise ParseError(f"Malformed JSON: {exc}.") from exc
    if _depth(data) > MAX_JSON_DEPTH:
        raise ParseError(f"JSON is nested too deeply (the limit is {MAX_JSON_DEPTH}).")
    return data


class StrictJSONParser(BaseParser):
    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return loads_strict(stream.read() if stream is not None else b"")
