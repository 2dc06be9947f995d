"""The OpenAPI schema of a pack request says which levels each size is made at, so a
client (and the API fuzzer) can tell a valid request from one the server refuses."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension

from puzzles.bank import bank_levels
from puzzles.packs import PACK_SIZES
from solver.logic.grade import LEVELS

# No NUL or lone surrogate (Django refuses both), and for a name one visible character.
_TEXT = r"^[^\x00\ud800-\udfff]*$"
_NAME = r"^[^\x00\ud800-\udfff]*\S[^\x00\ud800-\udfff]*$"


class PackCreateSchema(OpenApiSerializerExtension):
    target_class = "puzzles.api.serializers.PackCreateSerializer"

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["properties"]["name"]["pattern"] = _NAME
        schema["properties"]["seed"]["pattern"] = _TEXT
        # Written as "not any of the refused pairs" (a "not" is left alone by the hook
        # that names enums, which would merge per-size lists into one component).
        refused = [
            {
                "required": ["size", "difficulty"],
                "properties": {"size": {"enum": [size]}, "difficulty": {"enum": missing}},
            }
            for size in PACK_SIZES
            if (missing := [lv for lv in LEVELS if lv not in bank_levels(size)])
        ]
        if refused:
            schema["not"] = {"anyOf": refused}
        return schema
