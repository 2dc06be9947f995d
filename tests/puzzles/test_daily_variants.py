"""Daily puzzles per variant: one per day, variant and size, chosen once, never a puzzle
used before, and the API that serves them."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from puzzles import daily
from puzzles.models import DailyPuzzle, Source
from puzzles.variant_bank import variant_puzzle_store
from puzzles.variants import variant_puzzle_make
from solver import Shape
from tests.together import run_together
from tests.variants.conftest import variant_puzzle

MONDAY = date(2026, 11, 23)
VARIANT_KINDS = [("diagonal", 9), ("jigsaw", 9), ("killer", 9), ("killer", 6)]


def _stock(kinds=VARIANT_KINDS, per_kind: int = 3) -> None:
    """``per_kind`` easy puzzles of each (variant, size)."""
    for variant, size in kinds:
        for n in range(per_kind):
            variant_puzzle(variant, size, seed=f"daily{n}")


def test_the_pick_makes_one_daily_per_variant_and_size_the_bank_has(make_puzzle):
    make_puzzle(9)
    _stock()
    picked = daily.daily_puzzles_pick(days=(MONDAY,))
    rows = DailyPuzzle.objects.filter(date=MONDAY).select_related("puzzle")
    kinds = sorted((row.variant, row.size) for row in rows)
    assert kinds == sorted([("classic", 9), *VARIANT_KINDS])
    assert picked == len(kinds)
    for row in rows:
        assert (row.puzzle.variant, row.puzzle.size) == (row.variant, row.size)
        assert row.puzzle.source == Source.GENERATED


def test_the_pick_is_idempotent(make_puzzle):
    _stock()
    daily.daily_puzzles_pick(days=(MONDAY,))
    first = dict(DailyPuzzle.objects.values_list("variant", "puzzle_id").filter(size=9))
    daily.daily_puzzles_pick(days=(MONDAY,))
    again = dict(DailyPuzzle.objects.values_list("variant", "puzzle_id").filter(size=9))
    assert again == first
    assert DailyPuzzle.objects.count() == len(VARIANT_KINDS)


def test_the_pick_never_reuses_a_variant_puzzle_while_others_remain(db):
    _stock([("killer", 9)], per_kind=3)
    days = tuple(MONDAY + timedelta(days=n) for n in range(3))
    daily.daily_puzzles_pick(days=days, kinds=[("killer", 9)])
    chosen = list(DailyPuzzle.objects.filter(variant="killer").values_list("puzzle_id", flat=True))
    assert len(chosen) == 3
    assert len(set(chosen)) == 3


def test_a_variant_puzzle_from_elsewhere_is_never_a_daily(db):
    grid, solution, rules, _ = variant_puzzle_make(
        variant="killer", shape=Shape.for_size(9), level="easy", seed="imported"
    )
    variant_puzzle_store(grid=grid, rules=rules, solution=solution, source=Source.IMPORTED)
    with pytest.raises(daily.BankEmpty, match="no 9x9 Killer puzzle"):
        daily.daily_puzzle_pick(day=MONDAY, size=9, variant="killer")


def test_a_classic_daily_is_never_a_killer_puzzle(make_puzzle):
    classic = make_puzzle(9)
    _stock([("killer", 9)], per_kind=1)
    assert daily.daily_puzzle_get(day=MONDAY, size=9).pk == classic.pk
    assert daily.daily_puzzle_get(day=MONDAY, size=9, variant="killer").variant == "killer"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_picks_of_a_killer_daily_make_one_row():
    _stock([("killer", 9)], per_kind=3)
    chosen = run_together(
        4, lambda i: daily.daily_puzzle_pick(day=MONDAY, size=9, variant="killer").puzzle_id
    )
    assert DailyPuzzle.objects.filter(date=MONDAY, variant="killer").count() == 1
    assert len(set(chosen)) == 1 and chosen[0] is not None


# --- API ---------------------------------------------------------------------------------


def test_the_daily_endpoint_serves_each_variants_puzzle(player_client, make_puzzle):
    make_puzzle(9)
    _stock([("killer", 9), ("jigsaw", 9)], per_kind=1)
    classic = player_client.get("/api/v1/puzzles/daily/").json()
    killer = player_client.get("/api/v1/puzzles/daily/?variant=killer")
    assert killer.status_code == 200
    body = killer.json()
    assert body["variant"] == "killer" and body["cages"]
    assert body["date"] == timezone.now().date().isoformat()
    assert "solution" not in body
    assert classic["variant"] == "classic" and classic["id"] != body["id"]
    jigsaw = player_client.get("/api/v1/puzzles/daily/?variant=jigsaw&size=9").json()
    assert jigsaw["variant"] == "jigsaw"
    assert player_client.get("/api/v1/puzzles/daily/?variant=killer").json()["id"] == body["id"]


def test_a_bad_variant_is_a_400_naming_the_field_and_the_choices(player_client):
    response = player_client.get("/api/v1/puzzles/daily/?variant=sandwich")
    assert response.status_code == 400
    fields = response.json()["error"]["fields"]
    assert "sandwich" in fields["variant"][0]
    assert "classic, diagonal, jigsaw, killer" in fields["variant"][0]


def test_a_variant_daily_at_a_size_it_is_not_made_at_is_a_400_on_size(player_client):
    response = player_client.get("/api/v1/puzzles/daily/?variant=killer&size=16")
    assert response.status_code == 400
    assert "6, 9" in response.json()["error"]["fields"]["size"][0]


def test_a_variant_the_bank_lacks_is_a_404_bank_empty(player_client):
    response = player_client.get("/api/v1/puzzles/daily/?variant=diagonal")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "bank_empty"


def test_the_dailies_endpoint_lists_every_variants_puzzle_of_the_day(player_client, make_puzzle):
    make_puzzle(9)
    _stock([("killer", 9), ("killer", 6), ("diagonal", 9)], per_kind=1)
    # On a thermometer day: made in the request (puzzles.constraint_daily).
    with time_machine.travel(datetime(2026, 12, 2, 12, tzinfo=UTC), tick=False):
        response = player_client.get("/api/v1/puzzles/daily/all/")
        nine = player_client.get("/api/v1/puzzles/daily/all/?size=9").json()
    assert response.status_code == 200
    # The variants' dailies, then the 9x9 puzzle with constraints.
    listed = [(d["variant"], d["size"], d["constrained"]) for d in response.json()]
    variants = [("classic", 9), ("diagonal", 9), ("killer", 6), ("killer", 9)]
    assert listed == [(*kind, False) for kind in variants] + [("classic", 9, True)]
    assert all("solution" not in d for d in response.json())
    assert [d["variant"] for d in nine if not d["constrained"]] == ["classic", "diagonal", "killer"]
    assert player_client.get("/api/v1/puzzles/daily/all/?size=7").status_code == 400
