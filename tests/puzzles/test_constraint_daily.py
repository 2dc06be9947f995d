"""The daily puzzle with constraints, through the API as a client sees it: listed with the
variant dailies with its label and level, played through the normal game start, never
rated, its solution withheld by the solver while its day lasts, made ahead by the beat
task, one per day however many ask at once, and absent (with a message) on a day it
cannot be made."""

from __future__ import annotations

import random
import re
from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from play.models import Game
from puzzles import constraint_daily, tasks
from puzzles.constraint_daily import ROTATION, constraint_daily_kind, constraint_daily_level
from puzzles.models import DailyPuzzle, Puzzle, Source
from puzzles.selectors import puzzle_pick
from puzzles.variants import rules_of
from solver.formats.fpuzzles import to_fpuzzles
from solver.generation.constrained_daily import DAILY_LEVELS
from sudokusite import queueing
from tests.play.factories import logical_order, puzzle_create, value_at
from tests.play.helpers import move
from tests.together import run_together

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"
DAILY = "/api/v1/puzzles/daily/constrained/"


def day_of(kind: str, after: date = date(2026, 11, 30)) -> date:
    """The first day from ``after`` whose puzzle has constraints of ``kind``."""
    return next(
        after + timedelta(days=i)
        for i in range(len(ROTATION))
        if constraint_daily_kind(after + timedelta(days=i)) == kind
    )


THERMO_DAY = day_of("thermometer")


def noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


@pytest.fixture
def on_thermo_day():
    with time_machine.travel(noon(THERMO_DAY), tick=False) as clock:
        yield clock


def _analyse(player_client: APIClient, puzzle: Puzzle):
    body = {"fpuzzles": to_fpuzzles(rules_of(puzzle), puzzle.grid())}
    return player_client.post("/api/v1/solver/analyse/", body, format="json")


# --- The schedule ---------------------------------------------------------------------


def test_the_rotation_gives_every_generated_kind_once_in_eight_days_at_its_level():
    days = [date(2026, 11, 30) + timedelta(days=i) for i in range(2 * len(ROTATION))]
    kinds = [constraint_daily_kind(day) for day in days]
    assert sorted(kinds[: len(ROTATION)]) == sorted(DAILY_LEVELS)
    assert kinds[: len(ROTATION)] == kinds[len(ROTATION) :]  # the same turn again
    assert all(
        constraint_daily_level(d) == DAILY_LEVELS[k].level for d, k in zip(days, kinds, strict=True)
    )


def test_the_schedule_endpoint_lists_one_turn_from_today(player_client, on_thermo_day):
    answer = player_client.get(DAILY + "schedule/")
    assert answer.status_code == 200
    days = answer.json()
    assert len(days) == len(ROTATION)
    assert days[0] == {
        "date": THERMO_DAY.isoformat(),
        "kind": "thermometer",
        "name": "Thermometer",
        "level": "easy",
    }
    assert sorted(d["kind"] for d in days) == sorted(ROTATION)


# --- Listed, labelled and played ------------------------------------------------------


def test_the_daily_list_shows_it_after_the_variants_with_its_label_and_level(
    player_client, on_thermo_day
):
    puzzle_create(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    )
    listed = player_client.get("/api/v1/puzzles/daily/all/")
    assert listed.status_code == 200
    body = listed.json()
    assert [(d["variant"], d["constrained"], d["rated"]) for d in body] == [
        ("classic", False, True),
        ("classic", True, False),
    ]
    entry = body[-1]
    stored = Puzzle.objects.get(pk=entry["id"])
    assert entry["constraint_kinds"] == ["thermometer"] and entry["constraints"]
    assert entry["difficulty"] == stored.difficulty == entry["scheduled_level"] == "easy"
    assert entry["label"] == "Thermometer · Easy 9×9" == stored.label
    assert entry["date"] == THERMO_DAY.isoformat()
    assert "solution" not in entry and stored.solution not in str(body)
    assert player_client.get(DAILY).json()["id"] == entry["id"]
    assert [
        d["constrained"] for d in player_client.get("/api/v1/puzzles/daily/all/?size=6").json()
    ] == []


def test_it_is_labelled_in_chinese_too(user, on_thermo_day):
    chinese = APIClient(HTTP_ACCEPT_LANGUAGE="zh-Hans")
    chinese.force_authenticate(user)
    entry = chinese.get(DAILY).json()
    assert entry["label"].startswith("温度计") and "9×9" in entry["label"]


def test_it_is_stored_out_of_every_pool_and_the_variant_dailies_are_unchanged(
    player_client, on_thermo_day
):
    entry = player_client.get(DAILY).json()
    stored = Puzzle.objects.get(pk=entry["id"])
    assert stored.constrained and stored.source == Source.GENERATED
    assert stored.variant == "classic" and stored.size == 9
    assert puzzle_pick(size=9, difficulty=stored.difficulty) is None
    classic = player_client.get("/api/v1/puzzles/daily/")
    assert classic.status_code == 404 and classic.json()["error"]["code"] == "bank_empty"


def test_starting_it_makes_an_unrated_game_that_never_counts(player_client, user, on_thermo_day):
    daily_id = player_client.get(DAILY).json()["id"]
    started = player_client.post(GAMES, {"daily": True, "constrained": True}, format="json")
    assert started.status_code == 201, started.json()
    game = started.json()
    assert game["puzzle"]["id"] == daily_id
    assert game["puzzle"]["constraints"] and game["solution"] is None
    assert Game.objects.get(pk=game["id"]).ranked is False
    again = player_client.post(GAMES, {"daily": True, "constrained": True}, format="json")
    assert again.status_code == 200 and again.json()["id"] == game["id"]
    puzzle = Puzzle.objects.get(pk=daily_id)
    rng = random.Random(3)
    for cell in logical_order(puzzle):
        on_thermo_day.shift(timedelta(milliseconds=rng.randint(3000, 9000)))
        last = move(player_client, game["id"], cell, value_at(puzzle, cell)).json()
    assert last["completed"] is True
    finished = player_client.get(f"{GAMES}{game['id']}/").json()
    assert finished["counts"] is False
    assert finished["unranked_reason"]["code"] == "constrained"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"constrained": True}, "constrained"),
        ({"daily": True, "constrained": True, "size": 6}, "size"),
        ({"daily": True, "constrained": True, "variant": "killer"}, "variant"),
    ],
)
def test_a_start_that_asks_for_it_wrongly_is_a_400_naming_the_field(player_client, body, field):
    answer = player_client.post(GAMES, body, format="json")
    assert answer.status_code == 400
    assert field in answer.json()["error"]["fields"]


# --- Integrity: the solver withholds it while its day lasts ---------------------------


def test_analyse_refuses_it_while_it_is_today_s_daily(player_client, on_thermo_day):
    puzzle = Puzzle.objects.get(pk=player_client.get(DAILY).json()["id"])
    refused = _analyse(player_client, puzzle)
    assert refused.status_code == 403, refused.json()
    assert refused.json()["error"]["code"] == "puzzle_in_play"
    assert _analyse(APIClient(), puzzle).status_code == 403  # a guest too
    player_client.post(GAMES, {"daily": True, "constrained": True}, format="json")
    assert _analyse(player_client, puzzle).status_code == 403  # the player, mid-game
    on_thermo_day.move_to(noon(THERMO_DAY + timedelta(days=1)))
    other = APIClient()
    other.force_authenticate(UserFactory())
    shown = _analyse(other, puzzle)
    assert shown.status_code == 200, shown.json()
    assert shown.json()["solution"] == puzzle.solution


def test_a_given_up_game_of_it_shows_no_solution_before_the_day_is_over(
    player_client, on_thermo_day
):
    started = player_client.post(GAMES, {"daily": True, "constrained": True}, format="json").json()
    given_up = player_client.post(f"{GAMES}{started['id']}/abandon/", {}, format="json")
    assert given_up.status_code == 200, given_up.json()
    assert given_up.json()["solution"] is None
    on_thermo_day.move_to(noon(THERMO_DAY + timedelta(days=1)))
    assert player_client.get(f"{GAMES}{started['id']}/").json()["solution"] is not None


# --- Made ahead, once -----------------------------------------------------------------


def test_the_beat_task_makes_today_s_and_tomorrow_s_ahead_and_only_once(on_thermo_day):
    assert tasks.daily_puzzles_pick() == 2
    rows = DailyPuzzle.objects.filter(constrained=True).select_related("puzzle")
    by_day = {row.date: row for row in rows}
    assert sorted(by_day) == [THERMO_DAY, THERMO_DAY + timedelta(days=1)]
    for day, row in by_day.items():
        assert row.puzzle.constrained and row.size == row.puzzle.size == 9
        assert row.puzzle.constraint_kinds[0] == constraint_daily_kind(day)
        assert row.puzzle.difficulty == constraint_daily_level(day)
    tasks.daily_puzzles_pick()
    assert DailyPuzzle.objects.filter(constrained=True).count() == 2


def test_a_request_that_loses_the_race_answers_with_the_one_stored(on_thermo_day, monkeypatch):
    made = constraint_daily.constraint_daily_make

    def made_meanwhile(*, day, seconds):
        puzzle = made(day=day, seconds=seconds)
        other = made(day=day + timedelta(days=1), seconds=seconds)  # another request's
        DailyPuzzle.objects.create(date=day, size=9, puzzle=other, constrained=True)
        return puzzle

    monkeypatch.setattr(constraint_daily, "constraint_daily_make", made_meanwhile)
    chosen = constraint_daily.constraint_daily_pick(day=THERMO_DAY)
    row = DailyPuzzle.objects.get(constrained=True)
    assert chosen is not None and chosen.pk == row.pk


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_first_uses_store_one_daily():
    def pick(i: int) -> int | None:
        found = constraint_daily.constraint_daily_pick(day=THERMO_DAY, seconds=10)
        return found.puzzle_id if found else None

    chosen = run_together(4, pick)
    assert DailyPuzzle.objects.filter(date=THERMO_DAY, constrained=True).count() == 1
    assert len(set(chosen)) == 1 and chosen[0] is not None


# --- Absent on a day it cannot be made ------------------------------------------------


def test_a_day_it_cannot_be_made_has_none_with_a_message_and_no_retry_storm(
    player_client, on_thermo_day, monkeypatch
):
    calls = []

    def never(*args, **kwargs):
        calls.append(1)
        return None

    monkeypatch.setattr(constraint_daily, "generate_daily_constrained", never)
    absent = player_client.get(DAILY)
    assert absent.status_code == 404
    assert absent.json()["error"]["code"] == "no_constraint_daily"
    assert "not ready" in absent.json()["error"]["message"]
    listed = player_client.get("/api/v1/puzzles/daily/all/")
    assert listed.status_code == 200 and listed.json() == []
    start = player_client.post(GAMES, {"daily": True, "constrained": True}, format="json")
    assert start.status_code == 404
    assert start.json()["error"]["code"] == "no_constraint_daily"
    assert len(calls) == 1  # the others left it to the beat task
    assert not DailyPuzzle.objects.exists()


def test_a_kind_too_slow_for_a_request_is_queued_for_the_workers(player_client, monkeypatch):
    slow = day_of("nonconsecutive")
    assert DAILY_LEVELS["nonconsecutive"].slowest > constraint_daily.REQUEST_MAKE_SECONDS
    monkeypatch.setattr(
        constraint_daily, "generate_daily_constrained", lambda *a, **k: pytest.fail("made")
    )
    sent: list[str] = []
    monkeypatch.setattr(queueing.current_app, "send_task", sent.append)
    monkeypatch.setattr("django.db.transaction.on_commit", lambda fn, *a, **k: fn())
    with time_machine.travel(noon(slow), tick=False):
        for _ in range(2):
            absent = player_client.post(GAMES, {"daily": True, "constrained": True}, format="json")
            assert absent.status_code == 404
            assert absent.json()["error"]["code"] == "no_constraint_daily"
    assert sent == [constraint_daily.PICK_TASK]  # once a minute at most
    assert tasks.constraint_daily_pick.name == constraint_daily.PICK_TASK


# --- Set by hand ----------------------------------------------------------------------


def _constrained_puzzle(day: date = THERMO_DAY) -> Puzzle:
    made = constraint_daily.constraint_daily_make(day=day, seconds=10)
    assert made is not None
    return made


def test_the_admin_may_set_it_to_a_puzzle_with_constraints_and_nothing_else():
    puzzle = _constrained_puzzle()
    DailyPuzzle(date=THERMO_DAY, size=9, puzzle=puzzle, constrained=True).full_clean()
    plain = puzzle_create(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    )
    with pytest.raises(ValidationError, match="with constraints"):
        DailyPuzzle(date=THERMO_DAY, size=9, puzzle=plain, constrained=True).full_clean()
    with pytest.raises(ValidationError):  # the size the row says must be the puzzle's, 9
        DailyPuzzle(date=THERMO_DAY, size=6, puzzle=puzzle, constrained=True).full_clean()
    with pytest.raises(ValidationError, match="without constraints"):
        DailyPuzzle(date=THERMO_DAY, size=9, puzzle=puzzle).full_clean()


def test_the_admin_form_refuses_a_second_one_for_the_day():
    puzzle = _constrained_puzzle()
    other = _constrained_puzzle(THERMO_DAY + timedelta(days=1))
    DailyPuzzle.objects.create(date=THERMO_DAY, size=9, puzzle=puzzle, constrained=True)
    with pytest.raises(ValidationError):
        DailyPuzzle(date=THERMO_DAY, size=9, puzzle=other, constrained=True).full_clean()


# --- The lobby and the game page ------------------------------------------------------


def test_the_lobby_lists_it_not_rated_and_its_play_button_starts_it(user, on_thermo_day):
    page = Client()
    page.force_login(user)
    before = page.get("/").content.decode()
    assert "With constraints: Thermometer" in before and 'data-testid="daily-not-rated"' in before
    started = page.post("/play/new/", {"daily": "1", "size": "9", "constrained": "1"})
    assert started.status_code == 302
    game = Game.objects.select_related("puzzle").get(user=user)
    assert game.puzzle.constrained and game.ranked is False
    after = page.get("/").content.decode()
    listed = re.search(r'<li data-variant="constrained">(.*?)</li>', after, re.S)
    assert listed is not None
    assert "With constraints: Thermometer" in listed.group(1)
    assert "Easy" in listed.group(1) and "not rated" in listed.group(1)
    assert "Continue the daily" in listed.group(1)
    board = page.get(f"/play/{game.pk}/").content.decode()
    assert "Daily puzzle with constraints" in board
    assert 'data-testid="not-rated-note"' in board
    assert game.puzzle.solution not in board


def test_the_lobby_says_not_rated_in_chinese(user, on_thermo_day):
    page = Client(HTTP_ACCEPT_LANGUAGE="zh-Hans")
    page.force_login(user)
    html = page.get("/").content.decode()
    assert "带约束：温度计" in html and "不计等级分" in html


def test_the_lobby_leaves_it_out_on_a_day_it_could_not_be_made(user, on_thermo_day, monkeypatch):
    monkeypatch.setattr(constraint_daily, "generate_daily_constrained", lambda *a, **k: None)
    page = Client()
    page.force_login(user)
    answer = page.post("/play/new/", {"daily": "1", "size": "9", "constrained": "1"}, follow=True)
    assert "not ready" in answer.content.decode()
    assert 'data-variant="constrained"' not in page.get("/").content.decode()
