"""StrictIntegerField: numbers as a client means them, nothing Python would merely tolerate."""

from __future__ import annotations

import math

import pytest
from rest_framework import serializers

from sudokusite.fields import StrictIntegerField


class Digit(serializers.Serializer):
    value = StrictIntegerField(min_value=1, max_value=9)


class Big(serializers.Serializer):
    value = StrictIntegerField()


def errors_for(serializer_class, value) -> list[str]:
    serializer = serializer_class(data={"value": value})
    assert not serializer.is_valid()
    return [str(message) for message in serializer.errors["value"]]


@pytest.mark.parametrize(("raw", "expected"), [(5, 5), ("5", 5), (5.0, 5), ("9", 9)])
def test_it_accepts_integers_and_ascii_digit_strings(raw, expected):
    serializer = Digit(data={"value": raw})
    assert serializer.is_valid(), serializer.errors
    assert serializer.validated_data["value"] == expected


@pytest.mark.parametrize("raw", ["５", "٥", "৫", "1５"])
def test_it_rejects_non_ascii_digits_and_says_why(raw):
    assert errors_for(Digit, raw) == ["Write the number with the ASCII digits 0-9."]


@pytest.mark.parametrize("raw", [True, False])
def test_it_rejects_booleans(raw):
    assert errors_for(Digit, raw) == ["A whole number is required, not true or false."]


def test_it_rejects_a_fraction():
    assert errors_for(Digit, 5.5) == ["A whole number is required, not a fraction."]


@pytest.mark.parametrize("raw", [math.nan, math.inf, -math.inf])
def test_it_rejects_nan_and_infinity(raw):
    assert errors_for(Digit, raw) == ["A whole number is required, not NaN or infinity."]


@pytest.mark.parametrize("raw", [" 5", "5 ", "1_0", "+5", "5.0", "", "0x5", None, [5], {"v": 5}])
def test_it_rejects_anything_else(raw):
    serializer = Digit(data={"value": raw})
    assert not serializer.is_valid()


@pytest.mark.parametrize("raw", [2**31, -(2**31), "9" * 5000, 10**400])
def test_it_rejects_huge_numbers_beyond_the_bound(raw):
    assert errors_for(Big, raw) == ["The number must be between -2147483647 and 2147483647."]


def test_it_still_applies_min_and_max():
    assert errors_for(Digit, 10) == ["Ensure this value is less than or equal to 9."]
    assert errors_for(Digit, "0") == ["Ensure this value is greater than or equal to 1."]
