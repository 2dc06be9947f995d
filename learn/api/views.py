from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from learn import selectors
from sudokusite.schema import error_responses

from .serializers import TechniqueDetailSerializer, TechniqueSerializer


def _with_url(item: dict[str, Any]) -> dict[str, Any]:
    return {**item, "lesson_url": reverse("learn:lesson", args=[item["slug"]])}


class TechniqueListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The techniques of the logic engine, easiest first, then Killer's own",
        responses={200: TechniqueSerializer(many=True)},
        tags=["learn"],
    )
    def get(self, request: Request) -> Response:
        items = [_with_url(t) for t in selectors.technique_list()]
        return Response(TechniqueSerializer(items, many=True).data)


class TechniqueDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="One technique's lesson: explanation, example step, frequency in the bank",
        responses={
            200: TechniqueDetailSerializer,
            **error_responses({400: ["unknown_technique"]}),
        },
        tags=["learn"],
    )
    def get(self, request: Request, slug: str) -> Response:
        detail = _with_url(selectors.technique_detail(slug=slug))
        return Response(TechniqueDetailSerializer(detail).data)
