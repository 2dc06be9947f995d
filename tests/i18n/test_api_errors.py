"""Every error code the API documents answers in Chinese when asked (Accept-Language:
zh-Hans), while the code and the field names stay the same.

Each code in the schema's ``x-error-codes`` has a way to provoke it here: a request where
one can be made, else the service or exception that raises it, rendered by the API's
exception handler. A code added to the API without one fails the first test.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.test import override_settings
from django.utils import translation
from rest_framework import exceptions
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from accounts.services import token_create
from play.disclosure import PuzzleInPlay
from play.lifecycle import Player, game_start
from puzzles import packs
from puzzles.constraint_daily import ConstraintDailyAbsent
from puzzles.models import PuzzlePack
from sudokusite.errors import Conflict, api_exception_handler
from tests.i18n.english import API_ALLOWED, english_words
from tests.play.factories import FOUR, FOUR_B, NINE, empty_cells, puzzle_create, value_at

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
QUOTED = re.compile(r"'[^']*'")


def client_for(user=None) -> APIClient:
    client = APIClient(**ZH)
    if user is not None:
        _, key = token_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}", **ZH)
    return client


class Ctx:
    def __init__(self) -> None:
        self.user = UserFactory()
        self.client = client_for(self.user)
        self.four = puzzle_create(FOUR)
        self.game, _ = game_start(player=Player(user=self.user), puzzle_id=self.four.pk)
        self.url = f"/api/v1/games/{self.game.pk}/"

    def move(self, cell: int, value: int, **extra: Any):
        body = {
            "cell": cell,
            "value": value,
            "kind": "value",
            "version": self.game.version,
            "client_move_id": str(uuid.uuid4()),
        }
        return self.client.post(self.url + "moves/", {**body, **extra}, format="json")


def handled(exc: Exception):
    with translation.override("zh-hans"):
        return api_exception_handler(exc, {"request": None, "view": None})


def _no_practice_puzzle(c: Ctx, monkeypatch):
    from learn import services

    monkeypatch.setattr(services, "practice_puzzle_make", lambda **kw: None)
    return c.client.post("/api/v1/games/", {"technique": "hidden_single", "size": 6}, format="json")


def _given(c: Ctx):
    return c.move(FOUR.index("1"), 2)


def _has_value(c: Ctx):
    cell = empty_cells(c.four)[0]
    c.move(cell, value_at(c.four, cell))
    c.game.refresh_from_db()
    return c.move(cell, 1, kind="note")


def _finished(c: Ctx):
    c.client.post(c.url + "abandon/", {}, format="json")
    return c.move(empty_cells(c.four)[0], 1)


def _paused(c: Ctx):
    c.client.post(c.url + "pause/", {"version": c.game.version}, format="json")
    c.game.refresh_from_db()
    return c.move(empty_cells(c.four)[0], 1)


def _hint_unavailable(c: Ctx, monkeypatch):
    import solver.logic.classic
    from solver import BudgetExceeded

    def too_hard(*args: Any, **kwargs: Any):
        raise BudgetExceeded("spent")

    monkeypatch.setattr(solver.logic.classic, "next_step", too_hard)
    return c.client.post(c.url + "hint/", {"level": 1}, format="json")


def _idempotency(c: Ctx):
    cell = empty_cells(c.four)[0]
    c.move(cell, value_at(c.four, cell), client_move_id="5f4c1a2e-0000-4000-8000-000000000001")
    c.game.refresh_from_db()
    return c.move(cell, 1, client_move_id="5f4c1a2e-0000-4000-8000-000000000001")


def _stale(c: Ctx):
    return c.move(empty_cells(c.four)[0], 1, version=c.game.version + 5)


def _locked(c: Ctx):
    anonymous = client_for()
    for _ in range(6):
        response = anonymous.post(
            "/api/v1/auth/token/",
            {"username": c.user.username, "password": "wrong-password-1"},
            format="json",
        )
    return response


def _protected(c: Ctx):
    staff = UserFactory(is_staff=True)
    return client_for(staff).post(
        "/api/v1/me/delete/", {"password": staff.raw_password}, format="json"
    )


def _staff() -> APIClient:
    return client_for(UserFactory(is_staff=True))


def _pack_invalid(field: str, **bad: Any):
    def provoke(c: Ctx):
        request = {"name": "p", "size": 9, "difficulty": "easy", "count": 5, **bad}
        try:
            with translation.override("zh-hans"):  # as a request in Chinese raises it
                packs.pack_request_validate(**request)
        except packs.PackRequestInvalid as exc:
            assert exc.code == f"invalid_{field}"
            return handled(exc)
        raise AssertionError(f"{request} was accepted")

    return provoke


def _in_chinese(provoke: Any, c: Ctx):
    """Raise the service's error with Chinese active, as a request in Chinese would."""
    with translation.override("zh-hans"):
        return provoke(c)


def _pack_taken(c: Ctx):
    staff = _staff()
    body = {"name": "Spring", "size": 4, "difficulty": "easy", "count": 2}
    staff.post("/api/v1/packs/", body, format="json")
    return staff.post("/api/v1/packs/", body, format="json")


def _pack_not_active(c: Ctx):
    pack = packs.pack_create(name="Done", size=4, difficulty="easy", count=2, enqueue=False)
    PuzzlePack.objects.filter(pk=pack.pk).update(status="done")
    return _staff().post(f"/api/v1/packs/{pack.pk}/cancel/", {}, format="json")


def _grid(grid: Any):
    return lambda c: c.client.post("/api/v1/solver/hint/", {"grid": grid}, format="json")


@override_settings(SOLVER_NODE_BUDGET=100, SOLVER_LOGIC_BUDGET=1)
def _too_hard(c: Ctx):
    return c.client.post("/api/v1/solver/analyse/", {"grid": NINE}, format="json")


@override_settings(API_MAX_BODY_BYTES=1024)
def _too_large(c: Ctx):
    return c.client.post("/api/v1/solver/analyse/", {"grid": "." * 2000}, format="json")


def _race_game(c: Ctx, action: str, body: dict[str, Any]):
    from races.services import race_create

    race = race_create(host=c.user, size=4, difficulty="easy")
    game, _ = game_start(
        player=Player(user=c.user), puzzle_id=puzzle_create(FOUR_B).pk, race_id=race.pk
    )
    return c.client.post(f"/api/v1/games/{game.pk}/{action}/", body, format="json")


def _race(error: str):
    def provoke(c: Ctx):
        from races import errors

        return handled(getattr(errors, error)())

    return provoke


TRIGGERS: dict[str, Callable[..., Any]] = {
    "aids_off_in_race": lambda c: _race_game(c, "auto-notes", {}),
    "hints_off_in_race": lambda c: _race_game(c, "hint", {"level": 1}),
    "race_not_found": lambda c: c.client.get("/api/v1/races/nope/"),
    "race_full": _race("RaceFull"),
    "race_started": _race("RaceStarted"),
    "race_not_finished": _race("RaceNotFinished"),
    "daily_already_played": _race("DailyAlreadyPlayed"),
    "too_many_races": _race("TooManyRaces"),
    "host_cannot_leave": _race("HostCannotLeave"),
    "not_host": _race("NotHost"),
    "account_protected": _protected,
    "authentication_failed": lambda c: APIClient(HTTP_AUTHORIZATION="Token nope", **ZH).get(
        "/api/v1/me/"
    ),
    "bank_empty": lambda c: c.client.get("/api/v1/puzzles/daily/?size=16"),
    "cell_has_value": _has_value,
    "cell_is_given": _given,
    "conflict": lambda c: handled(Conflict()),
    "game_finished": _finished,
    "game_paused": _paused,
    "hint_unavailable": _hint_unavailable,
    "idempotency_conflict": _idempotency,
    "invalid": lambda c: c.move("x", 1),
    "invalid_count": _pack_invalid("count", count=0),
    "invalid_credentials": lambda c: client_for().post(
        "/api/v1/auth/token/", {"username": "nobody", "password": "wrong-1"}, format="json"
    ),
    "invalid_difficulty": _pack_invalid("difficulty", size=16, difficulty="master"),
    "invalid_grid": _grid("12x"),
    "invalid_name": _pack_invalid("name", name=" "),
    "invalid_size": _pack_invalid("size", size=7),
    "invalid_symmetry": _pack_invalid("symmetry", symmetry="spiral"),
    "invalid_technique": _pack_invalid("technique", technique="death_blossom"),
    "invalid_variant": lambda c: _in_chinese(
        _pack_invalid("variant", variant="killer", symmetry="mirror"), c
    ),
    "unknown_technique": lambda c: c.client.post(
        "/api/v1/games/", {"technique": "death_blossom"}, format="json"
    ),
    "technique_not_on_size": lambda c: c.client.post(
        "/api/v1/games/", {"technique": "swordfish", "size": 4}, format="json"
    ),
    "technique_not_on_variant": lambda c: c.client.post(
        "/api/v1/games/", {"technique": "cage_house", "variant": "classic"}, format="json"
    ),
    "no_practice_puzzle": _no_practice_puzzle,
    "no_constraint_daily": lambda c: handled(ConstraintDailyAbsent()),
    # An empty stock of a kind too slow to make in a request (learn.constraint_practice).
    "practice_puzzle_not_ready": lambda c: c.client.post(
        "/api/v1/games/", {"technique": "antiknight"}, format="json"
    ),
    "game_not_finished": lambda c: c.client.get(c.url + "replay/"),
    "puzzle_in_play": lambda c: handled(PuzzleInPlay()),
    "login_locked": _locked,
    "malformed_request": lambda c: c.client.post(
        c.url + "moves/", '{"cell": ', content_type="application/json"
    ),
    "multiple_solutions": _grid("." * 16),
    "no_puzzle_available": lambda c: c.client.post(
        "/api/v1/games/", {"size": 16, "difficulty": "master"}, format="json"
    ),
    "no_solution": _grid("11" + "." * 14),
    "not_acceptable": lambda c: c.client.get(c.url, HTTP_ACCEPT="text/csv"),
    "not_authenticated": lambda c: client_for().get("/api/v1/me/"),
    "not_found": lambda c: c.client.get("/api/v1/games/999999/"),
    "nothing_to_redo": lambda c: c.client.post(
        c.url + "redo/", {"version": c.game.version}, format="json"
    ),
    "nothing_to_undo": lambda c: c.client.post(
        c.url + "undo/", {"version": c.game.version}, format="json"
    ),
    "pack_name_taken": _pack_taken,
    "pack_not_active": _pack_not_active,
    "permission_denied": lambda c: c.client.get("/api/v1/packs/"),
    "request_too_large": _too_large,
    "stale_version": _stale,
    "throttled": lambda c: _in_chinese(lambda _: handled(exceptions.Throttled(wait=30)), c),
    "too_hard": _too_hard,
    "unsupported_media_type": lambda c: c.client.post(
        c.url + "moves/", "cell=1", content_type="text/plain"
    ),
}


def test_every_documented_error_code_has_a_trigger_here(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    codes = {
        code
        for path in schema["paths"].values()
        for operation in path.values()
        for response in operation.get("responses", {}).values()
        for code in response.get("x-error-codes", [])
    }
    assert codes - set(TRIGGERS) == set(), "add a trigger for the new code"


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_the_error_message_of_every_code_is_in_chinese(code, monkeypatch):
    ctx = Ctx()
    trigger = TRIGGERS[code]
    if "monkeypatch" in trigger.__code__.co_varnames[: trigger.__code__.co_argcount]:
        response = trigger(ctx, monkeypatch)
    else:
        response = trigger(ctx)
    body = response.data if not hasattr(response, "json") else response.json()
    error = body["error"]
    assert error["code"] == code, error
    message = QUOTED.sub(" ", error["message"])  # the input, echoed as it was sent
    fields = set(error.get("fields") or {})
    assert english_words(message, API_ALLOWED | fields) == [], message
    assert any("\u4e00" <= ch <= "\u9fff" for ch in message), message
    for field, messages in (error.get("fields") or {}).items():
        for text in messages if isinstance(messages, list) else [messages]:
            assert english_words(str(text), API_ALLOWED | {field}) == [], text


def test_a_hint_answers_in_chinese_with_the_same_codes_and_params(client):
    body = {"grid": NINE}
    english = APIClient().post("/api/v1/solver/hint/", body, format="json").json()["step"]
    chinese = client_for().post("/api/v1/solver/hint/", body, format="json").json()["step"]
    assert chinese["technique"] == english["technique"]
    assert chinese["params"] == english["params"] and chinese["cells"] == english["cells"]
    assert chinese["sentence"] != english["sentence"]
    assert english_words(chinese["sentence"]) == [] and english_words(chinese["name"]) == []


def test_an_analysis_lists_its_steps_in_chinese():
    response = client_for().post("/api/v1/solver/analyse/", {"grid": NINE}, format="json")
    steps = response.json()["steps"]
    assert steps
    for step in steps:
        assert english_words(step["sentence"]) == [], step["sentence"]
        assert all(english_words(name) == [] for name in step["unit_names"])


def test_an_analysis_names_the_clashing_unit_in_chinese():
    response = client_for().post(
        "/api/v1/solver/analyse/", {"grid": "11" + "." * 14}, format="json"
    )
    assert response.status_code == 200
    clash = response.json()["conflicts"][0]
    assert clash["unit_name"] == "第1行" and clash["kind"] == "row"
