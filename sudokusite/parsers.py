"""The API's only parser: JSON, strictly.

Beyond DRF's JSONParser it refuses duplicate keys, NaN/Infinity, numbers too big
to read (``1e309`` would become infinity; an integer of thousands of digits costs
time to convert), bodies that are not UTF-8, nesting deeper than MAX_JSON_DEPTH
(Python's json module raises RecursionError on very deep input; that would
otherwise be a 500), and keys or strings holding a lone UTF-16 surrogate: JSON's
``"\ud800"`` escape decodes to a Python string that is not text (it cannot be
encoded as UTF-8, so saving it, hashing it or rendering an error naming it raised).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

MAX_JSON_DEPTH = 64
# Digits in one JSON number; far more than any count, id or version the API takes.
MAX_NUMBER_DIGITS = 100


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


class _NumberTooLarge(ValueError):
    pass


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _NumberTooLarge(_("a number of %(count)s digits") % {"count": len(text.lstrip("-"))})
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS:
        raise _NumberTooLarge(_("a number of %(count)s characters") % {"count": len(text)})
    value = float(text)
    if math.isinf(value):
        raise _NumberTooLarge(text)
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_parsed(value: Any) -> None:
    """Refuse JSON nested deeper than MAX_JSON_DEPTH, or with a key or string that is not
    text (a lone surrogate), walking it without recursion."""
    stack: list[tuple[Any, int, tuple[str | int, ...]]] = [(value, 1, ())]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, dict | list) and depth > MAX_JSON_DEPTH:
            raise ParseError(_too_deep())
        if isinstance(item, dict):
            for key, child in item.items():
                if _SURROGATE.search(key):
                    path = _path((*where, key))
                    raise ParseError(
                        _("The JSON key %(path)s holds a lone surrogate: not text.")
                        % {"path": path}
                    )
                stack.append((child, depth + 1, (*where, key)))
        elif isinstance(item, list):
            stack.extend((child, depth + 1, (*where, i)) for i, child in enumerate(item))
        elif isinstance(item, str) and _SURROGATE.search(item):
            if where:
                message = _("In the value of %(path)s, the JSON holds a lone surrogate: not text.")
                raise ParseError(message % {"path": _path(where)})
            raise ParseError(_("In the body, the JSON holds a lone surrogate: not text."))


def _too_deep() -> str:
    return _("JSON is nested too deeply (the limit is %(limit)s).") % {"limit": MAX_JSON_DEPTH}


def _path(where: tuple[str | int, ...]) -> str:
    """'"notes"."r1c3"[0]': json.dumps escapes a surrogate, so the message is text."""
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{json.dumps(p)}" for p in where)
    return text.removeprefix(".")


def loads_strict(raw: bytes | str) -> Any:
    """Parse JSON or raise ParseError with a message a client can act on."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ParseError(_("The request body is not valid UTF-8.")) from exc
    try:
        data = json.loads(
            raw,
            object_pairs_hook=_pairs_without_duplicates,
            parse_constant=_reject_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except _DuplicateKey as exc:
        raise ParseError(
            _("Malformed JSON: the key %(key)s appears twice.") % {"key": repr(exc.args[0])}
        ) from exc
    except _NumberTooLarge as exc:
        raise ParseError(
            _(
                "The JSON holds a number too large to read (%(number)s); numbers may have "
                "at most %(digits)s digits and must be finite."
            )
            % {"number": exc.args[0], "digits": MAX_NUMBER_DIGITS}
        ) from exc
    except RecursionError as exc:
        raise ParseError(_too_deep()) from exc
    except ValueError as exc:
        line, column = getattr(exc, "lineno", 1), getattr(exc, "colno", 1)
        raise ParseError(
            _("Malformed JSON at line %(line)s, column %(column)s.")
            % {"line": line, "column": column}
        ) from exc
    _check_parsed(data)
    return data


class StrictJSONParser(BaseParser):
    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return loads_strict(stream.read() if stream is not None else b"")
