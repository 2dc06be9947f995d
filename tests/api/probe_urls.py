"""A URLconf for tests: the real site plus small views that exercise the shared API plumbing."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import path
from rest_framework import exceptions, generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.serializers import UserSerializer
from sudokusite.errors import DomainError
from sudokusite.fields import StrictIntegerField
from sudokusite.urls import handler400, handler403, handler404, handler500  # noqa: F401
from sudokusite.urls import urlpatterns as site_urlpatterns


class CellIsGiven(DomainError):
    status_code = 409
    code = "cell_is_given"
    message = "That cell is a given."


class Open(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []


class DomainErrorView(Open):
    def post(self, request):
        raise CellIsGiven("Cell r1c3 is a given and cannot change.", extra={"cell": "r1c3"})


class DjangoValidationView(Open):
    def post(self, request):
        raise ValidationError({"cells": ["Need 81 cells."]})


class MoveSerializer(serializers.Serializer):
    digit = StrictIntegerField(min_value=1, max_value=9)


class NumberView(Open):
    def post(self, request):
        data = MoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(data.validated_data)


class BoomView(Open):
    def get(self, request):
        raise RuntimeError("kaboom")


class ThrottledView(Open):
    def get(self, request):
        raise exceptions.Throttled(wait=7)


class UserList(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = UserSerializer
    queryset = get_user_model().objects.order_by("id")


def boom_page(request):
    raise RuntimeError("kaboom")


urlpatterns = [
    path("probe/boom/", boom_page),
    path("api/v1/probe/domain/", DomainErrorView.as_view()),
    path("api/v1/probe/django-validation/", DjangoValidationView.as_view()),
    path("api/v1/probe/number/", NumberView.as_view()),
    path("api/v1/probe/boom/", BoomView.as_view()),
    path("api/v1/probe/throttled/", ThrottledView.as_view()),
    path("api/v1/probe/users/", UserList.as_view()),
    *site_urlpatterns,
]
