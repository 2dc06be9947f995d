"""Ratings per variant and size: a counted variant game moves its own board's rating, the
gate keeps puzzles from elsewhere out, and the boards, stats and "at my level" keep each
variant apart."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from play.lifecycle import Player, game_start
from play.models import Game
from puzzles.models import Puzzle
from ratings.models import PlayerRating, PuzzleRating, RatingChange
from ratings.prior import PRIOR_DEVIATION, variant_prior_rating
from ratings.selectors import BOARD_MIN_GAMES
from ratings.services import puzzle_ratings_backfill
from tests.play.factories import FOUR
from tests.ratings.conftest import _graded
from tests.ratings.helpers import play_through, solve

pytestmark = pytest.mark.django_db

BOARDS = "/api/v1/leaderboards/"
GAMES = "/api/v1/games/"


@pytest.fixture
def puzzle4(db: None) -> Puzzle:
    return _graded(FOUR)


@pytest.fixture
def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def _fp_diagonal(puzzle: Puzzle) -> dict:
    """The f-puzzles object of a Diagonal puzzle, as SudokuPad shares it."""
    n = puzzle.size
    grid = [
        [
            {"value": int(v), "given": True} if v != "." else {}
            for v in puzzle.givens[r * n : (r + 1) * n]
        ]
        for r in range(n)
    ]
    return {"size": n, "grid": grid, "diagonal+": True, "diagonal-": True}


def test_a_counted_killer_game_moves_the_killer_9x9_rating_and_not_the_classic_one(
    user, make_variant
):
    puzzle = make_variant("killer", size=9)
    game = play_through(Player(user=user), puzzle)
    game.refresh_from_db()
    assert (game.counts, game.standing) == (True, "counts")
    change = RatingChange.objects.get(game=game)
    assert (change.variant, change.size) == ("killer", 9)
    assert change.player_before == 1500 < change.player_after
    assert change.puzzle_before == variant_prior_rating(
        level=puzzle.difficulty, hardest=puzzle.hardest_technique
    )
    (rating,) = PlayerRating.objects.filter(user=user)
    assert (rating.variant, rating.size, rating.games) == ("killer", 9, 1)
    assert rating.rating == change.player_after
    assert not PlayerRating.objects.filter(user=user, variant="classic").exists()
    played = PuzzleRating.objects.get(puzzle=puzzle)
    assert (played.variant, played.plays) == ("killer", 1)
    assert played.rating == change.puzzle_after < change.puzzle_before


def test_a_classic_game_after_a_variant_one_starts_its_own_rating(user, make_variant, puzzle4):
    play_through(Player(user=user), make_variant("diagonal", size=6))
    play_through(Player(user=user), puzzle4)
    ratings = {(r.variant, r.size): r.games for r in PlayerRating.objects.filter(user=user)}
    assert ratings == {("diagonal", 6): 1, ("classic", 4): 1}
    classic = RatingChange.objects.get(user=user, variant="classic")
    assert classic.player_before == 1500  # the Diagonal game did not move it


def test_an_imported_variant_puzzle_never_moves_a_rating(client, user, make_variant):
    bank = make_variant("diagonal", size=6, seed="fp-rating")
    data = _fp_diagonal(bank)
    Puzzle.objects.filter(pk=bank.pk).delete()  # so the f-puzzles one is the player's own
    answer = client.post(GAMES, {"fpuzzles": data}, format="json")
    assert answer.status_code == 201, answer.json()
    game = Game.objects.select_related("puzzle").get(pk=answer.json()["id"])
    assert (game.puzzle.variant, game.puzzle.source) == ("diagonal", "typed")
    solve(game, Player(user=user))
    game.refresh_from_db()
    assert game.status == "completed"
    assert (game.counts, game.standing) == (False, "typed_in")
    assert not RatingChange.objects.exists()
    assert not PlayerRating.objects.exists()
    assert not PuzzleRating.objects.exists()
    assert puzzle_ratings_backfill() == 0  # no rating for a typed-in puzzle either


def test_the_backfill_starts_variant_puzzles_at_their_levels_prior(make_variant, puzzle4):
    easy = make_variant("diagonal", size=6, level="easy")
    hard = make_variant("jigsaw", size=6, level="hard")
    assert puzzle_ratings_backfill() == 3
    for puzzle in (easy, hard):
        rating = PuzzleRating.objects.get(puzzle=puzzle)
        expected = variant_prior_rating(level=puzzle.difficulty, hardest=puzzle.hardest_technique)
        assert (rating.variant, rating.size) == (puzzle.variant, 6)
        assert rating.rating == rating.prior == expected
        assert rating.deviation == PRIOR_DEVIATION
    assert (
        PuzzleRating.objects.get(puzzle=hard).rating > PuzzleRating.objects.get(puzzle=easy).rating
    )
    assert PuzzleRating.objects.get(puzzle=puzzle4).variant == "classic"


def test_level_mine_with_a_variant_starts_a_puzzle_of_that_variant_only(
    client, make_variant, puzzle4
):
    diagonal = make_variant("diagonal", size=6)
    make_variant("jigsaw", size=6)
    answer = client.post(GAMES, {"variant": "diagonal", "level": "mine", "size": 6}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["puzzle"]["id"] == diagonal.pk
    assert answer.json()["rating"]["puzzle"] == round(
        PuzzleRating.objects.get(puzzle=diagonal).rating
    )
    again = client.post(GAMES, {"variant": "diagonal", "level": "mine", "size": 6}, format="json")
    assert again.status_code == 404
    assert "6x6 Diagonal" in again.json()["error"]["message"]


def test_the_lobby_starts_a_variant_game_at_my_level(client, user, make_variant):
    killer = make_variant("killer", size=6)
    make_variant("diagonal", size=6)
    browser = Client()
    browser.force_login(user)
    response = browser.post("/play/new/", {"size": 6, "level": "mine", "variant": "killer"})
    assert response.status_code == 302
    assert user.games.get().puzzle_id == killer.pk


def _rated(username: str, variant: str, rating: float) -> None:
    PlayerRating.objects.create(
        user=UserFactory(username=username),
        variant=variant,
        size=9,
        rating=rating,
        deviation=60,
        games=BOARD_MIN_GAMES,
    )


def _board(client, **query) -> list[str]:
    answer = client.get(BOARDS, {"board": "rating", "size": 9, **query})
    assert answer.status_code == 200, answer.json()
    return [row["username"] for row in answer.json()["results"]]


def test_the_rating_boards_keep_each_variant_apart(client):
    _rated("classicist", "classic", 1900)
    _rated("killer_fan", "killer", 2000)
    _rated("both", "classic", 1700)
    _rated("jigsawyer", "jigsaw", 1600)
    assert _board(client) == ["classicist", "both"]  # classic by default, as before
    assert _board(client, variant="classic") == ["classicist", "both"]
    assert _board(client, variant="killer") == ["killer_fan"]
    assert _board(client, variant="diagonal") == []
    page = client.get("/leaderboards/", {"board": "rating", "size": 9, "variant": "killer"})
    text = page.content.decode()
    assert "killer_fan" in text and "classicist" not in text


def test_an_unknown_variant_on_the_rating_board_is_a_400_naming_it(client):
    answer = client.get(BOARDS, {"board": "rating", "size": 9, "variant": "samurai"})
    assert answer.status_code == 400
    assert list(answer.json()["error"]["fields"]) == ["variant"]


def test_the_rating_board_page_falls_back_to_classic_for_an_unknown_variant(client):
    _rated("classicist", "classic", 1900)
    _rated("killer_fan", "killer", 2000)
    page = client.get("/leaderboards/", {"board": "rating", "size": 9, "variant": "samurai"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "classicist" in text and "killer_fan" not in text


def test_an_empty_variant_rating_board_names_its_variant(client):
    page = client.get("/leaderboards/", {"board": "rating", "size": 9, "variant": "jigsaw"})
    assert "No established Jigsaw 9×9 rating yet" in page.content.decode()


def test_stats_show_a_rating_per_variant_and_size(client, user, make_variant, puzzle4):
    killer = make_variant("killer", size=9)
    play_through(Player(user=user), killer)
    play_through(Player(user=user), puzzle4)
    ratings = client.get("/api/v1/me/stats/").json()["ratings"]
    assert [(r["variant"], r["size"], r["games"]) for r in ratings] == [
        ("classic", 4, 1),
        ("killer", 9, 1),
    ]
    stored = PlayerRating.objects.get(user=user, variant="killer", size=9)
    assert ratings[1]["rating"] == round(stored.rating)
    assert ratings[1]["history"][0]["game"] == Game.objects.get(puzzle=killer).pk
    browser = Client()
    browser.force_login(user)
    page = browser.get("/stats/").content.decode()
    assert 'data-testid="rating-4"' in page and 'data-testid="rating-killer-9"' in page
    assert "Killer 9×9" in page
    assert "?board=rating&amp;variant=killer&amp;size=9" in page  # the card's own board


def test_a_variant_without_a_way_to_pick_is_still_a_400(client):
    answer = client.post(GAMES, {"variant": "killer", "puzzle": 1}, format="json")
    assert answer.status_code == 400
    assert "difficulty or level" in answer.json()["error"]["fields"]["variant"][0]


def test_an_unfinished_variant_game_is_not_rated(user, make_variant):
    game, _ = game_start(player=Player(user=user), puzzle_id=make_variant("jigsaw", size=6).pk)
    solve(game, Player(user=user), last=False)
    assert not RatingChange.objects.exists()


def test_level_mine_with_a_variant_the_bank_lacks_at_that_size_says_so(client, make_variant):
    make_variant("killer", size=6)
    answer = client.post(GAMES, {"variant": "killer", "level": "mine", "size": 9}, format="json")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "no_puzzle_available"
    assert "no 9x9 Killer puzzle yet" in answer.json()["error"]["message"]
    chinese = client.post(
        GAMES,
        {"variant": "killer", "level": "mine", "size": 9},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert "杀手数独" in chinese.json()["error"]["message"]
