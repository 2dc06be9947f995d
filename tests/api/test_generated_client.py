"""A client generated from the live schema by openapi-python-client plays a game.

This is the first step of many a mobile or script developer: if the generator warns
about the schema, or drops or misreads an error model, the test fails.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from play.models import Game
from tests.play.factories import FOUR, empty_cells, puzzle_create, value_at, wrong_value_at

PACKAGE = "sudoku_api_client"
# No post hooks: the generator would otherwise run ruff over its output (and warn when
# ruff is not on PATH), which this test does not need.
CONFIG = "post_hooks: []\n"


@pytest.fixture
def generated(live_server: Any, tmp_path: Path) -> Iterator[ModuleType]:
    """The package openapi-python-client makes from the server's schema, imported."""
    schema = httpx.get(
        f"{live_server.url}/api/v1/schema/",
        headers={"Accept": "application/vnd.oai.openapi+json"},
    )
    assert schema.status_code == 200
    (tmp_path / "schema.json").write_bytes(schema.content)
    (tmp_path / "config.yml").write_text(CONFIG)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            "schema.json",
            "--config",
            "config.yml",
            "--meta",
            "none",
            "--output-path",
            PACKAGE,
            "--fail-on-warning",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    # --fail-on-warning stops on parse warnings; nothing else may be said either.
    assert output.strip() == f"Generating {PACKAGE}", output
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def _api(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.api.{name}")


def _models() -> Any:
    return importlib.import_module(f"{PACKAGE}.models")


def test_every_generated_operation_reads_its_errors_as_the_error_model(generated):
    operations = [
        path
        for path in Path(generated.__file__).parent.glob("api/*/*.py")
        if path.name != "__init__.py"
    ]
    assert len(operations) >= 30
    for path in operations:
        assert "Error.from_dict(" in path.read_text(), path.name


@pytest.fixture
def client(generated: ModuleType, live_server: Any, user: Any) -> Iterator[Any]:
    """A generated client signed in with a token from the generated token call."""
    models = _models()
    with generated.Client(base_url=live_server.url) as anonymous:
        signed_in = _api("auth.auth_token_create").sync_detailed(
            client=anonymous,
            body=models.TokenInputRequest(username=user.username, password=user.raw_password),
        )
    assert signed_in.status_code == 200, signed_in.content
    assert isinstance(signed_in.parsed, models.TokenOutput)
    # Closed at the end: an open connection would hold the server's database session.
    with generated.AuthenticatedClient(
        base_url=live_server.url,
        token=signed_in.parsed.token,
        prefix="Token",
        raise_on_unexpected_status=True,
    ) as authenticated:
        yield authenticated


def test_a_generated_client_plays_a_game(client, transactional_db):
    models = _models()
    puzzle = puzzle_create(FOUR, difficulty="easy")

    # A new game of a 4x4 easy puzzle, through the generated enums.
    created = _api("games.games_create").sync_detailed(
        client=client,
        body=models.GameCreateInputRequest(
            difficulty=models.DifficultyEnum.EASY, size=models.SizeEnum.VALUE_4
        ),
    )
    assert created.status_code == 201, created.content
    game = created.parsed
    assert isinstance(game, models.Game)
    assert game.puzzle.id == puzzle.pk
    assert game.status == models.GameStatusEnum.IN_PROGRESS
    assert game.solution is None

    move = _api("games.games_moves_create")

    def play(cell: int, value: int, version: int | None = None) -> Any:
        body = models.MoveInputRequest(client_move_id=uuid.uuid4(), cell=cell, value=value)
        if version is not None:
            body.version = version
        return move.sync_detailed(str(game.id), client=client, body=body)

    empty = empty_cells(puzzle)

    # A wrong value: counted as a mistake, and said to be wrong.
    wrong = play(empty[0], wrong_value_at(puzzle, empty[0]))
    assert wrong.status_code == 200, wrong.content
    assert isinstance(wrong.parsed, models.MoveOutput)
    assert wrong.parsed.correct is False
    assert wrong.parsed.game.mistakes == 1

    # A hint: the first stage says where to look.
    hinted = _api("games.games_hint_create").sync_detailed(
        str(game.id), client=client, body=models.HintInputRequest(level=1)
    )
    assert hinted.status_code == 200, hinted.content
    assert isinstance(hinted.parsed, models.HintOutput)
    assert hinted.parsed.hint.level == 1
    assert hinted.parsed.game.hints_used == 1

    # A given cell: a 409 read as the Error model, not as a stale version.
    given = next(cell for cell, ch in enumerate(puzzle.givens) if ch != ".")
    refused = play(given, 1)
    assert refused.status_code == 409
    assert type(refused.parsed) is models.Error, refused.content
    assert refused.parsed.error.code == "cell_is_given"

    # An old version: a 409 read as StaleVersionError, with the game as it is.
    stale = play(empty[1], value_at(puzzle, empty[1]), version=1)
    assert stale.status_code == 409
    assert type(stale.parsed) is models.StaleVersionError, stale.content
    assert stale.parsed.error.code == models.StaleVersionErrorDetailCode.STALE_VERSION
    assert stale.parsed.error.game.id == game.id
    assert stale.parsed.error.version == stale.parsed.error.game.version > 1

    # Finish: every empty cell gets its value (the wrong one is put right).
    for cell in empty:
        answer = play(cell, value_at(puzzle, cell))
        assert answer.status_code == 200, answer.content
        assert answer.parsed.correct is True
    assert answer.parsed.completed is True
    finished = answer.parsed.game
    assert finished.status == models.GameStatusEnum.COMPLETED
    assert finished.solution == puzzle.solution
    assert Game.objects.get(pk=game.id).status == "completed"

    # The statistics count the game.
    stats = _api("me.me_stats_retrieve").sync_detailed(client=client)
    assert stats.status_code == 200, stats.content
    assert isinstance(stats.parsed, models.Stats)
    assert (stats.parsed.played, stats.parsed.completed) == (1, 1)
    group = stats.parsed.groups[0]
    assert (group.size, group.difficulty, group.completed) == (4, "easy", 1)
