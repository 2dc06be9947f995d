"""The migration that brings provisional players establishes those with a counting game."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.factories import UserFactory
from integrity.models import PlayerStanding
from play.models import Game
from tests.play.factories import FOUR, puzzle_create

BEFORE = ("integrity", "0002_player_review_and_game_trace")
AFTER = ("integrity", "0003_player_standing")


@pytest.fixture
def _latest_migrations_after():
    """Migrate every app forward again, even when the test fails half way."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_latest_migrations_after")
def test_players_whose_games_counted_before_are_established_and_no_one_else():
    counted, waiting = UserFactory(established=False), UserFactory(established=False)
    puzzle = puzzle_create(FOUR)
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    finished = timezone.now()
    for user, counts in ((counted, True), (waiting, False)):
        Game.objects.create(
            user=user, puzzle=puzzle, entries=puzzle.solution, status="completed",
            counts=counts, standing="counts" if counts else "flagged", finished=finished,
        )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([AFTER])

    (standing,) = PlayerStanding.objects.all()
    assert (standing.user_id, standing.by, standing.established) == (
        counted.pk,
        "before",
        finished,
    )
