"""The migration to ratings per variant keeps every row stored before as classic play."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.factories import UserFactory
from play.models import Game
from ratings.models import PlayerRating, PuzzleRating, RatingChange
from tests.play.factories import FOUR, FOUR_B, puzzle_create

BEFORE = ("ratings", "0002_backfill_puzzle_ratings")
AFTER = ("ratings", "0003_variant")


@pytest.fixture
def _latest_migrations_after():
    """Migrate every app forward again, even when the test fails half way."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_latest_migrations_after")
def test_the_migration_keeps_the_ratings_stored_before_it_as_classic():
    user = UserFactory()
    classic = puzzle_create(FOUR)
    killer = puzzle_create(FOUR_B, variant="killer")  # a classic prior, never played
    game = Game.objects.create(user=user, puzzle=classic, entries=classic.givens)
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    old.get_model("ratings", "PlayerRating").objects.create(
        user_id=user.pk, size=4, rating=1620.0, deviation=90.0, games=12
    )
    OldPuzzleRating = old.get_model("ratings", "PuzzleRating")
    for puzzle in (classic, killer):
        OldPuzzleRating.objects.create(
            puzzle_id=puzzle.pk, size=4, rating=1180.0, deviation=200.0, prior=1200.0, plays=0
        )
    old.get_model("ratings", "RatingChange").objects.create(
        game_id=game.pk, user_id=user.pk, puzzle_id=classic.pk, size=4, outcome=0.8,
        player_before=1600.0, player_after=1620.0, player_deviation=90.0,
        puzzle_before=1200.0, puzzle_after=1180.0, puzzle_deviation=200.0,
        created=timezone.now(),
    )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([AFTER])

    player = PlayerRating.objects.get(user=user)
    assert (player.variant, player.size, player.rating, player.games) == ("classic", 4, 1620.0, 12)
    change = RatingChange.objects.defer("reversed").get(game=game)  # a later column
    assert (change.variant, change.player_after) == ("classic", 1620.0)
    (puzzle,) = PuzzleRating.objects.all()  # the variant puzzle's classic prior is dropped
    assert (puzzle.puzzle_id, puzzle.variant, puzzle.rating) == (classic.pk, "classic", 1180.0)
    # The upsert now keys on (user, variant, size): a Killer 4x4 rating is a second row.
    PlayerRating.objects.create(user=user, variant="killer", size=4)
    assert PlayerRating.objects.filter(user=user).count() == 2
