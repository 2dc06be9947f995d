"""Stock like the classic's for every variant, size and level offered, and a puzzle made
on the spot rather than a refusal when a level runs out."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from puzzles import stock
from puzzles.models import Puzzle, PuzzlePack
from puzzles.variants import variant_levels
from solver.generation.classic import supported_levels
from solver.grid import Shape

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"


def _client() -> APIClient:
    client = APIClient()
    client.force_authenticate(UserFactory())
    return client


def test_the_offer_is_every_level_each_generator_makes_at_every_lobby_size():
    offer = set(stock.bank_offer())
    for size in (4, 6, 9, 16):
        for level in supported_levels(Shape.for_size(size)):
            assert ("classic", size, level) in offer
        for variant in ("diagonal", "jigsaw", "killer"):
            levels = set(variant_levels(variant, size))
            assert {lvl for v, s, lvl in offer if (v, s) == (variant, size)} == levels
    assert any(v == "killer" and s == 4 for v, s, _ in offer)


def test_the_top_up_keeps_every_variant_level_at_the_classics_stock(no_enqueue, settings):
    settings.PUZZLE_BANK_MINIMUM, settings.PUZZLE_BANK_TARGET = 2, 5
    queued = stock.bank_top_up(sizes=(6, 9))
    got = {(p.variant, p.size, p.difficulty): p.count for p in queued}
    want = dict.fromkeys(stock.bank_offer(sizes=(6, 9)), 5)
    assert got == want
    assert {v for v, _, _ in got} == {"classic", "diagonal", "jigsaw", "killer"}
    assert stock.bank_top_up(sizes=(6, 9)) == []  # each one on its way already


def test_a_variant_level_run_dry_makes_a_puzzle_instead_of_refusing(
    no_enqueue, django_capture_on_commit_callbacks
):
    client = _client()
    assert not Puzzle.objects.filter(variant="killer", size=6).exists()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            GAMES, {"variant": "killer", "difficulty": "easy", "size": 6}, format="json"
        )
    assert answer.status_code == 201, answer.json()
    made = Puzzle.objects.get(pk=answer.json()["puzzle"]["id"])
    assert (made.variant, made.size, made.difficulty, made.source) == (
        "killer",
        6,
        "easy",
        "generated",
    )
    assert made.solution not in answer.content.decode()
    # The level is topped up behind it.
    assert PuzzlePack.objects.filter(variant="killer", size=6, difficulty="easy").exists()


def test_the_first_hour_of_killer_never_meets_an_empty_bank():
    """One Killer easy game and one Killer practice game later (the issue's new user),
    another Killer easy game still starts."""
    from tests.variants.conftest import variant_puzzle

    variant_puzzle("killer", 9, "easy")
    client = _client()
    body = {"variant": "killer", "difficulty": "easy", "size": 9}
    assert client.post(GAMES, body, format="json").status_code == 201
    practice = client.post(GAMES, {"technique": "cage_combination", "size": 9}, format="json")
    assert practice.status_code == 201, practice.json()
    again = client.post(GAMES, body, format="json")
    assert again.status_code == 201, again.json()
    assert again.json()["puzzle"]["variant"] == "killer"


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_level_not_made_at_a_size_says_so_in_puzzles_not_banks(language):
    answer = _client().post(
        GAMES,
        {"variant": "killer", "difficulty": "expert", "size": 6},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert answer.status_code == 404
    message = answer.json()["error"]["message"]
    assert "bank" not in message.lower() and "题库" not in message
    if language == "en":
        assert "Killer 6x6 puzzles are not made at expert" in message
    else:
        assert "杀手数独" in message and "bank" not in message
