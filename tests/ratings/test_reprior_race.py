"""The reprior against a game finishing on the same puzzle, on PostgreSQL: the game's
result is never overwritten by the new prior.

Real connections, one per thread; the game holds its row until the reprior is seen
waiting for it (pg_stat_activity), so the order is forced, not hoped for.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django.utils import timezone

from play.models import Game
from ratings.models import PuzzleRating
from ratings.prior import PRIOR_DEVIATION, prior_rating
from ratings.services import Reprior, puzzle_ratings_reprior, rating_record_game
from tests.play.factories import NINE, puzzle_create

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _someone_waits_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def _thread(work, results: dict, name: str) -> threading.Thread:
    def runner() -> None:
        try:
            results[name] = work()
        finally:
            connection.close()

    thread = threading.Thread(target=runner)
    thread.start()
    return thread


def test_a_game_finishing_during_the_reprior_keeps_its_result(user):
    puzzle = puzzle_create(NINE, score=2860)
    PuzzleRating.objects.create(
        puzzle=puzzle, size=9, rating=2050.0, prior=2050.0, deviation=PRIOR_DEVIATION
    )
    game = Game.objects.create(
        user=user, puzzle=puzzle, entries=puzzle.solution, status="completed",
        finished=timezone.now(), elapsed_ms=120_000, ranked=True,
        counts=True, standing="counts",  # the gate let it count (integrity.gate)
    )  # fmt: skip
    holding, release = threading.Event(), threading.Event()
    results: dict = {}

    def finish():
        with transaction.atomic():
            change = rating_record_game(game=Game.objects.select_related("puzzle").get(pk=game.pk))
            holding.set()
            release.wait(timeout=60)
        return change

    finisher = _thread(finish, results, "change")
    assert holding.wait(timeout=60)
    repriorer = _thread(puzzle_ratings_reprior, results, "reprior")
    for _ in range(6000):  # a bound on the wait, not a timing: the order is what counts
        if _someone_waits_for_a_lock() or not repriorer.is_alive():
            break
        time.sleep(0.01)
    release.set()
    finisher.join(timeout=60)
    repriorer.join(timeout=60)
    row = PuzzleRating.objects.get(puzzle=puzzle)
    assert results["reprior"] == Reprior(played=1)
    assert row.plays == 1
    assert row.rating == pytest.approx(results["change"].puzzle_after)
    assert row.prior == pytest.approx(prior_rating(size=9, score=2860))
