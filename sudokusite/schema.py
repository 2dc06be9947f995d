"""OpenAPI generation: the schema tells the truth about bodies and errors.

``AutoSchema`` marks request bodies of ``InputSerializer`` ``additionalProperties:
false`` (the server refuses unknown fields). ``add_error_responses`` documents the
API's one error shape on every operation, and gives it to any error an operation
declares without a body (a 409 or 422 described only in words).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi

from .serializers import InputSerializer


class AutoSchema(openapi.AutoSchema):
    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(serializer, InputSerializer):
            schema["additionalProperties"] = False
        return schema


_ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string", "example": "invalid"},
                "message": {"type": "string", "example": "username: This field is required."},
                "fields": {
                    "type": "object",
                    "description": "Per-field messages; only on validation errors.",
                    "additionalProperties": {},
                },
            },
        }
    },
}

_ERRORS = {
    "400": "Invalid input, malformed JSON, or a rule of the game said no.",
    "401": "Missing, invalid or expired token.",
    "403": "Not allowed.",
    "404": "Not found.",
    "406": "The Accept header asks for something other than JSON.",
    "413": "Request body too large.",
    "429": "Too many requests; see Retry-After.",
}


def add_error_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = _ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            responses = operation.setdefault("responses", {})
            for status, description in _ERRORS.items():
                responses.setdefault(
                    status,
                    {"description": description, "content": {"application/json": {"schema": ref}}},
                )
            for status, response in responses.items():
                if status.startswith("4") and _bodiless(response):
                    response["content"] = {"application/json": {"schema": ref}}
    return result


def _bodiless(response: dict[str, Any]) -> bool:
    """Declared with a description only, or as a bare object (OpenApiTypes.OBJECT)."""
    content = response.get("content")
    if not content:
        return True
    schemas = [media.get("schema") for media in content.values()]
    bare = (None, {}, {"type": "object"}, {"type": "object", "additionalProperties": {}})
    return all(schema in bare for schema in schemas)
