"""Writes that take no fields (sign out, sign out everywhere, cancel a pack) refuse a body
that holds one, as every other write refuses a field it does not take."""

from __future__ import annotations

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from accounts.services import token_create
from puzzles.models import PuzzlePack
from puzzles.packs import pack_create

pytestmark = pytest.mark.django_db

MESSAGE = "Unknown field: this endpoint takes no fields."


def signed_in(**kwargs) -> APIClient:
    _, key = token_create(user=UserFactory(**kwargs))
    return APIClient(HTTP_AUTHORIZATION=f"Token {key}")


def assert_refused(response, *names: str) -> None:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert error["fields"] == {name: [MESSAGE] for name in names}


@pytest.mark.parametrize("url", ["/api/v1/auth/logout/", "/api/v1/auth/logout-all/"])
def test_signing_out_with_a_field_is_a_400_naming_it_and_signs_nobody_out(url):
    client = signed_in()
    response = client.post(url, {"everywhere": True, "user": 1}, format="json")
    assert_refused(response, "everywhere", "user")
    assert AuthToken.objects.count() == 1
    assert client.get("/api/v1/me/").status_code == 200


@pytest.mark.parametrize("url", ["/api/v1/auth/logout/", "/api/v1/auth/logout-all/"])
@pytest.mark.parametrize("body", [None, {}])
def test_signing_out_with_no_body_or_an_empty_object_signs_out(url, body):
    client = signed_in()
    assert client.post(url, body, format="json").status_code == 204
    assert AuthToken.objects.count() == 0


@pytest.mark.parametrize("body", [b"null", b"[]", b'"x"'])
def test_signing_out_with_a_body_that_is_not_an_object_is_a_400(body):
    client = signed_in()
    response = client.generic("POST", "/api/v1/auth/logout/", body, "application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert AuthToken.objects.count() == 1


def test_cancelling_a_pack_with_a_field_is_a_400_naming_it_and_cancels_nothing():
    pack = pack_create(name="p", size=4, difficulty="easy", count=1, enqueue=False)
    staff = signed_in(is_staff=True)
    response = staff.post(f"/api/v1/packs/{pack.pk}/cancel/", {"reason": "x"}, format="json")
    assert_refused(response, "reason")
    assert PuzzlePack.objects.get(pk=pack.pk).status != "cancelled"
    assert staff.post(f"/api/v1/packs/{pack.pk}/cancel/", {}, format="json").status_code == 200
