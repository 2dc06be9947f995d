"""A puzzle with constraints that staff imported (source ``imported``, variant "classic" by
its houses) is no classic puzzle: no pool draws it (level games, at my level, the daily
puzzle), the stock does not count it, its games are never rated or ranked, and it is
still played by its number. Each path is asked through the API where it has one."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
import time_machine
from rest_framework.test import APIClient

from play.models import Game
from puzzles import imports, regrade, stock
from puzzles.models import Puzzle, PuzzleTechnique, Source
from puzzles.variants import rules_of
from ratings.models import PlayerRating, PuzzleRating
from solver.formats.fpuzzles import to_fpuzzles
from solver.generation.constrained import make_constrained
from solver.grid import Shape
from tests.integrity.players import START
from tests.play.factories import logical_order, value_at
from tests.play.helpers import move, start

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"
SIX = Shape.for_size(6)


def _imported(kind: str = "thermometer", seed: int = 1) -> tuple[Puzzle, str]:
    """A 6x6 puzzle with constraints of ``kind`` imported by staff as an f-puzzles line,
    and the message its import line gave."""
    made = make_constrained(kind, SIX, seed)
    line = json.dumps(to_fpuzzles(made.rules, made.puzzle))
    report = imports.puzzle_import_text(text=line + "\n")
    (result,) = report.lines
    assert result.status == "imported", result.message
    return Puzzle.objects.get(pk=result.puzzle_id), result.message


@pytest.fixture
def thermo() -> Puzzle:
    """An easy 6x6 thermometer puzzle, "classic" by its houses: the bank's only 6x6."""
    puzzle, _ = _imported()
    assert (puzzle.variant, puzzle.size, puzzle.difficulty) == ("classic", 6, "easy")
    assert puzzle.source == Source.IMPORTED and puzzle.constrained
    return puzzle


def test_the_import_line_says_the_puzzle_is_kept_out_of_the_pools(db):
    _, message = _imported()
    assert "constraints (thermometer): kept out of the level games" in message


def test_the_import_line_says_so_in_chinese(db):
    from django.utils import translation

    with translation.override("zh-hans"):
        _, message = _imported()
    assert "thermometer" in message and "kept out" not in message


def test_the_marker_follows_the_rules_of_every_row(thermo, make_variant):
    killer = make_variant("killer", size=6)
    assert not killer.constrained
    assert list(Puzzle.objects.filter(constrained=True).values_list("pk", flat=True)) == [thermo.pk]


def test_a_level_game_never_draws_a_puzzle_with_constraints(player_client, thermo, monkeypatch):
    monkeypatch.setattr(stock, "bank_puzzle_make", lambda **kwargs: None)
    answer = player_client.post(GAMES, {"size": 6, "difficulty": "easy"}, format="json")
    assert answer.status_code != 201, answer.json()
    assert "No easy 6x6 Classic puzzle is ready" in answer.json()["error"]["message"]
    assert not Game.objects.exists()


def test_a_level_game_draws_the_plain_puzzle_beside_one_with_constraints(thermo):
    """With a plain easy 6x6 beside it, each player's first game by level gets the plain
    one (before, half of them got the thermometer puzzle)."""
    from accounts.factories import UserFactory
    from puzzles.bank import puzzle_get_or_create_from_grid
    from solver.generation.classic import generate

    plain, _ = puzzle_get_or_create_from_grid(
        grid=generate(6, level="easy", seed="plain").puzzle, source=Source.GENERATED
    )
    assert plain.difficulty == "easy"
    for _ in range(6):
        player = APIClient()
        player.force_authenticate(UserFactory())
        answer = player.post(GAMES, {"size": 6, "difficulty": "easy"}, format="json")
        assert answer.status_code == 201, answer.json()
        assert answer.json()["puzzle"]["id"] == plain.pk


def test_at_my_level_never_draws_a_puzzle_with_constraints(player_client, thermo):
    answer = player_client.post(GAMES, {"size": 6, "level": "mine"}, format="json")
    assert answer.status_code == 404, answer.json()
    assert "There is no 6x6 Classic puzzle yet" in answer.json()["error"]["message"]
    assert not PuzzleRating.objects.filter(puzzle=thermo).exists()


def test_a_puzzle_with_constraints_is_never_the_daily_puzzle(player_client, thermo):
    answer = player_client.get("/api/v1/puzzles/daily/", {"size": 6})
    assert answer.status_code == 404, answer.json()
    assert answer.json()["error"]["code"] == "bank_empty"
    daily_game = player_client.post(GAMES, {"daily": True, "size": 6}, format="json")
    assert daily_game.status_code == 404


def test_the_stock_does_not_count_a_puzzle_with_constraints(thermo, no_enqueue):
    assert (6, "easy") not in stock.bank_stock()
    queued = stock.bank_top_up(minimum=1, target=2, sizes=(6,), variants=("classic",))
    assert ("classic", 6, "easy") in {(p.variant, p.size, p.difficulty) for p in queued}


def test_the_classic_grader_never_regrades_a_puzzle_with_constraints(thermo):
    before = (thermo.difficulty, thermo.score, thermo.grader_version)
    regrade.bank_regrade()
    thermo.refresh_from_db()
    assert (thermo.difficulty, thermo.score, thermo.grader_version) == before
    assert not PuzzleTechnique.objects.filter(puzzle=thermo).exists()


def test_a_game_of_a_puzzle_with_constraints_is_played_by_number_but_never_counts(
    player_client, thermo, user
):
    rng = random.Random(5)
    with time_machine.travel(START, tick=False) as clock:
        game_id = start(player_client, thermo)["id"]
        for cell in logical_order(thermo):
            clock.shift(timedelta(milliseconds=rng.randint(3000, 9000)))
            last = move(player_client, game_id, cell, value_at(thermo, cell)).json()
    assert last["completed"] is True
    game = player_client.get(f"{GAMES}{game_id}/").json()
    assert game["counts"] is False
    assert game["unranked_reason"]["code"] == "constrained"
    assert "no board or rating" in game["unranked_reason"]["message"]
    assert not PlayerRating.objects.filter(user=user).exists()
    board = player_client.get(
        "/api/v1/leaderboards/", {"variant": "classic", "size": 6, "difficulty": "easy"}
    )
    assert board.status_code == 200 and board.json()["results"] == []


def test_the_migration_takes_counted_games_of_such_puzzles_off_the_boards(thermo, user):
    """play 0012, run on today's models: a game counted before the gate knew the puzzle
    is held now; a claimed guest's keeps its reason."""
    import importlib

    from django.apps import apps
    from django.utils import timezone

    from accounts.factories import UserFactory

    migration = importlib.import_module("play.migrations.0012_constrained_games_uncounted")
    done = {"entries": thermo.solution, "status": "completed", "finished": timezone.now()}
    counted = Game.objects.create(user=user, puzzle=thermo, counts=True, standing="counts", **done)
    guest = Game.objects.create(
        user=UserFactory(), claimed=True, puzzle=thermo, counts=False, standing="guest", **done
    )
    migration.uncount(apps, None)
    counted.refresh_from_db()
    guest.refresh_from_db()
    assert (counted.counts, counted.standing) == (False, "constrained")
    assert (guest.counts, guest.standing) == (False, "guest")


def test_a_daily_set_by_hand_must_be_a_plain_bank_puzzle_of_its_variant_and_size():
    from datetime import date

    from django.core.exceptions import ValidationError

    from puzzles.models import DailyPuzzle
    from tests.play.factories import NINE, puzzle_create

    plain = puzzle_create(NINE)
    DailyPuzzle(date=date(2026, 1, 1), variant="classic", size=9, puzzle=plain).full_clean()
    for puzzle, variant, size in (
        (plain, "killer", 9),  # another variant
        (plain, "classic", 6),  # another size
    ):
        with pytest.raises(ValidationError, match="bank puzzle of its variant and size"):
            DailyPuzzle(
                date=date(2026, 1, 1), variant=variant, size=size, puzzle=puzzle
            ).full_clean()
    Puzzle.objects.filter(pk=plain.pk).update(rules={"constraints": [{"type": "antiknight"}]})
    plain.refresh_from_db()
    assert plain.constrained
    with pytest.raises(ValidationError, match="without constraints"):
        DailyPuzzle(date=date(2026, 1, 1), variant="classic", size=9, puzzle=plain).full_clean()
    Puzzle.objects.filter(pk=plain.pk).update(rules={}, source="typed")
    plain.refresh_from_db()
    with pytest.raises(ValidationError):
        DailyPuzzle(date=date(2026, 1, 1), variant="classic", size=9, puzzle=plain).full_clean()


@pytest.mark.parametrize("claim", ["web", "api"])
def test_a_guests_game_of_it_claimed_at_sign_in_stays_unranked_and_locks_no_solver(thermo, claim):
    """The claim path gives a guest's games to the account: a game of a puzzle with
    constraints is no more ranked there than when a signed-in player starts it, so it holds
    the puzzle for no one (the solver still answers another player)."""
    from django.middleware.csrf import _get_new_csrf_string

    from accounts.factories import UserFactory

    guest = APIClient(enforce_csrf_checks=True)
    token = _get_new_csrf_string()
    guest.cookies["csrftoken"] = token
    guest.credentials(HTTP_X_CSRFTOKEN=token)
    game_id = start(guest, thermo)["id"]
    user = UserFactory(username="newcomer")
    if claim == "web":
        answer = guest.post(
            "/accounts/login/",
            {"username": user.username, "password": user.raw_password},
            format="multipart",
        )
        assert answer.status_code == 302
    else:
        answer = guest.post(
            "/api/v1/auth/token/",
            {"username": user.username, "password": user.raw_password},
            format="json",
        )
        assert answer.status_code == 200, answer.content
    game = Game.objects.get(pk=game_id)
    assert (game.user_id, game.claimed, game.ranked) == (user.pk, True, False)
    other = APIClient()
    other.force_authenticate(UserFactory())
    body = {"fpuzzles": to_fpuzzles(rules_of(thermo), thermo.grid())}
    answer = other.post("/api/v1/solver/analyse/", body, format="json")
    assert answer.status_code == 200, answer.content
