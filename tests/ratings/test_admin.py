"""The puzzle ratings in the admin, and the filter for puzzles the grader misjudged."""

from __future__ import annotations

import pytest

from ratings.models import PuzzleRating
from tests.ratings.test_pick import _puzzle

pytestmark = pytest.mark.django_db


def _rated(i: int, rating: float, prior: float, plays: int = 5) -> int:
    puzzle = _puzzle(i)
    PuzzleRating.objects.create(
        puzzle=puzzle, size=4, rating=rating, prior=prior, deviation=90, plays=plays
    )
    return puzzle.pk


def test_the_admin_lists_ratings_and_finds_the_misjudged_puzzles(admin_client):
    agreed = _rated(1, 1510, 1500)
    easier = _rated(2, 1000, 1500)
    harder = _rated(3, 1900, 1500)
    page = admin_client.get("/admin/ratings/puzzlerating/").content.decode()
    assert "1900" in page and "1000" in page and "rating − prior" in page.lower()
    for choice, inside, outside in (("harder", harder, easier), ("easier", easier, harder)):
        page = admin_client.get(f"/admin/ratings/puzzlerating/?disagreement={choice}")
        text = page.content.decode()
        assert f">#{inside}<" in text and f">#{outside}<" not in text
        assert f">#{agreed}<" not in text
    most = admin_client.get("/admin/ratings/puzzlerating/?disagreement=most").content.decode()
    assert most.index(f">#{easier}<") < most.index(f">#{harder}<") < most.index(f">#{agreed}<")


def test_the_puzzle_page_shows_its_rating(admin_client):
    pk = _rated(4, 1666, 1500, plays=12)
    page = admin_client.get(f"/admin/puzzles/puzzle/{pk}/change/").content.decode()
    assert "1666" in page and "12" in page
