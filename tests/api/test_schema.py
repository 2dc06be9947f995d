"""The OpenAPI schema builds cleanly and the docs need nothing from a CDN."""

from __future__ import annotations

import re

import pytest
import yaml
from django.core.management import call_command


def test_it_generates_the_schema_without_warnings(tmp_path):
    target = tmp_path / "schema.yml"
    # --fail-on-warn turns any warning or error of the generator into a failure.
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    assert "/api/v1/auth/token/" in schema["paths"]
    assert "Error" in schema["components"]["schemas"]
    token = schema["paths"]["/api/v1/auth/token/"]["post"]
    assert {"200", "400", "406", "413", "429"} <= set(token["responses"])


def _schema() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def test_it_says_request_bodies_take_no_other_fields():
    schema = _schema()
    bodies = [
        operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        for path in schema["paths"].values()
        for operation in path.values()
        if "requestBody" in operation
    ]
    assert len(bodies) >= 10
    components = schema["components"]["schemas"]
    for ref in bodies:
        name = ref.rsplit("/", 1)[-1]
        assert components[name].get("additionalProperties") is False, name


def test_it_documents_the_error_shape_and_codes_for_every_error_an_operation_declares():
    schema = _schema()
    error = {"$ref": "#/components/schemas/Error"}
    conflict = {"oneOf": [{"$ref": "#/components/schemas/StaleVersionError"}, error]}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                if not status.startswith("4"):
                    continue
                body = response["content"]["application/json"]["schema"]
                codes = response["x-error-codes"]
                assert codes and all(code in response["description"] for code in codes)
                if "stale_version" in codes:
                    assert (status, body) == ("409", conflict), (method, path)
                else:
                    assert body == error, (method, path, status)


def test_it_lists_the_codes_a_move_can_be_refused_with():
    responses = _schema()["paths"]["/api/v1/games/{id}/moves/"]["post"]["responses"]
    assert {"cell_is_given", "game_finished", "stale_version"} <= set(
        responses["409"]["x-error-codes"]
    )
    assert responses["422"]["x-error-codes"] == ["idempotency_conflict"]
    assert {"not_authenticated", "authentication_failed"} == set(responses["401"]["x-error-codes"])


def test_it_gives_errors_one_component_and_a_stale_version_its_own():
    components = _schema()["components"]["schemas"]
    detail = components["ErrorDetail"]
    assert detail["required"] == ["code", "message"]
    assert set(detail["properties"]) == {"code", "message", "fields"}
    stale = components["StaleVersionErrorDetail"]
    assert stale["properties"]["code"]["enum"] == ["stale_version"]
    assert stale["properties"]["game"]["$ref"] == "#/components/schemas/Game"


def test_it_names_every_component_plainly_and_once():
    names = list(_schema()["components"]["schemas"])
    assert all(re.fullmatch(r"[A-Z][A-Za-z0-9]*", name) for name in names), names
    # Generators turn names into Python, Kotlin or Swift identifiers: no two may meet.
    folded = [name.lower() for name in names]
    assert len(set(folded)) == len(folded)


def _enum(components: dict, schema: dict) -> list:
    ref = schema.get("$ref") or schema["allOf"][0]["$ref"]
    return components[ref.rsplit("/", 1)[-1]]["enum"]


def _query_parameters(schema: dict) -> dict[str, dict[str, dict]]:
    return {
        path: {p["name"]: p["schema"] for p in item["get"].get("parameters", [])}
        for path, item in schema["paths"].items()
        if "get" in item
    }


def test_it_offers_only_the_sizes_the_bank_serves():
    from puzzles.bank import BANK_SIZES
    from puzzles.packs import PACK_SIZES

    schema = _schema()
    components = schema["components"]["schemas"]
    game = components["GameCreateInputRequest"]["properties"]["size"]
    assert _enum(components, game) == list(PACK_SIZES)
    parameters = _query_parameters(schema)
    assert _enum(components, parameters["/api/v1/leaderboards/"]["size"]) == list(PACK_SIZES)
    assert _enum(components, parameters["/api/v1/puzzles/"]["size"]) == list(PACK_SIZES)
    assert _enum(components, parameters["/api/v1/puzzles/daily/"]["size"]) == list(BANK_SIZES)


def test_it_names_the_choices_of_query_parameters_as_components():
    schema = _schema()
    for path, parameters in _query_parameters(schema).items():
        for name, parameter in parameters.items():
            assert "enum" not in parameter, (path, name)
    leaderboard = _query_parameters(schema)["/api/v1/leaderboards/"]
    assert leaderboard["difficulty"] == {"$ref": "#/components/schemas/DifficultyEnum"}
    assert leaderboard["period"] == {
        "allOf": [{"$ref": "#/components/schemas/PeriodEnum"}],
        "default": "all",
    }


@pytest.mark.django_db
def test_it_serves_the_schema(client):
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Sudoku API"


@pytest.mark.django_db
def test_it_serves_the_docs_from_our_own_origin(client):
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui-bundle.js" in html
    assert not re.search(r"(src|href)=\"https?://", html)
    assert "<script>" not in html  # the init script is a separate file, for the CSP
    script = client.get("/api/v1/docs/?script=")
    assert script.status_code == 200
    assert "/api/v1/schema/" in script.content.decode()
