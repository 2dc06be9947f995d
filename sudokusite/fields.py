"""Serializer fields shared by the apps' APIs.

``StrictIntegerField`` is the one to use for any number a client sends (a row,
a digit, a version). DRF's IntegerField goes through ``int(str(value))``, and
Python's int() accepts "５" (a full-width digit), " 7 ", "1_000" and True; this
field accepts only a JSON integer (or an integral float such as 3.0) or a
string of ASCII digits, and says why it refuses anything else.

``StrictCharField`` and ``StrictUUIDField`` take only a JSON string: DRF's
CharField turns 10 into "10" and 3.5 into "3.5" (a sign-up with
``{"username": 10}`` made a user called "10"), and its UUIDField turns 5 or
true into the UUID 00000000-...-000000000001.

Text a person will read back (a name, a label, a note) must be visible:
:func:`text_problem` is the one rule, used by ``StrictCharField`` (every text field of the
API, unless ``visible=False``, as for passwords), by :func:`validate_visible_text` (forms,
admin forms, services) and by the username rules (accounts.names). It refuses bidi
controls (a right-to-left mark can reorder what others see), control characters other
than line breaks and tabs, and text made only of spaces, format characters (zero-width
spaces, joiners), combining marks or blank letters (the Hangul fillers, the blank Braille
pattern).
"""

from __future__ import annotations

import math
import re
import unicodedata
import uuid
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

_ASCII_INTEGER = re.compile(r"-?[0-9]+")

# Fits a PostgreSQL integer column; pass ``bound=`` for another range.
DEFAULT_BOUND = 2**31 - 1


class StrictBooleanField(serializers.BooleanField):
    """``true`` or ``false`` only: DRF's own also takes 0, 1, "yes" and "on", which the
    schema (a boolean) does not promise."""

    default_error_messages = {"invalid": _("true or false is required.")}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictIntegerField(serializers.IntegerField):
    default_error_messages = {
        "invalid": _("A whole number is required."),
        "bool": _("A whole number is required, not true or false."),
        "fraction": _("A whole number is required, not a fraction."),
        "not_finite": _("A whole number is required, not NaN or infinity."),
        "non_ascii": _("Write the number with the ASCII digits 0-9."),
        "out_of_bounds": _("The number must be between -{bound} and {bound}."),
    }

    def __init__(self, *, bound: int = DEFAULT_BOUND, **kwargs: Any) -> None:
        self.bound = bound
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool):
            self.fail("bool")
        if isinstance(data, int):
            value = data
        elif isinstance(data, float):
            if not math.isfinite(data):
                self.fail("not_finite")
            if not data.is_integer():
                self.fail("fraction")
            value = int(data)
        elif isinstance(data, str):
            if not _ASCII_INTEGER.fullmatch(data):
                if any(ch.isdigit() and not ch.isascii() for ch in data):
                    self.fail("non_ascii")
                self.fail("invalid")
            if len(data.lstrip("-")) > len(str(self.bound)):
                self.fail("out_of_bounds", bound=self.bound)
            value = int(data)
        else:
            self.fail("invalid")
        if abs(value) > self.bound:
            self.fail("out_of_bounds", bound=self.bound)
        return value


BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Letters and symbols that draw nothing, though Unicode does not call them format or space.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
_UNSEEN_CATEGORIES = frozenset({"Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me", "Co", "Cn", "Cs"})
_LINE_CONTROLS = "\t\n\r"


def unseen(ch: str) -> bool:
    """Whether a character draws nothing a reader could tell apart (format, space...)."""
    return ch in BLANK_LETTERS or unicodedata.category(ch) in _UNSEEN_CATEGORIES


def text_problem(text: str, *, multiline: bool = False) -> str | None:
    """Why ``text`` cannot be a name, label or note people read, or None if it can."""
    if any(ch in BIDI_CONTROLS for ch in text):
        return str(
            _("Remove the right-to-left and left-to-right marks: they change what others see.")
        )
    allowed = _LINE_CONTROLS if multiline else ""
    if any(unicodedata.category(ch) == "Cc" and ch not in allowed for ch in text):
        return str(_("Remove the control characters."))
    if text and all(unseen(ch) for ch in text):
        return str(_("Write something visible: this is only spaces or invisible characters."))
    return None


def validate_visible_text(text: str) -> None:
    """A Django validator for a one-line name or label (see :func:`text_problem`)."""
    problem = text_problem(text)
    if problem is not None:
        raise ValidationError(problem, code="invisible_text")


def validate_visible_note(text: str) -> None:
    """:func:`validate_visible_text` for text of several lines (a note)."""
    problem = text_problem(text, multiline=True)
    if problem is not None:
        raise ValidationError(problem, code="invisible_text")


class StrictCharField(serializers.CharField):
    """A JSON string only, and (unless ``visible=False``: a password, a secret) text a
    person can read: see :func:`text_problem`."""

    default_error_messages = {"not_text": _("Send text (a JSON string), not {kind}.")}

    def __init__(self, *, visible: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if visible:
            self.validators.append(validate_visible_text)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("not_text", kind=_json_kind(data))
        return super().to_internal_value(data)


class StrictUUIDField(serializers.UUIDField):
    default_error_messages = {
        "not_text": _('Send the UUID as a string, e.g. "0b5b5a4e-8d3c-4c1e-9d52-3f8a1c2b7e90".')
    }

    def to_internal_value(self, data: Any) -> uuid.UUID:
        if not isinstance(data, str):
            self.fail("not_text")
        return super().to_internal_value(data)


def _json_kind(data: Any) -> str:
    if isinstance(data, bool):
        return "true or false"
    if isinstance(data, int | float):
        return "a number"
    if isinstance(data, list):
        return "a list"
    if isinstance(data, dict):
        return "an object"
    return "null" if data is None else "that"
