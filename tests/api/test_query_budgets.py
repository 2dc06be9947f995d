"""What each busy endpoint costs in queries, pinned, with rows enough that an N+1 shows.

Each endpoint is measured with a few rows, then again after more rows were added: the count
must be the same (no query per row) and within its budget (today's count: a change that
costs a query more fails here; one that saves a query does not). Token authentication is one of
the queries (tests/accounts/test_token_auth.py); savepoints are not counted. A write to a game
is its read and one conditional write of the game with its log entry: one statement on
PostgreSQL, two (UPDATE, INSERT) on SQLite.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from accounts.services import token_create
from play.lifecycle import Player, game_start
from play.models import Game, Status
from play.moves import move_apply
from puzzles.models import PackEntry, Puzzle
from puzzles.packs import pack_create
from tests.play.factories import NINE, empty_cells, puzzle_create

pytestmark = pytest.mark.django_db

_DIGIT_ORDERS = itertools.permutations("123456789")


def another_puzzle() -> Puzzle:
    """A new 9x9 puzzle: NINE with its digits relabelled (still one solution)."""
    order = "".join(next(_DIGIT_ORDERS))
    return puzzle_create(NINE.translate(str.maketrans("123456789", order)), difficulty="easy")


def client_of(user: Any) -> APIClient:
    _, key = token_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@dataclass
class Site:
    player: Any
    player_client: APIClient
    staff_client: APIClient
    game: Game
    puzzle: Puzzle
    hint_level: int = 0

    def hint(self) -> Any:
        """The next stage of a hint: each call pays for one more, so each one writes."""
        self.hint_level += 1
        return self.player_client.post(
            f"/api/v1/games/{self.game.pk}/hint/", {"level": self.hint_level}, format="json"
        )

    def add_rows(self, n: int) -> None:
        """n more of everything a list shows: puzzles, games (some finished, with moves),
        other players on the leaderboard, packs with entries."""
        for _ in range(n):
            puzzle = another_puzzle()
            game, _ = game_start(player=Player(user=self.player), puzzle_id=puzzle.pk)
            cell = empty_cells(puzzle)[0]
            move_apply(
                game_id=game.pk,
                player=Player(user=self.player),
                client_move_id=uuid.uuid4(),
                kind="note",
                cell=cell,
                value=1,
            )
            rival = UserFactory()
            rival_game, _ = game_start(player=Player(user=rival), puzzle_id=self.puzzle.pk)
            for finished in (game, rival_game):
                Game.objects.filter(pk=finished.pk).update(
                    status=Status.COMPLETED,
                    counts=True,  # as the gate (integrity.gate) decides for a fair game
                    score=1000 + finished.pk,
                    elapsed_ms=60_000,
                    finished=timezone.now() - timedelta(days=finished.pk % 3),
                    running_since=None,
                )
            pack = pack_create(
                name=f"pack {puzzle.pk}", size=9, difficulty="easy", count=3, enqueue=False
            )
            PackEntry.objects.create(pack=pack, puzzle=puzzle, position=0)


@pytest.fixture
def site() -> Site:
    player = UserFactory()
    puzzle = another_puzzle()
    game, _ = game_start(player=Player(user=player), puzzle_id=puzzle.pk)
    site = Site(
        player=player,
        player_client=client_of(player),
        staff_client=client_of(UserFactory(is_staff=True)),
        game=game,
        puzzle=puzzle,
    )
    site.add_rows(3)
    return site


def statements(captured: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].upper() not in ("BEGIN", "COMMIT")
        and not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]


def _move(site: Site) -> Any:
    cell = empty_cells(site.puzzle)[0]
    return site.player_client.post(
        f"/api/v1/games/{site.game.pk}/moves/",
        {"client_move_id": str(uuid.uuid4()), "cell": cell, "value": 2, "kind": "note"},
        format="json",
    )


# The token, the game's read, and the game's write with its log entry (play.game_store).
GAME_WRITE = 3 if connection.vendor == "postgresql" else 4

BUDGETS: list[tuple[str, int, Callable[[Site], Any]]] = [
    ("game list", 3, lambda s: s.player_client.get("/api/v1/games/")),
    ("game detail", 2, lambda s: s.player_client.get(f"/api/v1/games/{s.game.pk}/")),
    ("a move", GAME_WRITE, _move),
    # A hint also reads the eliminations of the hints applied before it (play.hints).
    ("a hint", GAME_WRITE + 1, lambda s: s.hint()),
    ("puzzle list", 3, lambda s: s.player_client.get("/api/v1/puzzles/")),
    ("pack list", 3, lambda s: s.staff_client.get("/api/v1/packs/")),
    (
        "leaderboard",
        3,
        lambda s: s.player_client.get("/api/v1/leaderboards/", {"difficulty": "easy", "size": 9}),
    ),
    (
        "puzzle leaderboard",
        4,
        lambda s: s.player_client.get(f"/api/v1/puzzles/{s.puzzle.pk}/leaderboard/"),
    ),
    ("techniques", 1, lambda s: s.player_client.get("/api/v1/techniques/")),
    ("technique", 3, lambda s: s.player_client.get("/api/v1/techniques/x_wing/")),
    # 4, one for the ratings per size with their history (ratings.selectors.rating_stats),
    # one for the practice progress (learn.selectors.practice_progress) and one for the
    # player's standing (integrity.players.player_standing: established or provisional).
    ("stats", 7, lambda s: s.player_client.get("/api/v1/me/stats/")),
]


@pytest.mark.parametrize(("name", "budget", "call"), BUDGETS, ids=[b[0] for b in BUDGETS])
def test_each_endpoint_keeps_its_query_budget_whatever_the_rows(site, name, budget, call):
    for client in (site.player_client, site.staff_client):
        assert client.get("/api/v1/me/").status_code == 200  # the token's expiry refresh
    counts = []
    for more in (0, 4):
        site.add_rows(more)
        with CaptureQueriesContext(connection) as captured:
            response = call(site)
        assert response.status_code == 200, response.content
        counts.append(len(statements(captured)))
        body = response.json()
        if "results" in body:
            assert len(body["results"]) >= 3
    # The same with more rows (no query per row), and within the budget.
    assert counts[0] == counts[1] <= budget, "\n".join(statements(captured))
