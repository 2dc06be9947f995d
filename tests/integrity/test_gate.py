"""The one gate (integrity.gate): which finished games count for boards and ratings.

Paths covered, each through the API as a client makes the requests:

- signed in: a scripted game is flagged (API ``counts`` false, ``flagged``), a person's
  counts and is rated; an abandoned game counts as a loss;
- guest then claimed: at sign-up and at sign-in, on the web forms and on the API's
  register and token endpoints: the claimed game is reviewed, flagged when scripted, and
  never counts (``guest``), nor moves a rating;
- typed in: a grid typed in (a solved grid with one blank cell) never counts nor moves a
  rating, and is never handed to another player by level, daily, practice or "at my
  level"; the migration moves puzzles typed in before into their own source;
- every grid size the bank serves (4, 6, 9, 16): a scripted game is flagged and moves no
  rating; a person's 4x4 and 6x6 count; a game too short to judge does not count;
- staff clear: a cleared game counts and is rated once; a cleared guest game stays out;
- the backfill command settles games finished before the gate.
"""

from __future__ import annotations

import importlib
import io
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.middleware.csrf import _get_new_csrf_string
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from integrity.decisions import review_decide
from integrity.models import GameReview, Verdict
from play.models import Game
from play.selectors import leaderboard, puzzle_leaderboard
from puzzles.models import DailyPuzzle, Puzzle, Source
from ratings.models import PlayerRating, RatingChange
from solver import format_line, parse, solve
from solver.generation.classic import generate
from tests.integrity.players import play_as_bot, play_as_person
from tests.play.factories import FOUR, NINE, empty_cells, puzzle_create, value_at
from tests.play.helpers import action, move, start
from tests.solver.datasets import load

pytestmark = pytest.mark.django_db

STRONG = "tiles-and-lanterns-42"
SIX = format_line(generate(6, seed=1, level="easy").puzzle)
SIXTEEN = load("gen_16x16_unique")[0]


def client_for(user) -> APIClient:
    from accounts.services import token_create

    _, key = token_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def browser() -> APIClient:
    """A guest's browser: it holds the CSRF cookie and sends it back."""
    client = APIClient(enforce_csrf_checks=True)
    token = _get_new_csrf_string()
    client.cookies["csrftoken"] = token
    client.credentials(HTTP_X_CSRFTOKEN=token)
    client.csrf = token  # type: ignore[attr-defined]
    return client


def on_any_board(game: Game) -> bool:
    """Whether the game's player is on a level board (day, week, all) or the puzzle's."""
    puzzle, name = game.puzzle, game.user.username
    boards = [puzzle_leaderboard(puzzle_id=puzzle.pk)] + [
        leaderboard(size=puzzle.size, difficulty=puzzle.difficulty, period=p, now=game.finished)
        for p in ("day", "week", "all")
    ]
    return any(board.filter(username=name).exists() for board in boards)


def shown(client, game_id: int) -> dict:
    return client.get(f"/api/v1/games/{game_id}/").json()


# --- Signed in -----------------------------------------------------------------------


def test_a_signed_in_scripted_game_is_flagged_shown_so_and_moves_no_rating(user):
    client = client_for(user)
    puzzle = puzzle_create(NINE, difficulty="hard")
    game_id, last = play_as_bot(client, puzzle)
    assert last["completed"] is True
    assert last["game"]["counts"] is False
    assert last["game"]["unranked_reason"]["code"] == "flagged"
    assert shown(client, game_id)["unranked_reason"]["message"]
    game = Game.objects.get(pk=game_id)
    assert (game.counts, game.standing) == (False, "flagged")
    assert not on_any_board(game)
    assert not RatingChange.objects.filter(game_id=game_id).exists()


def test_a_signed_in_persons_game_counts_and_is_rated(user):
    client = client_for(user)
    puzzle = puzzle_create(NINE)
    game_id, last = play_as_person(client, puzzle)
    assert last["game"]["counts"] is True and last["game"]["unranked_reason"] is None
    game = Game.objects.get(pk=game_id)
    assert on_any_board(game)
    assert RatingChange.objects.filter(game_id=game_id).count() == 1


def test_an_unfinished_game_has_no_standing_yet(user):
    client = client_for(user)
    game = start(client, puzzle_create(FOUR))
    assert game["counts"] is None and game["unranked_reason"] is None


def test_an_abandoned_game_counts_as_a_loss(user):
    client = client_for(user)
    game = start(client, puzzle_create(FOUR))
    answer = action(client, game["id"], "abandon").json()
    assert answer["counts"] is True
    change = RatingChange.objects.get(game_id=game["id"])
    assert change.player_after < change.player_before


# --- Guest, then claimed ---------------------------------------------------------------


def _sign_up_on_the_web(guest: APIClient) -> None:
    response = guest.post(
        "/accounts/signup/",
        {"username": "newcomer", "password1": STRONG, "password2": STRONG},
        format="multipart",
    )
    assert response.status_code == 302


def _sign_in_on_the_web(guest: APIClient) -> None:
    user = UserFactory(username="newcomer")
    response = guest.post(
        "/accounts/login/",
        {"username": user.username, "password": user.raw_password},
        format="multipart",
    )
    assert response.status_code == 302


def _register_on_the_api(guest: APIClient) -> None:
    response = guest.post(
        "/api/v1/auth/register/", {"username": "newcomer", "password": STRONG}, format="json"
    )
    assert response.status_code == 201, response.content


def _sign_in_on_the_api(guest: APIClient) -> None:
    user = UserFactory(username="newcomer")
    response = guest.post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": user.raw_password},
        format="json",
    )
    assert response.status_code == 200, response.content


CLAIMS = [_sign_up_on_the_web, _sign_in_on_the_web, _register_on_the_api, _sign_in_on_the_api]


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda f: f.__name__.strip("_"))
def test_a_guests_scripted_solve_claimed_is_reviewed_flagged_and_never_counts(claim):
    puzzle = puzzle_create(NINE, difficulty="hard")
    guest = browser()
    game_id, last = play_as_bot(guest, puzzle, every_ms=4)  # 0.2 s for the whole grid
    assert last["completed"] is True and last["game"]["counts"] is False
    claim(guest)
    game = Game.objects.select_related("puzzle", "user").get(pk=game_id)
    assert game.user.username == "newcomer" and game.claimed
    review = GameReview.objects.get(game_id=game_id)
    assert review.flagged and review.verdict == Verdict.FLAGGED
    assert (game.counts, game.standing) == (False, "guest")
    assert not on_any_board(game)
    assert not RatingChange.objects.filter(user=game.user).exists()
    assert not PlayerRating.objects.filter(user=game.user).exists()


def test_a_guests_plausible_game_claimed_is_reviewed_but_stays_a_guests_game():
    puzzle = puzzle_create(NINE)
    guest = browser()
    game_id, _ = play_as_person(guest, puzzle)
    _sign_up_on_the_web(guest)
    game = Game.objects.select_related("puzzle", "user").get(pk=game_id)
    assert GameReview.objects.get(game_id=game_id).verdict == Verdict.PLAUSIBLE
    assert (game.counts, game.standing) == (False, "guest")
    assert shown(guest, game_id)["unranked_reason"]["code"] == "guest"
    assert not on_any_board(game)


def test_a_claimed_game_finished_signed_in_still_does_not_count():
    puzzle = puzzle_create(FOUR)
    guest = browser()
    game = start(guest, puzzle)
    _sign_up_on_the_web(guest)
    guest.credentials(HTTP_X_CSRFTOKEN=guest.cookies["csrftoken"].value)  # a new one
    for cell in empty_cells(puzzle):
        last = move(guest, game["id"], cell, value_at(puzzle, cell)).json()
    assert last["completed"] is True
    assert last["game"]["unranked_reason"]["code"] == "guest"
    assert not RatingChange.objects.filter(game_id=game["id"]).exists()


# --- Typed in ---------------------------------------------------------------------------


def _one_blank(givens: str = NINE) -> tuple[str, int]:
    """A solved grid with one blank cell, and that cell."""
    solution = format_line(solve(parse(givens)))
    return "." + solution[1:], 0


def test_a_typed_in_grid_never_counts_nor_moves_a_rating(user):
    client = client_for(user)
    grid, cell = _one_blank()
    response = client.post("/api/v1/games/", {"grid": grid}, format="json")
    assert response.status_code == 201, response.content
    game = response.json()
    puzzle = Puzzle.objects.get(pk=game["puzzle"]["id"])
    assert puzzle.source == Source.TYPED
    last = move(client, game["id"], cell, value_at(puzzle, cell)).json()
    assert last["completed"] is True
    assert last["game"]["counts"] is False
    assert last["game"]["unranked_reason"]["code"] == "typed_in"
    stored = Game.objects.select_related("puzzle", "user").get(pk=game["id"])
    assert not on_any_board(stored)
    assert not RatingChange.objects.filter(user=user).exists()


def test_a_typed_in_puzzle_is_never_handed_to_another_player(user, monkeypatch):
    # No puzzle made on the spot either (puzzles.stock), so the bank stays empty.
    monkeypatch.setattr("puzzles.stock.bank_puzzle_make", lambda **kwargs: None)
    typist = client_for(UserFactory())
    grid, _ = _one_blank()
    typed = typist.post("/api/v1/games/", {"grid": grid}, format="json").json()["puzzle"]
    # The level: the only easy 9x9 is the typed-in one, so there is none for anyone else.
    other = client_for(user)
    response = other.post("/api/v1/games/", {"difficulty": "easy", "size": 9}, format="json")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "no_puzzle_available"
    # At my level, practice, the daily: never it either.
    response = other.post("/api/v1/games/", {"level": "mine", "size": 9}, format="json")
    assert response.status_code == 404
    response = other.post("/api/v1/games/", {"daily": True, "size": 9}, format="json")
    assert response.status_code == 404
    assert not DailyPuzzle.objects.filter(puzzle_id=typed["id"]).exists()
    # Nor is it listed with the bank's puzzles.
    assert other.get("/api/v1/puzzles/", {"size": 9}).json()["count"] == 0
    # Practice always answers (a puzzle made on the spot), never with the typed-in one.
    response = other.post("/api/v1/games/", {"technique": "full_house", "size": 9}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["puzzle"]["id"] != typed["id"]
    # A level made on the spot is a new puzzle, never the typed-in one.
    monkeypatch.undo()
    made = other.post("/api/v1/games/", {"difficulty": "easy", "size": 9}, format="json")
    assert made.status_code == 201 and made.json()["puzzle"]["id"] != typed["id"]
    # Once a bank puzzle is there, that is what the level hands out.
    bank = puzzle_create(NINE)
    picked = typist.post("/api/v1/games/", {"difficulty": "easy", "size": 9}, format="json")
    assert picked.json()["puzzle"]["id"] != typed["id"]
    assert Puzzle.objects.get(pk=picked.json()["puzzle"]["id"]).source != Source.TYPED
    assert bank.source != Source.TYPED


def test_staff_can_take_a_typed_in_puzzle_into_the_bank(user, client):
    from django.urls import reverse

    grid, _ = _one_blank()
    typed = client_for(user).post("/api/v1/games/", {"grid": grid}, format="json").json()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.post(
        reverse("admin:puzzles_puzzle_changelist"),
        {"action": "promote", "_selected_action": [typed["puzzle"]["id"]]},
        follow=True,
    )
    assert "1 typed-in puzzle taken into the bank" in response.content.decode()
    assert Puzzle.objects.get(pk=typed["puzzle"]["id"]).source == Source.IMPORTED


def test_the_migration_moves_puzzles_typed_in_before_out_of_the_pools(user):
    from django.apps import apps

    migration = importlib.import_module("puzzles.migrations.0006_puzzle_source_typed")
    typed = puzzle_create(NINE)  # typed in: its first game came with it
    Game.objects.create(user=user, puzzle=typed, entries=typed.givens)
    imported = puzzle_create(FOUR)  # imported by staff: played a day later
    Puzzle.objects.filter(pk=imported.pk).update(created=timezone.now() - timedelta(days=1))
    Game.objects.create(user=user, puzzle=imported, entries=imported.givens)
    unplayed = puzzle_create(SIX)
    tomorrow = timezone.localdate() + timedelta(days=1)
    DailyPuzzle.objects.create(date=tomorrow, size=9, puzzle=typed)
    assert migration.mark_typed_in(apps, None) == 1
    sources = dict(Puzzle.objects.values_list("pk", "source"))
    assert sources[typed.pk] == Source.TYPED
    assert sources[imported.pk] == sources[unplayed.pk] == Source.IMPORTED
    assert not DailyPuzzle.objects.filter(date=tomorrow).exists()


# --- Every grid size -----------------------------------------------------------------


@pytest.mark.parametrize(
    "givens,every_ms", [(FOUR, 16), (SIX, 20), (NINE, 50), (SIXTEEN, 50)], ids=["4", "6", "9", "16"]
)
def test_a_scripted_bank_game_is_flagged_and_moves_no_rating_at_every_size(user, givens, every_ms):
    puzzle = puzzle_create(givens)
    game_id, last = play_as_bot(client_for(user), puzzle, every_ms=every_ms)
    assert last["completed"] is True
    assert last["game"]["unranked_reason"]["code"] == "flagged"
    assert GameReview.objects.get(game_id=game_id).flagged
    assert not RatingChange.objects.filter(game_id=game_id).exists()
    assert not on_any_board(Game.objects.select_related("puzzle", "user").get(pk=game_id))


@pytest.mark.parametrize("givens", [FOUR, SIX], ids=["4", "6"])
def test_a_persons_small_grid_game_counts_and_is_rated(user, givens):
    puzzle = puzzle_create(givens)
    game_id, last = play_as_person(client_for(user), puzzle)
    assert last["completed"] is True
    assert last["game"]["counts"] is True
    assert GameReview.objects.get(game_id=game_id).verdict == Verdict.PLAUSIBLE
    assert RatingChange.objects.filter(game_id=game_id).count() == 1
    assert on_any_board(Game.objects.select_related("puzzle", "user").get(pk=game_id))


def test_a_game_too_short_to_judge_does_not_count(user):
    solution = format_line(solve(parse(FOUR)))
    puzzle = puzzle_create("." + solution[1:3] + "." + solution[4:])  # two empty cells
    game_id, last = play_as_person(client_for(user), puzzle)
    assert last["game"]["unranked_reason"]["code"] == "too_fast_to_review"
    assert not RatingChange.objects.filter(game_id=game_id).exists()


def test_an_exempt_player_is_judged_on_origin_alone(user):
    user.user_permissions.add(Permission.objects.get(codename="exempt_from_review"))
    puzzle = puzzle_create(FOUR)
    game_id, last = play_as_bot(client_for(user), puzzle, every_ms=16)
    assert last["game"]["counts"] is True
    assert not GameReview.objects.filter(game_id=game_id).exists()
    assert RatingChange.objects.filter(game_id=game_id).count() == 1


# --- Staff clear, and the backfill ---------------------------------------------------


def test_staff_clearing_a_flagged_game_makes_it_count_and_rates_it_once(user):
    client = client_for(user)
    puzzle = puzzle_create(FOUR)
    game_id, _ = play_as_bot(client, puzzle, every_ms=16)
    review = GameReview.objects.get(game_id=game_id)
    staff = UserFactory(is_staff=True)
    review_decide(review_id=review.pk, staff=staff, cleared=True)
    review_decide(review_id=review.pk, staff=staff, cleared=True)
    assert shown(client, game_id)["counts"] is True
    assert RatingChange.objects.filter(game_id=game_id).count() == 1
    assert on_any_board(Game.objects.select_related("puzzle", "user").get(pk=game_id))


def test_staff_clearing_a_claimed_guest_game_leaves_it_out():
    guest = browser()
    game_id, _ = play_as_bot(guest, puzzle_create(FOUR), every_ms=16)
    _sign_up_on_the_web(guest)
    review = GameReview.objects.get(game_id=game_id)
    review_decide(review_id=review.pk, staff=UserFactory(is_staff=True), cleared=True)
    game = Game.objects.get(pk=game_id)
    assert (game.counts, game.standing) == (False, "guest")
    assert not RatingChange.objects.filter(game_id=game_id).exists()


def test_the_backfill_settles_games_finished_before_the_gate(user):
    client = client_for(user)
    scripted, _ = play_as_bot(client, puzzle_create(FOUR), every_ms=16)
    person, _ = play_as_person(client, puzzle_create(NINE))
    Game.objects.update(counts=None, standing="")
    GameReview.objects.all().delete()
    out = io.StringIO()
    call_command("games_settle", stdout=out)
    assert out.getvalue().startswith("2 finished games settled, 1 of them count")
    standings = dict(Game.objects.values_list("pk", "standing"))
    assert standings == {scripted: "flagged", person: "counts"}
    assert GameReview.objects.get(game_id=scripted).flagged


def test_a_held_players_games_count_once_the_hold_is_lifted(user, monkeypatch):
    from integrity import gate

    monkeypatch.setattr(gate, "_player_held", lambda user_id: True)
    client = client_for(user)
    game_id, last = play_as_person(client, puzzle_create(FOUR))
    assert last["game"]["unranked_reason"]["code"] == "player_held"
    assert not RatingChange.objects.filter(game_id=game_id).exists()
    monkeypatch.setattr(gate, "_player_held", lambda user_id: False)
    assert gate.player_games_settle(user_id=user.pk, limit=10) == (1, False)
    assert shown(client, game_id)["counts"] is True
    assert RatingChange.objects.filter(game_id=game_id).count() == 1


def test_signing_in_reviews_only_the_latest_claimed_games(monkeypatch):
    monkeypatch.setattr("play.lifecycle.CLAIM_REVIEWS", 1)
    guest = browser()
    play_as_bot(guest, puzzle_create(FOUR), every_ms=16)
    latest, _ = play_as_bot(guest, puzzle_create(NINE))
    Game.objects.filter(pk=latest).update(finished=timezone.now())
    _sign_up_on_the_web(guest)
    assert list(GameReview.objects.values_list("game_id", flat=True)) == [latest]
    assert set(Game.objects.values_list("standing", flat=True)) == {"guest"}


def test_the_backfill_judges_a_review_stored_before_the_gate_by_its_placements(user):
    client = client_for(user)
    game_id, _ = play_as_person(client, puzzle_create(FOUR))
    review = GameReview.objects.get(game_id=game_id)
    signals = {k: v for k, v in review.signals.items() if k != "judged"}
    GameReview.objects.filter(pk=review.pk).update(signals={**signals, "placements": 3})
    Game.objects.update(counts=None, standing="")
    call_command("games_settle", stdout=io.StringIO())
    assert Game.objects.get(pk=game_id).standing == "too_fast_to_review"


def test_staff_can_clear_a_game_too_short_to_judge_in_the_admin(user, client):
    from django.urls import reverse

    solution = format_line(solve(parse(FOUR)))
    puzzle = puzzle_create("." + solution[1:3] + "." + solution[4:])
    game_id, _ = play_as_person(client_for(user), puzzle)
    review = GameReview.objects.get(game_id=game_id)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.post(
        reverse("admin:integrity_gamereview_changelist"),
        {"action": "clear_reviews", "_selected_action": [review.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert Game.objects.get(pk=game_id).standing == "counts"
    assert RatingChange.objects.filter(game_id=game_id).count() == 1
