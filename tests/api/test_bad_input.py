"""Bad input to the API is a JSON 400 or 413 with a message, never a 500."""

from __future__ import annotations

import json

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from sudokusite.middleware import ApiBodySizeLimitMiddleware

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"


def post_raw(
    client, body: bytes | str, content_type: str = "application/json", url: str = TOKEN_URL
):
    return client.generic("POST", url, body, content_type=content_type)


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == code
    assert error["message"]
    return error


def test_it_rejects_malformed_json(client):
    error = assert_error(post_raw(client, '{"username": "a",'), 400, "malformed_request")
    assert "Malformed JSON" in error["message"]


def test_it_rejects_json_nested_a_thousand_deep(client):
    body = "[" * 1000 + "]" * 1000
    error = assert_error(post_raw(client, body), 400, "malformed_request")
    assert "nested too deeply" in error["message"]


def test_it_rejects_json_nested_deeper_than_python_can_parse(client):
    body = '{"a":' * 40_000 + "1" + "}" * 40_000
    assert_error(post_raw(client, body), 400, "malformed_request")


def test_it_rejects_duplicate_keys(client):
    error = assert_error(
        post_raw(client, '{"username": "a", "username": "b", "password": "x"}'),
        400,
        "malformed_request",
    )
    assert "'username' appears twice" in error["message"]


def test_it_rejects_nan(client):
    assert_error(post_raw(client, '{"username": NaN}'), 400, "malformed_request")


@pytest.mark.parametrize("number", ["1e309", "-1e400", "1" * 5000, "0." + "1" * 5000])
def test_it_rejects_a_number_too_large_to_read(client, number):
    # 1e309 would otherwise arrive as float("inf"), which a text field turns into "inf".
    error = assert_error(
        post_raw(client, f'{{"username": {number}, "password": "x"}}'), 400, "malformed_request"
    )
    assert "number too large" in error["message"]
    assert "set_int_max_str_digits" not in error["message"]


def test_it_rejects_a_body_that_is_not_utf8(client):
    error = assert_error(post_raw(client, b'{"username": "\xff"}'), 400, "malformed_request")
    assert "UTF-8" in error["message"]


def test_it_answers_413_for_a_five_megabyte_body(client):
    body = b'{"username": "' + b"a" * (5 * 1024 * 1024) + b'"}'
    error = assert_error(post_raw(client, body), 413, "request_too_large")
    assert "262144 bytes" in error["message"]


def test_it_checks_the_streamed_length_not_only_the_header(settings):
    settings.API_MAX_BODY_BYTES = 1024
    request = RequestFactory().post(
        TOKEN_URL, b"[" + b"1," * 4096 + b"1]", content_type="application/json"
    )
    # As with a chunked upload through ASGI: no length announced up front.
    del request.META["CONTENT_LENGTH"]
    middleware = ApiBodySizeLimitMiddleware(lambda request: HttpResponse("reached the view"))
    response = middleware(request)
    assert response.status_code == 413
    assert json.loads(response.content)["error"]["code"] == "request_too_large"


def test_it_hands_an_accepted_body_on_to_the_view(settings):
    request = RequestFactory().post(TOKEN_URL, b'{"a": 1}', content_type="application/json")
    middleware = ApiBodySizeLimitMiddleware(lambda request: HttpResponse(request.body))
    assert middleware(request).content == b'{"a": 1}'


def test_it_rejects_a_form_encoded_body_and_says_to_send_json(client):
    error = assert_error(
        post_raw(client, "username=a&password=b", "application/x-www-form-urlencoded"),
        400,
        "unsupported_media_type",
    )
    assert "application/json" in error["message"]
    assert "application/x-www-form-urlencoded" in error["message"]


def test_it_rejects_a_text_plain_body(client):
    error = assert_error(
        post_raw(client, '{"username": "a"}', "text/plain"), 400, "unsupported_media_type"
    )
    assert "text/plain" in error["message"]


@pytest.mark.urls("tests.api.probe_urls")
def test_it_rejects_a_full_width_digit_for_a_number(client):
    response = post_raw(client, '{"digit": "５"}', url="/api/v1/probe/number/")
    error = assert_error(response, 400, "invalid")
    assert error["fields"] == {"digit": ["Write the number with the ASCII digits 0-9."]}
    assert error["message"] == "digit: Write the number with the ASCII digits 0-9."


@pytest.mark.urls("tests.api.probe_urls")
def test_it_accepts_an_ascii_number(client):
    response = post_raw(client, '{"digit": "5"}', url="/api/v1/probe/number/")
    assert response.status_code == 200
    assert response.json() == {"digit": 5}


def test_it_refuses_fields_an_endpoint_does_not_take(client, user):
    response = client.post(
        TOKEN_URL,
        {"username": user.username, "password": user.raw_password, "is_staff": True},
        content_type="application/json",
    )
    error = assert_error(response, 400, "invalid")
    assert error["fields"] == {
        "is_staff": ["Unknown field: this endpoint takes username, password."]
    }
    assert error["message"] == "is_staff: Unknown field: this endpoint takes username, password."


def test_it_answers_404_json_for_an_unknown_api_url(client):
    assert_error(client.get("/api/v1/no-such-thing/"), 404, "not_found")


def test_it_answers_405_json_with_allow(client):
    response = client.get(TOKEN_URL)
    assert_error(response, 405, "method_not_allowed")
    assert "POST" in response["Allow"]


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/games/?status=",
        "/api/v1/leaderboards/?difficulty=",
        "/api/v1/leaderboards/?difficulty=easy&period=",
        "/api/v1/leaderboards/?difficulty=easy&size=",
    ],
)
def test_it_refuses_a_blank_query_parameter_instead_of_ignoring_it(token_client, url):
    name = url.rsplit("&", 1)[-1].split("?")[-1].rstrip("=")
    error = assert_error(token_client.get(url), 400, "invalid")
    assert list(error["fields"]) == [name]


def test_it_answers_406_in_the_error_shape_when_json_is_not_acceptable(token_client):
    response = token_client.get("/api/v1/me/", HTTP_ACCEPT="text/html")
    assert_error(response, 406, "not_acceptable")


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ('{"username": "\\ud800", "password": "x"}', '"username"'),
        ('{"username": "a\\udfffb", "password": "x"}', '"username"'),
        ('{"\\ud800": 1, "username": "a", "password": "x"}', '"\\ud800"'),
        ('{"username": "a", "password": "x", "n": {"deep": ["\\udc00"]}}', '"n"'),
    ],
)
def test_it_rejects_a_lone_surrogate_in_a_key_or_a_string(client, body, named):
    error = assert_error(post_raw(client, body), 400, "malformed_request")
    assert "surrogate" in error["message"]
    assert named in error["message"]


def test_it_accepts_a_surrogate_pair_that_makes_a_character(client, user):
    # "\ud83d\ude00" is one character (an emoji): text, so the view decides.
    body = '{"username": "\\ud83d\\ude00", "password": "x"}'
    assert_error(post_raw(client, body), 400, "invalid_credentials")


@pytest.mark.parametrize("digits", ["%EF%BC%91", "%D9%A1", "%F0%9D%9F%8F", "1%E2%80%8B"])
@pytest.mark.parametrize(
    "path", ["puzzles/{}/", "puzzles/{}/leaderboard/", "packs/{}/", "packs/{}/cancel/"]
)
def test_an_id_in_a_path_is_ascii_digits_or_a_404_in_the_error_shape(path, digits):
    from rest_framework.test import APIClient

    from accounts.factories import UserFactory
    from accounts.services import token_create
    from puzzles.packs import pack_create
    from tests.play.factories import NINE, puzzle_create

    # Id 1 of each: "１" and "١" must not find them.
    puzzle_create(NINE, difficulty="easy")
    pack_create(name="p", size=4, difficulty="easy", count=1, enqueue=False)
    _, key = token_create(user=UserFactory(is_staff=True))
    staff = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    response = staff.generic(
        "POST" if "cancel" in path else "GET", "/api/v1/" + path.format(digits)
    )
    assert_error(response, 404, "not_found")
