"""Every endpoint that takes input, against one table of bad input.

For each endpoint there is a valid request (sent last, to prove the bad ones failed for
their badness alone) and, per field, the values that must be refused: wrong types,
-1/10/3.5/true, NaN, 1e309, a 5,000-digit number, digits that are not ASCII ("５", "٥",
"𝟓"), zero-width and right-to-left marks, NUL bytes, cells and coordinates out of range,
grids of the wrong shape. Every endpoint also gets the bodies that are wrong as a whole:
duplicate keys, fields that try to set the score, the clock, the solution, the owner or
the status, a body over the size limit, JSON nested 1,000 deep, form-encoded and text/plain
bodies, JSON that is not an object, and lone UTF-16 surrogates (``"\ud800"``, which
decodes to a string that is not text) in a key and in each field. Writes that take no
fields (sign out, cancel a pack) get the same bodies. Query parameters get the same
numbers and ``page_size=1000000000``; ids in paths get digits that are not ASCII,
invisible characters, signs and lengths no id has.

Each answer must be a 4xx in the API's one error shape (never a 500), and none may change
anything in the database.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.factories import UserFactory
from accounts.services import token_create
from play.lifecycle import Player, game_start
from play.models import Game, Move
from puzzles.models import Puzzle, PuzzlePack
from puzzles.packs import pack_create
from tests.play.factories import NINE, empty_cells, puzzle_create

pytestmark = pytest.mark.django_db

STRONG = "tiles-and-lanterns-42"


@dataclass(frozen=True)
class Raw:
    """A JSON literal sent as it is (NaN, 1e309, a 5,000-digit number)."""

    text: str

    @staticmethod
    def inside(value: Any) -> bool:
        if isinstance(value, Raw):
            return True
        if isinstance(value, dict):
            return any(Raw.inside(v) for v in value.values())
        return isinstance(value, list) and any(Raw.inside(v) for v in value)


HUGE = "1" * 5000
NON_ASCII_DIGITS = ["５", "٥", "𝟓"]
INVISIBLE = ["5\u200b", "\u200b5", "\u200f5", "5\u202e", "5\x00"]
# Not a number an integer field can take, whatever its range.
NOT_INTEGERS: list[Any] = [
    3.5,
    True,
    False,
    "",
    "abc",
    "NaN",
    Raw("NaN"),
    Raw("Infinity"),
    Raw("-Infinity"),
    Raw("1e309"),
    Raw("-1e309"),
    Raw(HUGE),
    HUGE,
    "5e0",
    "0x5",
    "1_0",
    " 5",
    [5],
    {"value": 5},
    *NON_ASCII_DIGITS,
    *INVISIBLE,
]
# Not text: a text field must not turn 5 into "5" or true into "True".
NOT_TEXT: list[Any] = [
    -1,
    10,
    3.5,
    True,
    None,
    [],
    {},
    ["a"],
    Raw("NaN"),
    Raw("1e309"),
    Raw(HUGE),
    "a\x00b",
]
INVISIBLE_NAMES = ["\u200bplayer", "play\u200ber", "player\u200f", "\u202eplayer", "\x00"]
# Text that shows nothing, or that bidi controls reorder: no name or label may be one.
INVISIBLE_ONLY = ["\u200f\u200b\u200b", "\u200b", "\u3164", "\u2800", " \u200b ", "\u2060\ufeff"]
BIDI_TEXT = ["\u202epack", "pack\u200f", "\u2066pack\u2069", "\u061cpack"]
# Names mixing alphabets (a Cyrillic а, a Greek ο): refused with nothing else registered.
MIXED_SCRIPT_NAMES = ["аdmin", "pаypal", "gοogle"]
NOT_CHOICES: list[Any] = [
    "insane",
    "",
    "EASY",
    "easy\x00",
    "easy\u200b",
    "\u200feasy",
    5,
    True,
    None,
    ["easy"],
    Raw("NaN"),
]


def _grid_variants(grid: str) -> list[Any]:
    """Grids of the wrong shape or length, with foreign digits or invisible characters.

    (Rows of uneven length that add up to a whole grid are read as that grid: the solver's
    parser counts the cells of a grid written over several lines, not each line's.)
    """
    return [
        "",
        "5",
        "1.3.",
        grid[:-1],
        grid + "1",
        grid + "12",
        "." * 80,
        "." * 82,
        "." * 676,  # 26x26
        grid.replace("5", "５"),
        grid.replace("5", "٥"),
        grid.replace("5", "𝟓"),
        grid[:40] + "\u200b" + grid[40:],
        grid[:40] + "\u200f" + grid[40:],
        grid[:40] + "\x00" + grid[40:],
        grid.replace(".", "-"),
        "x" * 10_001,
        5,
        True,
        None,
        [list(grid[i : i + 9]) for i in range(0, 81, 9)],
        {"rows": grid},
        Raw("NaN"),
    ]


GRID_VARIANTS = _grid_variants(NINE)
# A game needs a puzzle with one solution; the solver's analysis reports clashes and counts.
GAME_GRID_VARIANTS = [*GRID_VARIANTS, "11" + "." * 79, "1" + "." * 80]


@dataclass
class World:
    """Who asks and what they point at."""

    player: APIClient
    staff: APIClient
    anonymous: APIClient
    user: Any
    game: Game
    puzzle: Puzzle
    pack: PuzzlePack
    cell: int


@dataclass
class Endpoint:
    name: str
    url: Callable[[World], str]
    # field -> (bad values, a valid body to put the bad value in)
    fields: dict[str, tuple[list[Any], Callable[[World], dict[str, Any]]]]
    valid: Callable[[World], dict[str, Any]]
    valid_status: int
    who: str = "player"
    extra: dict[str, list[Any]] = field(default_factory=dict)


def _move(w: World, **changes: Any) -> dict[str, Any]:
    return {"client_move_id": str(uuid.uuid4()), "cell": w.cell, "value": 1, **changes}


def _version(w: World) -> dict[str, Any]:
    return {"version": w.game.version}


VERSION = [0, -1, *NOT_INTEGERS, None]


def _simple(name: str) -> Endpoint:
    return Endpoint(
        name=name,
        url=lambda w: f"/api/v1/games/{w.game.pk}/{name}/",
        fields={"version": (VERSION, _version)},
        valid=_version,
        # A fresh game has nothing to undo or redo: the game itself says no, with a 409.
        valid_status=409 if name in ("undo", "redo") else 200,
    )


ENDPOINTS = [
    Endpoint(
        name="register",
        url=lambda w: "/api/v1/auth/register/",
        fields={
            "username": (
                [
                    *NOT_TEXT,
                    *INVISIBLE_NAMES,
                    *INVISIBLE_ONLY,
                    *BIDI_TEXT,
                    *MIXED_SCRIPT_NAMES,
                    "",
                    "x" * 151,
                    "bad name",
                ],
                lambda w: {"username": "newcomer", "password": STRONG},
            ),
            "password": (
                [*NOT_TEXT, "", "short", "1" * 20, "x" * 129],
                lambda w: {"username": "newcomer", "password": STRONG},
            ),
            "email": (
                [*NOT_TEXT, "not-an-address", "a@b\x00.c", "a\u200b@example.com"],
                lambda w: {"username": "newcomer", "password": STRONG},
            ),
        },
        valid=lambda w: {"username": "newcomer", "password": STRONG},
        valid_status=201,
        who="anonymous",
    ),
    Endpoint(
        name="token",
        url=lambda w: "/api/v1/auth/token/",
        fields={
            "username": (
                [*NOT_TEXT, *INVISIBLE_NAMES, ""],
                lambda w: {"username": w.user.username, "password": w.user.raw_password},
            ),
            "password": (
                [*NOT_TEXT, ""],
                lambda w: {"username": w.user.username, "password": w.user.raw_password},
            ),
        },
        valid=lambda w: {"username": w.user.username, "password": w.user.raw_password},
        valid_status=200,
        who="anonymous",
    ),
    Endpoint(
        name="password change",
        url=lambda w: "/api/v1/me/password/",
        fields={
            "old_password": (
                [*NOT_TEXT, "", "wrong-old-password"],
                lambda w: {"old_password": w.user.raw_password, "new_password": STRONG},
            ),
            "new_password": (
                [*NOT_TEXT, "", "short", "12345678901"],
                lambda w: {"old_password": w.user.raw_password, "new_password": STRONG},
            ),
        },
        valid=lambda w: {"old_password": w.user.raw_password, "new_password": STRONG},
        valid_status=200,
    ),
    Endpoint(
        name="password reset",
        url=lambda w: "/api/v1/auth/password-reset/",
        fields={
            "email": (
                [*NOT_TEXT, "", "not-an-address", "a@b\x00.c", "a\u200b@example.com"],
                lambda w: {"email": w.user.email},
            ),
        },
        valid=lambda w: {"email": w.user.email},
        valid_status=202,
        who="anonymous",
    ),
    Endpoint(
        name="account delete",
        url=lambda w: "/api/v1/me/delete/",
        fields={
            "password": (
                [*NOT_TEXT, "", "wrong-password"],
                lambda w: {"password": w.user.raw_password},
            ),
        },
        # Last, as it should be: the account, and with it the game, are gone.
        valid=lambda w: {"password": w.user.raw_password},
        valid_status=204,
    ),
    Endpoint(
        name="games create",
        url=lambda w: "/api/v1/games/",
        fields={
            "puzzle": ([0, -1, 10**12, *NOT_INTEGERS, None], lambda w: {"puzzle": w.puzzle.pk}),
            "difficulty": (NOT_CHOICES, lambda w: {"difficulty": "easy"}),
            "size": (
                [-1, 0, 3, 26, 625, *NOT_INTEGERS, None],
                lambda w: {"difficulty": "easy", "size": 9},
            ),
            "daily": (["maybe", 3.5, 2, [], {}, Raw("NaN"), None], lambda w: {"daily": True}),
            "variant": (NOT_CHOICES, lambda w: {"daily": True}),
            "grid": (GAME_GRID_VARIANTS, lambda w: {"grid": NINE}),
            "mistake_limit": (
                [-1, 0, 100, *NOT_INTEGERS],
                lambda w: {"puzzle": w.puzzle.pk, "mistake_limit": 3},
            ),
        },
        valid=lambda w: {"puzzle": w.puzzle.pk},
        # The player is playing that puzzle already: their game comes back (200).
        valid_status=200,
    ),
    Endpoint(
        name="moves",
        url=lambda w: f"/api/v1/games/{w.game.pk}/moves/",
        fields={
            "client_move_id": (
                ["not-a-uuid", "", 5, True, None, [], str(uuid.uuid4()) + "\x00", Raw("NaN")],
                _move,
            ),
            "cell": ([-1, 81, 624, 625, 10**6, *NOT_INTEGERS, None], _move),
            "value": ([-1, 10, 26, *NOT_INTEGERS, None], _move),
            "kind": (["hint", "VALUE", "", "note\x00", 5, True, None, Raw("NaN")], _move),
            "version": (VERSION, _move),
        },
        valid=lambda w: _move(w, version=w.game.version),
        valid_status=200,
    ),
    Endpoint(
        name="hint",
        url=lambda w: f"/api/v1/games/{w.game.pk}/hint/",
        fields={
            "level": ([0, 4, -1, 10, *NOT_INTEGERS, None], lambda w: {"level": 1}),
            "version": (VERSION, lambda w: {"level": 1}),
        },
        valid=lambda w: {"level": 1, "version": w.game.version},
        valid_status=200,
    ),
    *[
        _simple(name)
        for name in ("undo", "redo", "pause", "resume", "abandon", "auto-notes", "restart")
    ],
    Endpoint(
        name="solver analyse",
        url=lambda w: "/api/v1/solver/analyse/",
        fields={
            "grid": (GRID_VARIANTS, lambda w: {"grid": NINE}),
            "box_rows": (
                [-1, 0, 1, 13, 26, *NOT_INTEGERS, None],
                lambda w: {"grid": NINE, "box_cols": 3},
            ),
            "box_cols": (
                [-1, 0, 1, 13, 26, *NOT_INTEGERS, None],
                lambda w: {"grid": NINE, "box_rows": 3},
            ),
        },
        valid=lambda w: {"grid": NINE},
        valid_status=200,
        who="anonymous",
    ),
    Endpoint(
        name="solver check",
        url=lambda w: "/api/v1/solver/check/",
        fields={
            "grid": (GRID_VARIANTS, lambda w: {"grid": NINE}),
            "box_rows": (
                [-1, 0, 1, 13, *NOT_INTEGERS, None],
                lambda w: {"grid": NINE, "box_cols": 3},
            ),
            "solve": (["maybe", 2, [], {}, None], lambda w: {"grid": NINE}),
        },
        valid=lambda w: {"grid": NINE},
        valid_status=200,
        who="anonymous",
    ),
    Endpoint(
        name="solver hint",
        url=lambda w: "/api/v1/solver/hint/",
        fields={
            "grid": (GAME_GRID_VARIANTS, lambda w: {"grid": NINE}),
            "entries": (GRID_VARIANTS, lambda w: {"grid": NINE, "entries": NINE}),
            "notes": (
                [
                    {"r10c1": "1"},
                    {"r0c1": "1"},
                    {"r1c10": "1"},
                    {"81": [1]},
                    {"-1": [1]},
                    {"１": [1]},
                    {"3": [10]},
                    {"3": [0]},
                    {"3": [-1]},
                    {"3": [3.5]},
                    {"3": [True]},
                    {"3": "５"},
                    {"3": "4\u200b"},
                    {"3": "4\x00"},
                    {"3": [Raw("1e309")]},
                    {"3": [Raw(HUGE)]},
                    {HUGE: [1]},
                    {"3": {"4": 1}},
                    [[3, 4]],
                    "r1c3:4",
                    5,
                    True,
                ],
                lambda w: {"grid": NINE, "notes": {"r1c3": "12"}},
            ),
            "box_rows": ([0, 13, *NOT_INTEGERS], lambda w: {"grid": NINE, "box_cols": 3}),
        },
        valid=lambda w: {"grid": NINE},
        valid_status=200,
        who="anonymous",
    ),
    Endpoint(
        name="packs create",
        url=lambda w: "/api/v1/packs/",
        fields={
            "name": (
                [*NOT_TEXT, *INVISIBLE_ONLY, *BIDI_TEXT, "", " ", "x" * 101],
                lambda w: _pack(),
            ),
            "size": ([-1, 0, 3, 5, 7, 10, 26, *NOT_INTEGERS, None], lambda w: _pack()),
            "difficulty": ([*NOT_CHOICES, "master"], lambda w: _pack()),  # 4x4 is easy only
            "count": ([-1, 0, 10_001, 10**12, *NOT_INTEGERS, None], lambda w: _pack()),
            "symmetry": (["spiral", "", 5, True, None, "none\x00"], lambda w: _pack()),
            "seed": ([*NOT_TEXT, "x" * 65], lambda w: _pack()),
        },
        valid=lambda w: _pack(),
        valid_status=202,
        who="staff",
    ),
]


ENDPOINTS += [
    # Writes that take no fields: every body that holds one is refused, and so is the rest.
    Endpoint(
        name="logout",
        url=lambda w: "/api/v1/auth/logout/",
        fields={},
        valid=lambda w: {},
        valid_status=204,
    ),
    Endpoint(
        name="logout all",
        url=lambda w: "/api/v1/auth/logout-all/",
        fields={},
        valid=lambda w: {},
        valid_status=204,
    ),
    Endpoint(
        name="pack cancel",
        url=lambda w: f"/api/v1/packs/{w.pack.pk}/cancel/",
        fields={},
        valid=lambda w: {},
        valid_status=200,
        who="staff",
    ),
]


def _pack() -> dict[str, Any]:
    return {"name": "matrix", "size": 4, "difficulty": "easy", "count": 1}


# --- Sending ----------------------------------------------------------------------------

_MARK = "\uffffbad-value\uffff"
_MARK_KEY = "\ufffebad-key\ufffe"


def encode(body: Any, bad: Any = None, key: str | None = None) -> bytes:
    """``body`` as JSON with ``bad`` under ``key``; a Raw value goes in as its literal."""
    if key is not None:
        body = {**body, key: _MARK}
    text = json.dumps(body, ensure_ascii=False)
    literal = _literal(bad)
    return text.replace(json.dumps(_MARK, ensure_ascii=False), literal).encode()


def _literal(value: Any) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


EXTRA_FIELDS = {
    "score": 999_999,
    "elapsed_ms": 1,
    "solution": "1" * 81,
    "user": 1,
    "status": "completed",
}


@dataclass
class Bad:
    label: str
    body: bytes
    content_type: str = "application/json"
    status: int = 400
    code: str | None = None
    names: tuple[str, ...] = ()


# JSON escapes of lone surrogates: valid JSON, but the strings they make are not text.
LONE_SURROGATES = ['"\\ud800"', '"a\\udfffb"', '["\\udc00"]', '{"k": "\\ud800"}']


def bad_requests(endpoint: Endpoint, world: World) -> list[Bad]:
    valid = endpoint.valid(world)
    out = [
        Bad(
            f"{name}={value!r}",
            encode(base(world), value, name),
            # A literal JSON cannot hold is refused by the parser, before any field.
            names=() if Raw.inside(value) else (name,),
        )
        for name, (values, base) in endpoint.fields.items()
        for value in values
    ]
    out += [
        Bad(
            f"{name}={literal} (a lone surrogate)",
            encode(base(world), Raw(literal), name),
            code="malformed_request",
            names=(name,),
        )
        for name, (_, base) in endpoint.fields.items()
        for literal in LONE_SURROGATES
    ]
    out += [
        Bad(
            f"a lone surrogate in a key: {literal}",
            encode(valid, Raw("1"), _MARK_KEY).replace(_MARK_KEY.encode(), literal.encode()),
            code="malformed_request",
        )
        for literal in ("\\ud800", "x\\udbff", "\\udfff\\ud800")
    ]
    for name, value in EXTRA_FIELDS.items():
        out.append(
            Bad(f"extra {name}", encode({**valid, name: value}), code="invalid", names=(name,))
        )
    out += [
        Bad("all the extra fields", encode({**valid, **EXTRA_FIELDS}), names=tuple(EXTRA_FIELDS)),
        Bad("a duplicate key", _duplicate(valid or {"a": 1}), code="malformed_request"),
        Bad(
            "a body over the size limit",
            b'{"pad": "' + b"x" * (settings.API_MAX_BODY_BYTES + 1) + b'"}',
            status=413,
            code="request_too_large",
        ),
        Bad("JSON nested 1,000 deep", b"[" * 1000 + b"]" * 1000, code="malformed_request"),
        Bad(
            "JSON nested 1,000 deep in a field",
            encode(valid, Raw('{"a":' * 1000 + "1" + "}" * 1000), "deep"),
            code="malformed_request",
        ),
        Bad(
            "form-encoded",
            "&".join(f"{k}={quote(str(v))}" for k, v in (valid or {"a": 1}).items()).encode(),
            content_type="application/x-www-form-urlencoded",
            code="unsupported_media_type",
        ),
        Bad(
            "multipart",
            b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
            content_type="multipart/form-data; boundary=x",
            code="unsupported_media_type",
        ),
        Bad(
            "text/plain",
            json.dumps(valid).encode(),
            content_type="text/plain",
            code="unsupported_media_type",
        ),
        Bad("malformed JSON", json.dumps(valid).encode()[:-1], code="malformed_request"),
        Bad("not UTF-8", b'{"x": "\xff"}', code="malformed_request"),
        Bad("a NaN literal", encode(valid, Raw("NaN"), "nan"), code="malformed_request"),
        Bad("a list", b"[]", code="invalid"),
        Bad("a string", b'"hello"', code="invalid"),
        Bad("a number", b"5", code="invalid"),
        Bad("null", b"null"),
    ]
    return out


def _duplicate(valid: dict[str, Any]) -> bytes:
    key, value = next(iter(valid.items()))
    inner = json.dumps(valid)[1:-1]
    return ("{" + inner + f", {json.dumps(key)}: {json.dumps(value)}" + "}").encode()


GRID_CODES = {"invalid_grid", "no_solution", "multiple_solutions"}


def problems_with(response: Any, bad: Bad) -> list[str]:
    """What is wrong with the answer to a bad request (nothing, when it is right)."""
    problems = []
    if response.status_code != bad.status:
        problems.append(f"status {response.status_code}, expected {bad.status}")
    if response["Content-Type"] != "application/json":
        return [*problems, f"content type {response['Content-Type']}"]
    body = response.json()
    error = body.get("error") if isinstance(body, dict) else None
    if set(body) != {"error"} or not isinstance(error, dict):
        return [*problems, f"not the error shape: {str(body)[:200]}"]
    if not (isinstance(error.get("code"), str) and isinstance(error.get("message"), str)):
        problems.append(f"error without code and message: {str(error)[:200]}")
    if not error.get("message", "").strip():
        problems.append("an empty message")
    if bad.code is not None and error.get("code") != bad.code:
        problems.append(f"code {error.get('code')!r}, expected {bad.code!r}")
    for name in bad.names:
        # In error.fields, error.field (the solver's grid errors), or the message.
        named = name in (error.get("fields") or {}) or error.get("field") == name
        # A game's or an analysis' only grid: no_solution and multiple_solutions say it.
        named = named or (name == "grid" and error.get("code") in GRID_CODES)
        if not named and name not in error.get("message", ""):
            problems.append(f"the error does not name {name!r}: {error.get('message')!r}")
    return problems


def snapshot(world: World) -> dict[str, Any]:
    """Everything a bad request could have changed."""
    game = Game.objects.get(pk=world.game.pk)
    user = get_user_model().objects.get(pk=world.user.pk)
    return {
        "users": get_user_model().objects.count(),
        "tokens": AuthToken.objects.count(),
        "password": user.password,
        "games": Game.objects.count(),
        "moves": Move.objects.count(),
        "puzzles": Puzzle.objects.count(),
        "packs": PuzzlePack.objects.count(),
        "pack": PuzzlePack.objects.get(pk=world.pack.pk).status,
        "game": {
            name: getattr(game, name)
            for name in (
                "entries",
                "notes",
                "status",
                "version",
                "elapsed_ms",
                "running_since",
                "score",
                "mistakes",
                "hints_used",
                "aids",
                "user_id",
                "finished",
            )
        },
    }


@pytest.fixture
def world(monkeypatch, settings) -> World:
    # Rates and lockouts have their own tests; here every request must reach the view.
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        dict.fromkeys(SimpleRateThrottle.THROTTLE_RATES, "100000/min"),
    )
    settings.AXES_FAILURE_LIMIT = 100_000
    user = UserFactory()
    staff = UserFactory(is_staff=True)
    puzzle = puzzle_create(NINE, difficulty="easy")
    game, _ = game_start(player=Player(user=user), puzzle_id=puzzle.pk)
    pack = pack_create(name="matrix-pack", size=4, difficulty="easy", count=1, enqueue=False)

    def client_of(someone: Any) -> APIClient:
        client = APIClient()
        if someone is not None:
            _, key = token_create(user=someone)
            client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return client

    return World(
        player=client_of(user),
        staff=client_of(staff),
        anonymous=client_of(None),
        user=user,
        game=game,
        puzzle=puzzle,
        pack=pack,
        cell=empty_cells(puzzle)[0],
    )


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e.name for e in ENDPOINTS])
def test_every_bad_body_is_a_4xx_in_the_error_shape_and_changes_nothing(world, endpoint):
    client = getattr(world, endpoint.who)
    url = endpoint.url(world)
    before = snapshot(world)
    failures = []
    for bad in bad_requests(endpoint, world):
        response = client.generic("POST", url, bad.body, content_type=bad.content_type)
        failures += [f"{bad.label}: {p}" for p in problems_with(response, bad)]
    assert failures == [], "\n".join(failures)
    assert snapshot(world) == before

    # The same endpoint takes a good request: the refusals were for the bad values alone.
    response = client.post(url, endpoint.valid(world), format="json")
    assert response.status_code == endpoint.valid_status, response.content


# --- Query parameters -----------------------------------------------------------------

BAD_NUMBERS = [
    "-1",
    "0",
    "3.5",
    "true",
    "NaN",
    "1e309",
    HUGE,
    "",
    "abc",
    *NON_ASCII_DIGITS,
    *INVISIBLE,
]
BAD_PAGES = [*BAD_NUMBERS, "1000000000000"]
BAD_PAGE_SIZES = [*BAD_NUMBERS, "101", "1000000000"]
BAD_LEVELS = ["insane", "", "EASY", "easy\x00", "easy\u200b", "５"]

QUERIES = [
    (
        "puzzles list",
        "/api/v1/puzzles/",
        {
            "size": [*BAD_NUMBERS, "7", "26"],
            "difficulty": BAD_LEVELS,
            "pack": BAD_NUMBERS,
            "page": BAD_PAGES,
            "page_size": BAD_PAGE_SIZES,
        },
        "player",
    ),
    (
        "daily puzzle",
        "/api/v1/puzzles/daily/",
        {
            "size": [*BAD_NUMBERS, "7", "26"],
            "variant": ["sandwich", "", "KILLER", "killer\x00", "[]"],
        },
        "player",
    ),
    (
        "daily puzzles of every variant",
        "/api/v1/puzzles/daily/all/",
        {"size": [*BAD_NUMBERS, "7", "26"]},
        "player",
    ),
    (
        "leaderboards",
        "/api/v1/leaderboards/?difficulty=easy",
        {
            "difficulty": BAD_LEVELS,
            "size": [*BAD_NUMBERS, "3", "26"],
            "period": ["month", "", "DAY", "day\x00"],
            "page": BAD_PAGES,
            "page_size": BAD_PAGE_SIZES,
        },
        "anonymous",
    ),
    (
        "puzzle leaderboard",
        "/api/v1/puzzles/{puzzle}/leaderboard/",
        {"page": BAD_PAGES, "page_size": BAD_PAGE_SIZES},
        "anonymous",
    ),
    (
        "games list",
        "/api/v1/games/",
        {
            "status": ["won", "", "IN_PROGRESS", "paused\x00"],
            "page": BAD_PAGES,
            "page_size": BAD_PAGE_SIZES,
        },
        "player",
    ),
    ("packs list", "/api/v1/packs/", {"page": BAD_PAGES, "page_size": BAD_PAGE_SIZES}, "staff"),
    (
        "pack export",
        "/api/v1/packs/{pack}/export/",
        {"format": ["pdf", "", "TXT", "txt\x00", 5]},
        "staff",
    ),
]


@pytest.mark.parametrize(("name", "url", "params", "who"), QUERIES, ids=[q[0] for q in QUERIES])
def test_every_bad_query_parameter_is_a_400_naming_it(world, name, url, params, who):
    pack = pack_create(name="q", size=4, difficulty="easy", count=1, enqueue=False)
    url = url.format(puzzle=world.puzzle.pk, pack=pack.pk)
    client = getattr(world, who)
    failures = []
    for param, values in params.items():
        for value in values:
            sep = "&" if "?" in url else "?"
            response = client.get(f"{url}{sep}{param}={quote(str(value))}")
            bad = Bad(f"{param}={value!r}", b"", names=(param,))
            failures += [f"{bad.label}: {p}" for p in problems_with(response, bad)]
    assert failures == [], "\n".join(failures)
    assert client.get(url).status_code == 200


# --- Ids in paths -----------------------------------------------------------------------

# Each stands where an id goes. Python's int() reads "１" (full-width), "١" (Arabic-Indic)
# and "𝟏" as 1, so each must fail to match rather than find row 1.
BAD_IDS = [
    "%EF%BC%91",  # １
    "%D9%A1",  # ١
    "%F0%9D%9F%8F",  # 𝟏
    "1%E2%80%8B",  # 1 and a zero-width space
    "%E2%80%8F1",  # a right-to-left mark and 1
    "1%00",
    "%ED%A0%80",  # a surrogate, percent-encoded: not UTF-8
    "%FF",
    "%201",
    "+1",
    "-1",
    "1.0",
    "1e0",
    "0x1",
    "1" + "0" * 18,  # more digits than any id
]
READS = [
    ("/api/v1/games/{game}/", "player"),
    ("/api/v1/puzzles/{puzzle}/", "player"),
    ("/api/v1/puzzles/{puzzle}/leaderboard/", "anonymous"),
    ("/api/v1/packs/{pack}/", "staff"),
    ("/api/v1/packs/{pack}/export/", "staff"),
]


def _with_id(url: str, bad: str) -> str | None:
    """``url`` with its id replaced by ``bad``, or None if it has no id."""
    replaced, count = re.subn(r"/[0-9]+/", f"/{bad}/", url, count=1)
    return replaced if count else None


def test_every_id_in_a_path_that_is_not_ascii_digits_is_a_404_in_the_error_shape(world):
    ids = {"game": world.game.pk, "puzzle": world.puzzle.pk, "pack": world.pack.pk}
    requests = [("GET", url.format(**ids), who, None) for url, who in READS]
    requests += [("POST", e.url(world), e.who, e.valid(world)) for e in ENDPOINTS]
    before = snapshot(world)
    failures, tried = [], 0
    for method, url, who, body in requests:
        for bad_id in BAD_IDS:
            bad_url = _with_id(url, bad_id)
            if bad_url is None:
                continue
            tried += 1
            client = getattr(world, who)
            response = client.generic(method, bad_url, json.dumps(body or {}), "application/json")
            bad = Bad(f"{method} {bad_url}", b"", status=404, code="not_found")
            failures += [f"{bad.label}: {p}" for p in problems_with(response, bad)]
    assert failures == [], "\n".join(failures)
    assert tried == len(BAD_IDS) * (len(READS) + 10)  # the game's 9 actions and a pack's cancel
    assert snapshot(world) == before


# --- Look-alike names and bounded work ----------------------------------------------------


def test_a_name_that_looks_like_a_taken_one_is_a_400_naming_username(world):
    taken = world.user.username  # "player<n>": a digit one looks like a lower-case L
    look_alikes = [taken.replace("1", "l"), taken.replace("a", "\u0251"), taken.upper()]
    before = snapshot(world)
    failures = []
    for name in {n for n in look_alikes if n != taken}:
        body = encode({"username": name, "password": STRONG})
        response = world.anonymous.generic(
            "POST", "/api/v1/auth/register/", body, content_type="application/json"
        )
        failures += problems_with(response, Bad(name, body, names=("username",)))
    assert failures == []
    assert snapshot(world) == before


def test_too_many_starts_and_too_many_moves_answer_in_the_error_shape(world, settings):
    settings.GAME_STARTS_PER_MINUTE = 2
    settings.GAME_MOVES_PER_CELL = 2
    player = world.player
    # The limit counts in fixed minutes: all three starts in one, whatever the machine's
    # speed (the world's own start was in an earlier one).
    minute = (int(time.time()) // 60 + 2) * 60
    with time_machine.travel(minute, tick=False):
        for blank in "53":
            other = puzzle_create(NINE.replace(blank, ".", 1), difficulty="easy")
            started = player.post("/api/v1/games/", {"puzzle": other.pk}, format="json")
            assert started.status_code == 201
        third = puzzle_create(NINE.replace("4", ".", 1), difficulty="easy")
        response = player.post("/api/v1/games/", {"puzzle": third.pk}, format="json")
    assert problems_with(response, Bad("start", b"", status=429, code="too_many_games")) == []
    assert int(response["Retry-After"]) == 60

    url = f"/api/v1/games/{world.game.pk}/moves/"
    note = {"kind": "note", "cell": world.cell, "value": 1}
    for _ in range(2 * 81):
        body = {**note, "client_move_id": str(uuid.uuid4())}
        assert player.post(url, body, format="json").status_code == 200
    response = player.post(url, {**note, "client_move_id": str(uuid.uuid4())}, format="json")
    assert problems_with(response, Bad("move", b"", status=409, code="too_many_moves")) == []
