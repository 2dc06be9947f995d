"""Serializer fields shared by the apps' APIs.

``StrictIntegerField`` is the one to use for any number a client sends (a row,
a digit, a version). DRF's IntegerField goes through ``int(str(value))``, and
Python's int() accepts "５" (a full-width digit), " 7 ", "1_000" and True; this
field accepts only a JSON integer (or an integral float such as 3.0) or a
string of ASCII digits, and says why it refuses anything else.
"""

from __future__ import annotations

import math
import re
from typing import Any

from rest_framework import serializers

_ASCII_INTEGER = re.compile(r"-?[0-9]+")

# Fits a PostgreSQL integer column; pass ``bound=`` for another range.
DEFAULT_BOUND = 2**31 - 1


class StrictIntegerField(serializers.IntegerField):
    default_error_messages = {
        "invalid": "A whole number is required.",
        "bool": "A whole number is required, not true or false.",
        "fraction": "A whole number is required, not a fraction.",
        "not_finite": "A whole number is required, not NaN or infinity.",
        "non_ascii": "Write the number with the ASCII digits 0-9.",
        "out_of_bounds": "The number must be between -{bound} and {bound}.",
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
