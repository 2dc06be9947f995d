"""Property-based: schemathesis sends every operation of /api/v1/schema/ valid and invalid
data over HTTP to a live test server, signed in with a token. Every answer must be below
500, in the API's one error shape when it is an error, with a code the operation lists
for that status, and exactly what the schema documents (status code, content type and
body).

Bounded and reproducible: ``max_examples`` per operation and phase is small, and
``derandomize`` makes every run send the same requests.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from typing import Any

import hypothesis
import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from rest_framework.throttling import SimpleRateThrottle
from schemathesis.generation import GenerationMode

from accounts.factories import UserFactory
from accounts.services import token_create
from play.lifecycle import Player, game_start
from puzzles.packs import pack_create
from tests.play.factories import NINE, puzzle_create

# The document /api/v1/schema/ serves, read once at collection: one test per operation.
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", get_wsgi_application())
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
schema.config.phases.update(phases=["examples", "coverage", "fuzzing"])

MAX_EXAMPLES = 20

# Every check but one: positive_data_acceptance wants a 2xx for any schema-valid body, and
# the API has rules a JSON schema cannot state (exactly one of difficulty, puzzle, grid or
# daily; the old password must match; a grid must have one solution; a pack name must be
# free). Those answers are documented 400s and are checked like every other response.
EXCLUDED_CHECKS = [schemathesis.checks.positive_data_acceptance]


class World:
    """What a fuzzed request may point at: a staff player's token, their games, a pack."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.user = UserFactory(is_staff=True)
        _, key = token_create(user=self.user)
        self.headers = {"Authorization": f"Token {key}"}
        self.puzzle = puzzle_create(NINE)
        self.move_ids = (uuid.UUID(int=n) for n in itertools.count(1))
        self.game, _ = game_start(player=Player(user=self.user), puzzle_id=self.puzzle.pk)
        self.pack = pack_create(
            name="fuzz", size=4, difficulty="easy", count=2, requested_by=self.user, enqueue=False
        )

    def real_id(self, path: str) -> int:
        if path.startswith("/api/v1/games/"):
            return self.game.pk
        if path.startswith("/api/v1/packs/"):
            return self.pack.pk
        return self.puzzle.pk


@pytest.fixture
def world(live_server, monkeypatch, settings) -> Iterator[World]:
    # A pack asked for is recorded, not generated: no message may reach a broker.
    monkeypatch.setattr("puzzles.packs._enqueue_chunks", lambda *args, **kwargs: None)
    # Rates and lockouts would turn most requests into 429s after the first few; they
    # have tests of their own (test_throttling.py). Here every request reaches the view.
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        dict.fromkeys(SimpleRateThrottle.THROTTLE_RATES, "100000/min"),
    )
    settings.AXES_FAILURE_LIMIT = 100_000
    yield World(live_server.url)


def _aim_at_real_rows(case: Any, world: World) -> None:
    """Point the valid cases that name an id at a row that exists, so the fuzz reaches
    moves, hints and exports (the invalid ones, and the coverage phase, try ids that do
    not exist)."""
    ident = (case.path_parameters or {}).get("id")
    if case.meta is None or case.meta.generation.mode != GenerationMode.POSITIVE:
        return
    if ident is not None:
        case.path_parameters["id"] = world.real_id(case.operation.path)
    if isinstance(case.body, dict) and "client_move_id" in case.body:
        # The same client_move_id for another move is a 422 by design; keep them fresh.
        case.body["client_move_id"] = str(next(world.move_ids))


@pytest.mark.slow
@schema.parametrize()
@hypothesis.settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,  # the same inputs every run: CI never flips on luck
    deadline=None,
    database=None,
    suppress_health_check=list(hypothesis.HealthCheck),
)
def test_every_operation_answers_as_documented_and_never_500(case, world):
    _aim_at_real_rows(case, world)
    response = case.call_and_validate(
        base_url=world.base_url, headers=world.headers, excluded_checks=EXCLUDED_CHECKS
    )
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        assert isinstance(body["error"]["code"], str)
        assert isinstance(body["error"]["message"], str)
        # The code is one the operation lists for that status (a method it does not have
        # is the one undocumented error, checked by schemathesis' unsupported_method).
        responses = case.operation.definition.raw["responses"]
        documented = responses.get(str(response.status_code), {"x-error-codes": []})
        if response.status_code == 405:
            documented = {"x-error-codes": ["method_not_allowed"]}
        assert body["error"]["code"] in documented["x-error-codes"], (
            response.status_code,
            body,
        )
