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
    assert {"200", "400", "429"} <= set(token["responses"])


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
