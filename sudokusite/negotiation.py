"""DRF's content negotiation, with the everyday request answered at once.

The API renders JSON only. A client that accepts anything (no Accept header, or ``*/*``)
or exactly the one renderer's type gets it without DRF parsing the header into media
types against every renderer (a measurable share of a move's CPU); anything else (a list of types, a
quality, ``?format=``, another type, which is a 406) goes through DRF unchanged.
"""

from __future__ import annotations

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: list[Any], format_suffix: str | None = None
    ) -> tuple[Any, str]:
        if len(renderers) == 1 and not format_suffix:
            only = renderers[0]
            accept = request.META.get("HTTP_ACCEPT", "*/*")
            if accept in ("*/*", only.media_type) and (
                self.settings.URL_FORMAT_OVERRIDE not in request.query_params
            ):
                return only, only.media_type
        return super().select_renderer(request, renderers, format_suffix)
