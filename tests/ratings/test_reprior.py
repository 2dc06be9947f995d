"""Putting the stored ratings on a refitted prior: unplayed puzzles start again, played
ones keep what their games taught, and a second run changes nothing."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.models import PuzzleRating
from ratings.prior import PRIOR_DEVIATION, prior_rating
from ratings.services import Reprior, puzzle_ratings_reprior
from solver.logic.grade import GRADER_VERSION
from tests.play.factories import FOUR, FOUR_B, NINE, puzzle_create

pytestmark = pytest.mark.django_db

OLD = {"rating": 2050.0, "prior": 2050.0, "deviation": PRIOR_DEVIATION}


def rated(givens: str, *, plays: int = 0, score: int = 2860, **state: float) -> PuzzleRating:
    puzzle = puzzle_create(givens, score=score)
    fields = {**OLD, **state}
    return PuzzleRating.objects.create(puzzle=puzzle, size=puzzle.size, plays=plays, **fields)


def test_an_unplayed_puzzle_starts_again_from_the_new_prior():
    row = rated(NINE, deviation=180.0, volatility=0.07)
    assert puzzle_ratings_reprior() == Reprior(reset=1)
    row.refresh_from_db()
    new = prior_rating(size=9, score=2860)
    assert new < 1400
    assert row.rating == row.prior == pytest.approx(new)
    assert row.deviation == PRIOR_DEVIATION and row.volatility == 0.06


def test_a_played_puzzle_keeps_its_rating_and_records_the_new_prior():
    row = rated(NINE, plays=3, rating=1810.0, deviation=140.0)
    assert puzzle_ratings_reprior() == Reprior(played=1)
    row.refresh_from_db()
    assert (row.rating, row.deviation, row.plays) == (1810.0, 140.0, 3)
    assert row.prior == pytest.approx(prior_rating(size=9, score=2860))


def test_a_second_run_changes_nothing():
    rated(NINE)
    rated(FOUR, plays=2)
    first = puzzle_ratings_reprior()
    assert (first.reset, first.played) == (1, 1)
    assert puzzle_ratings_reprior() == Reprior(unchanged=2)


def test_a_dry_run_counts_and_writes_nothing():
    row = rated(NINE)
    assert puzzle_ratings_reprior(dry_run=True) == Reprior(reset=1)
    row.refresh_from_db()
    assert (row.rating, row.prior) == (OLD["rating"], OLD["prior"])


def test_a_puzzle_graded_by_an_older_grader_is_left_for_the_regrade():
    row = rated(NINE)
    type(row.puzzle).objects.filter(pk=row.puzzle_id).update(grader_version=GRADER_VERSION - 1)
    assert puzzle_ratings_reprior() == Reprior(stale=1)
    row.refresh_from_db()
    assert row.rating == OLD["rating"]


def test_it_walks_in_bounded_batches():
    for givens in (NINE, FOUR, FOUR_B):
        rated(givens)
    with CaptureQueriesContext(connection) as queries:
        assert puzzle_ratings_reprior(batch=2).reset == 3
    reads = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]
    assert len(reads) == 3  # a batch of two, a batch of one, then the empty read
    assert all("LIMIT 2" in sql for sql in reads)


def test_only_the_size_asked_for_is_touched():
    nine, four = rated(NINE), rated(FOUR)
    assert puzzle_ratings_reprior(size=4) == Reprior(reset=1)
    nine.refresh_from_db()
    four.refresh_from_db()
    assert nine.rating == OLD["rating"] and four.rating != OLD["rating"]


def test_the_command_reports_what_it_did_and_a_dry_run_what_it_would(capsys):
    rated(NINE)
    call_command("ratings_reprior", "--dry-run")
    assert "1 unplayed puzzle ratings would be reset" in capsys.readouterr().out
    call_command("ratings_reprior", "--batch", "10")
    assert "1 unplayed puzzle ratings were reset" in capsys.readouterr().out
    call_command("ratings_reprior")
    assert "1 unchanged" in capsys.readouterr().out


def test_the_command_refuses_an_empty_batch():
    with pytest.raises(CommandError, match="--batch"):
        call_command("ratings_reprior", "--batch", "0")


def test_a_variant_puzzle_is_put_on_its_variant_prior_whatever_the_grader_version():
    from puzzles.models import Puzzle
    from ratings.prior import variant_prior_rating
    from tests.variants.conftest import variant_puzzle

    puzzle = variant_puzzle("diagonal", size=6)
    Puzzle.objects.filter(pk=puzzle.pk).update(grader_version=GRADER_VERSION - 1)
    row = PuzzleRating.objects.create(puzzle=puzzle, variant="diagonal", size=6, plays=0, **OLD)
    assert puzzle_ratings_reprior() == Reprior(reset=1)
    row.refresh_from_db()
    start = variant_prior_rating(level=puzzle.difficulty, hardest=puzzle.hardest_technique)
    assert row.rating == row.prior == pytest.approx(start)
    assert puzzle_ratings_reprior() == Reprior(unchanged=1)
