"""OpenAPI generation: the schema tells the truth about bodies and errors.

``AutoSchema`` marks request bodies of ``InputSerializer`` ``additionalProperties:
false`` (the server refuses unknown fields).

Errors: every error body is the ``Error`` component (``{"error": {"code", "message",
"fields"?}}``), except a stale version's 409, which is ``StaleVersionError`` (it carries
the current game). An operation declares the codes it can answer with
``error_responses``::

    @extend_schema(responses={200: GameSerializer, **error_responses(
        {409: ["game_finished", "nothing_to_undo"], 404: ["not_found"]}, stale=True)})

and ``add_error_responses`` (a postprocessing hook) adds the errors every operation can
meet (400 invalid input, 401, 403, 404, 406, 413, 429) with their codes, so each error
response lists its codes in ``x-error-codes`` and in its description.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from drf_spectacular import openapi
from drf_spectacular.utils import OpenApiResponse

from .serializers import InputSerializer


class AutoSchema(openapi.AutoSchema):
    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(serializer, InputSerializer):
            schema["additionalProperties"] = False
        return schema


ERROR = "Error"
STALE_VERSION_ERROR = "StaleVersionError"
STALE_VERSION = "stale_version"
_CODES_KEY = "x-error-codes"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


_SCHEMAS: dict[str, dict[str, Any]] = {
    ERROR: {
        "type": "object",
        "description": "Every error answer of the API (see the operation for its codes).",
        "required": ["error"],
        "properties": {"error": _ref("ErrorDetail")},
    },
    "ErrorDetail": {
        "type": "object",
        "required": ["code", "message"],
        "properties": {
            "code": {
                "type": "string",
                "description": "What went wrong, for programs; each operation lists its codes.",
                "example": "cell_is_given",
                # stale_version is a StaleVersionError: a 409 is one or the other.
                "not": {"enum": [STALE_VERSION]},
            },
            "message": {
                "type": "string",
                "description": "What went wrong, for people.",
                "example": "Cell r1c3 is a given.",
            },
            "fields": {
                "type": "object",
                "description": "Per-field messages; only on validation errors (code invalid).",
                "additionalProperties": {},
            },
        },
        # Some errors say more: a too_hard's engine and budget, a pack's field.
        "additionalProperties": {},
    },
    STALE_VERSION_ERROR: {
        "type": "object",
        "description": "The game changed since the version the client sent.",
        "required": ["error"],
        "properties": {"error": _ref("StaleVersionErrorDetail")},
    },
    "StaleVersionErrorDetail": {
        "type": "object",
        "required": ["code", "message", "version", "game"],
        "properties": {
            "code": {"type": "string", "enum": [STALE_VERSION]},
            "message": {"type": "string"},
            "version": {"type": "integer", "description": "The game's current version."},
            "game": {**_ref("Game"), "description": "The game as it is now."},
        },
    },
}

# The errors any operation can meet, whatever it declares, and their codes.
_COMMON: dict[str, tuple[str, list[str]]] = {
    "400": (
        "Invalid input, malformed JSON, or a rule of the request said no.",
        ["invalid", "malformed_request", "unsupported_media_type"],
    ),
    "401": ("Missing, invalid or expired token.", ["not_authenticated", "authentication_failed"]),
    "403": ("Not allowed.", ["permission_denied"]),
    "404": ("Not found.", ["not_found"]),
    "406": ("The Accept header asks for something other than JSON.", ["not_acceptable"]),
    "413": ("Request body too large.", ["request_too_large"]),
    "429": ("Too many requests; see Retry-After.", ["throttled"]),
}

_REASONS = {
    **{status: description for status, (description, _codes) in _COMMON.items()},
    "409": "The request conflicts with the game or resource as it is now.",
    "422": "Understood, but refused.",
    "503": "Not ready yet: try again after Retry-After (seconds).",
}


def error_responses(
    codes: Mapping[int, Iterable[str]], *, stale: bool = False
) -> dict[int, OpenApiResponse]:
    """Responses for ``@extend_schema``: per status, the codes this operation can answer.

    The body is ``Error``; with ``stale=True`` the 409 is ``StaleVersionError`` for
    ``stale_version`` and ``Error`` for the other codes.
    """
    codes = {status: list(names) for status, names in codes.items()}
    if stale:
        codes.setdefault(409, [])
        codes[409].append(STALE_VERSION)
    responses = {}
    for status, names in codes.items():
        schema: dict[str, Any] = _ref(ERROR)
        if STALE_VERSION in names:
            schema = {"oneOf": [_ref(STALE_VERSION_ERROR), _ref(ERROR)]}
        # Read (and removed) by add_error_responses, which writes the codes out.
        schema = {**schema, _CODES_KEY: names}
        responses[status] = OpenApiResponse(
            schema, description=_REASONS.get(str(status), "Refused.")
        )
    return responses


def add_error_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    result.setdefault("components", {}).setdefault("schemas", {}).update(_SCHEMAS)
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            responses = operation.setdefault("responses", {})
            for status, response in responses.items():
                if status.startswith(("4", "5")):
                    _document_codes(status, response)
            # An operation that reads no credentials cannot fail on them.
            anonymous = operation.get("security") == [{}]
            for status, (description, _codes) in _COMMON.items():
                if status not in responses and not (anonymous and status in ("401", "403")):
                    responses[status] = {"description": description}
                    _document_codes(status, responses[status])
    return result


def _document_codes(status: str, response: dict[str, Any]) -> None:
    """Give an error response the error shape and its list of codes."""
    content = response.get("content") or {}
    schema = dict((content.get("application/json") or {}).get("schema") or {})
    declared = schema.pop(_CODES_KEY, [])
    if "$ref" not in schema and "oneOf" not in schema:
        schema = _ref(ERROR)  # described in words only: the API's one error shape
    common = _COMMON.get(status, ("", []))[1]
    codes = [*common, *(code for code in declared if code not in common)]
    response["content"] = {"application/json": {"schema": schema}}
    if codes:
        response[_CODES_KEY] = codes
        listed = ", ".join(f"`{code}`" for code in codes)
        response["description"] = f"{response.get('description', '').rstrip()} Codes: {listed}."


def name_parameter_enums(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Give a query parameter's choices a component, as drf-spectacular does for bodies'.

    A parameter whose choices are a body's (a level, a game status) reuses that enum; any
    other gets ``<Name>Enum``, or ``<Segment><Name>Enum`` after the path's last word when
    that name is taken (the daily puzzle's sizes). Left inline, generators name them after
    the operation (``LeaderboardsListDifficulty`` beside ``DifficultyEnum``).
    """
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for path, path_item in result.get("paths", {}).items():
        for operation in path_item.values():
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if "enum" not in schema:
                    continue
                enum = {"type": schema["type"], "enum": schema["enum"]}
                name = _enum_component(schemas, enum, parameter["name"], path)
                ref = _ref(name)
                if "default" in schema:
                    ref = {"allOf": [ref], "default": schema["default"]}
                parameter["schema"] = ref
    return result


def _enum_component(schemas: dict[str, Any], enum: dict[str, Any], name: str, path: str) -> str:
    for existing, schema in schemas.items():
        if schema.get("type") == enum["type"] and schema.get("enum") == enum["enum"]:
            return existing
    words = [word for word in path.split("/") if word and not word.startswith("{")]
    for candidate in (f"{name.title()}Enum", f"{words[-1].title()}{name.title()}Enum"):
        if candidate not in schemas:
            schemas[candidate] = enum
            return candidate
    raise ValueError(f"No free name for the choices of {name!r} in {path}")


LANGUAGE_HEADER = {
    "name": "Accept-Language",
    "in": "header",
    "required": False,
    "description": (
        "The language of error messages, hint and step sentences and technique names: "
        "`en` (the default) or `zh-Hans` (`zh-CN` and `zh` also choose it). Codes, field "
        "names and slugs are the same in every language. The response's `Content-Language` "
        "says which was used."
    ),
    "schema": {"type": "string", "example": "zh-Hans"},
}


def add_language_header(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Document Accept-Language on every operation (Django's LocaleMiddleware reads it)."""
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            parameters = operation.setdefault("parameters", [])
            if not any(p.get("name") == LANGUAGE_HEADER["name"] for p in parameters):
                parameters.append(dict(LANGUAGE_HEADER))
    return result
