"""Path parameters of the API: a row's id is 1 to 18 ASCII digits, nothing else.

Python's ``int()`` reads any Unicode digit, so a lookup that takes any text
(DRF's default ``[^/.]+``) served ``/api/v1/puzzles/１/`` (a full-width 1) as puzzle 1,
and an id too long for the column reached the database. Every app's ``api/urls.py``
uses this ``SimpleRouter`` and, for plain paths, the ``id`` converter
(``path("puzzles/<id:id>/leaderboard/", ...)``); anything else in that place does not
match, and the 404 handler answers in the API's error shape. 18 digits always fit a
BigAutoField.
"""

from __future__ import annotations

from typing import Any

from django.urls import register_converter
from rest_framework import routers

ID_REGEX = "[0-9]{1,18}"


class IdConverter:
    regex = ID_REGEX

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(value)


register_converter(IdConverter, "id")


class SimpleRouter(routers.SimpleRouter):
    """DRF's SimpleRouter whose detail routes take an id (``ID_REGEX``) unless the viewset
    sets its own ``lookup_value_regex``; the routes named in ``first`` come before the rest
    (Django tries the patterns in order, and DRF sorts a viewset's actions by name)."""

    def __init__(self, trailing_slash: bool = True, *, first: tuple[str, ...] = ()) -> None:
        super().__init__(trailing_slash=trailing_slash)
        self._default_value_pattern = ID_REGEX
        self._first = first

    def get_urls(self) -> list[Any]:
        urls = super().get_urls()
        return sorted(urls, key=lambda url: url.name not in self._first)
