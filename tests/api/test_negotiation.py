"""sudokusite.negotiation answers as DRF's own negotiation does."""

from __future__ import annotations

import pytest
from django.http import Http404
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from sudokusite.negotiation import ContentNegotiation


def _choose(negotiation, accept, renderers, query=""):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(APIRequestFactory().get(f"/api/v1/me/{query}", **headers))
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers)
    except NotAcceptable:
        return "406"
    except Http404:  # ?format= naming no renderer
        return "404"
    return type(renderer).__name__, media_type


@pytest.mark.parametrize(
    "accept",
    [None, "*/*", "application/json", "text/html", "application/*", "application/json; indent=2",
     "text/html, application/json;q=0.9", "application/xml"],
)  # fmt: skip
@pytest.mark.parametrize("renderers", [[JSONRenderer()], [JSONRenderer(), BrowsableAPIRenderer()]])
@pytest.mark.parametrize("query", ["", "?format=json", "?format=api"])
def test_it_chooses_what_drf_chooses(accept, renderers, query):
    ours = _choose(ContentNegotiation(), accept, renderers, query)
    assert ours == _choose(DefaultContentNegotiation(), accept, renderers, query)
