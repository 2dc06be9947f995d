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
"""

from __future__ import annotations

import math
import re
import uuid
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

_ASCII_INTEGER = re.compile(r"-?[0-9]+")

# Fits a PostgreSQL integer column; pass ``bound=`` for another range.
DEFAULT_BOUND = 2**31 - 1


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


class StrictCharField(serializers.CharField):
    default_error_messages = {"not_text": _("Send text (a JSON string), not {kind}.")}

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
