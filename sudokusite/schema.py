"""OpenAPI post-processing: document the API's one error shape on every operation."""

from __future__ import annotations

from typing import Any

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
    return result
