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


def test_it_documents_the_error_shape_for_every_error_an_operation_declares():
    schema = _schema()
    error = {"$ref": "#/components/schemas/Error"}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                if not status.startswith("4"):
                    continue
                body = response["content"]["application/json"]["schema"]
                assert body == error or body["$ref"].endswith("Error"), (method, path, status)


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
