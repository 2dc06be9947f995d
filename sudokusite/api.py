"""The ``/api/v1/`` URL space.

To add endpoints from an app, write ``<app>/api/urls.py`` with a ``urlpatterns``
list (plain paths, or ``router.urls`` from a DRF router of your own) and add one
line to ``urlpatterns`` below::

    path("", include("puzzles.api.urls")),

Paths are relative to /api/v1/, so ``path("puzzles/", ...)`` serves
/api/v1/puzzles/. Shared building blocks: ``sudokusite.errors.DomainError`` for
business-rule errors, ``sudokusite.fields.StrictIntegerField`` for numbers,
``sudokusite.pagination.PageNumberPagination`` (the default), and
``@extend_schema`` on every custom action so /api/v1/schema/ tells the truth.
"""

from typing import Any

from django.http import HttpResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.request import Request

app_name = "api"


class DocsView(SpectacularSwaggerSplitView):
    """Swagger UI from drf-spectacular-sidecar with its script in a separate file,
    so it runs under our Content-Security-Policy (no inline script, no CDN)."""

    template_name = "api/swagger_ui.html"

    def options(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        """The methods allowed, without a body: DRF's metadata answer is data, which the
        page's HTML renderer has no template for (it answered 500)."""
        response = HttpResponse(status=200)
        response["Allow"] = ", ".join(self.allowed_methods)
        return response


urlpatterns = [
    # The game endpoints first: a move is most of the API's traffic, and Django tries the
    # patterns in order.
    path("", include("play.api.urls")),
    path("", include("replays.api.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", DocsView.as_view(url_name="api:schema"), name="docs"),
    path("", include("accounts.api.urls")),
    path("", include("puzzles.api.urls")),
    path("", include("solving.api.urls")),
    path("", include("learn.api.urls")),
    path("", include("races.api.urls")),
]
