"""Play at your level: the pick, and the API's answers."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from play.models import Game
from puzzles.models import Puzzle
from ratings.models import PlayerRating, PuzzleRating
from ratings.selectors import puzzle_pick_at_level
from ratings.window import WINDOWS
from tests.play.test_guests import browser

pytestmark = pytest.mark.django_db


def bank(
    ratings: list[float], size: int = 4, *, variant: str = "classic", first: int = 0
) -> list[Puzzle]:
    """Puzzles of ``variant`` rated so (the pick reads only the ratings), numbered from
    ``first``."""
    made = []
    for i, rating in enumerate(ratings, start=first):
        puzzle = _puzzle(i, variant)
        PuzzleRating.objects.update_or_create(
            puzzle=puzzle,
            defaults={
                "variant": variant,
                "size": size,
                "rating": rating,
                "deviation": 100,
                "prior": rating,
            },
        )
        made.append(puzzle)
    return made


def _puzzle(i: int, variant: str = "classic") -> Puzzle:
    # Distinct givens per row (the bank's unique constraint): the index spelt in base 4.
    digits = "".join("1234"[(i >> (2 * k)) & 3] for k in range(8))
    return Puzzle.objects.create(
        size=4,
        box_rows=2,
        box_cols=2,
        givens=digits + "........",
        solution="1234341221434321",
        difficulty="easy",
        score=10,
        clue_count=8,
        canonical_key=hashlib.sha256(f"pick-{i}".encode()).hexdigest(),
        source="imported",
        variant=variant,
    )


def test_my_level_picks_within_the_window_and_never_a_played_puzzle(user):
    puzzles = bank([1000, 1450, 1480, 1500, 1520, 1560, 2000])
    PlayerRating.objects.create(user=user, size=4, rating=1500)
    near = {p.pk for p in puzzles[1:6]}
    Game.objects.create(user=user, puzzle=puzzles[3], entries=puzzles[3].givens, status="completed")
    rng = random.Random(7)
    seen = set()
    for _ in range(40):
        picked = puzzle_pick_at_level(user=user, size=4, rng=rng)
        assert picked.puzzle_id in near - {puzzles[3].pk}
        assert abs(picked.rating - 1500) <= WINDOWS[0]
        seen.add(picked.puzzle_id)
    assert len(seen) > 1  # the start in the window varies


def test_a_thin_bank_widens_the_window_and_still_answers(user):
    far = bank([2400, 600])
    PlayerRating.objects.create(user=user, size=4, rating=1500)
    picked = puzzle_pick_at_level(user=user, size=4, rng=random.Random(1))
    assert picked.puzzle_id in {p.pk for p in far}
    for puzzle in far:
        Game.objects.create(user=user, puzzle=puzzle, entries=puzzle.givens, status="completed")
    assert puzzle_pick_at_level(user=user, size=4) is None


def test_level_mine_starts_an_unplayed_game_near_the_rating(user, api_client):
    bank([1500, 1510])
    api_client.force_authenticate(user)
    response = api_client.post("/api/v1/games/", {"size": 4, "level": "mine"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["rating"]["puzzle"] in (1500, 1510)
    assert body["rating"]["change"] is None
    second = api_client.post("/api/v1/games/", {"size": 4, "level": "mine"}, format="json")
    assert second.status_code == 201
    assert second.json()["puzzle"]["id"] != body["puzzle"]["id"]


def test_level_mine_for_a_guest_asks_to_sign_in():
    bank([1500])
    response = browser().post("/api/v1/games/", {"size": 4, "level": "mine"}, format="json")
    assert response.status_code == 400
    assert "Sign in" in response.json()["error"]["fields"]["level"][0]
    assert not Game.objects.exists()


def test_an_unknown_level_is_a_400_naming_the_field(user, api_client):
    api_client.force_authenticate(user)
    response = api_client.post("/api/v1/games/", {"size": 4, "level": "impossible"}, format="json")
    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["level"]


def test_a_grader_level_works_as_difficulty(user, api_client, puzzle4):
    api_client.force_authenticate(user)
    response = api_client.post("/api/v1/games/", {"size": 4, "level": "easy"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["puzzle"]["difficulty"] == "easy"


def test_puzzles_stored_without_a_rating_get_their_prior_when_needed(user, puzzle4):
    from django.core.management import call_command

    from ratings.prior import prior_rating

    assert not PuzzleRating.objects.exists()
    picked = puzzle_pick_at_level(user=user, size=4)
    assert picked.puzzle_id == puzzle4.pk
    assert picked.rating == pytest.approx(prior_rating(size=4, score=puzzle4.score))
    call_command("ratings_backfill")  # nothing left to make
    assert PuzzleRating.objects.count() == 1


def test_my_level_keeps_the_daily_puzzles_for_the_daily_game(user):
    from django.utils import timezone

    from puzzles.models import DailyPuzzle

    daily, other = bank([1500, 1900])
    DailyPuzzle.objects.create(date=timezone.localdate(), size=4, puzzle=daily)
    PlayerRating.objects.create(user=user, size=4, rating=1500)
    assert puzzle_pick_at_level(user=user, size=4).puzzle_id == other.pk


def starter_bank(size: int) -> int:
    """The shipped starter puzzles of ``size``, stored as shipped (the pick reads only
    their ratings, made from the scores by the backfill)."""
    from puzzles.stock import STARTER_FILE
    from ratings.services import puzzle_ratings_backfill

    for line in STARTER_FILE.read_text().splitlines():
        item = json.loads(line)
        if item["box_rows"] * item["box_cols"] != size:
            continue
        Puzzle.objects.create(
            size=size,
            box_rows=item["box_rows"],
            box_cols=item["box_cols"],
            givens=item["givens"],
            solution=item["solution"],
            difficulty=item["difficulty"],
            score=item["score"],
            clue_count=sum(c != "." for c in item["givens"]),
            canonical_key=hashlib.sha256(item["givens"].encode()).hexdigest(),
            source="generated",
        )
    return puzzle_ratings_backfill(size=size)


@pytest.mark.parametrize("size", [6, 9, 16])
def test_a_newcomer_finds_the_starter_bank_at_their_level_in_the_first_window(user, size):
    assert starter_bank(size) > 0
    assert not PlayerRating.objects.filter(user=user).exists()  # a newcomer: 1500
    rng = random.Random(size)
    for _ in range(20):
        picked = puzzle_pick_at_level(user=user, size=size, rng=rng)
        # Within the first window's half-width: that window held it, none wider was tried.
        assert abs(picked.rating - 1500) <= WINDOWS[0], picked.rating
        assert picked.puzzle.difficulty == "medium"


def test_my_level_picks_only_the_variant_asked_for(user):
    classic = bank([1500, 1500])
    killer = bank([1500, 1510], variant="killer", first=2)
    (jigsaw,) = bank([2400], variant="jigsaw", first=4)
    PlayerRating.objects.create(user=user, variant="killer", size=4, rating=1500)
    rng = random.Random(3)

    def picks(**board) -> set[int]:
        return {
            puzzle_pick_at_level(user=user, size=4, rng=rng, **board).puzzle_id for _ in range(20)
        }

    assert picks(variant="killer") == {p.pk for p in killer}
    assert picks(variant="jigsaw") == {jigsaw.pk}  # far from the rating: the window widens
    assert picks() == {p.pk for p in classic}  # classic by default
    assert puzzle_pick_at_level(user=user, size=4, variant="diagonal") is None


def test_my_level_reads_the_players_rating_of_the_variant(user):
    _low, high = bank([1000, 2000], variant="killer")
    PlayerRating.objects.create(user=user, variant="classic", size=4, rating=1000)
    PlayerRating.objects.create(user=user, variant="killer", size=4, rating=2000)
    assert puzzle_pick_at_level(user=user, size=4, variant="killer").puzzle_id == high.pk
