"""The bank's API: players read puzzles (never a solution), staff run packs."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.utils import timezone

from puzzles import chunks, packs
from puzzles.models import PackStatus, Puzzle, PuzzlePack

pytestmark = pytest.mark.django_db


def _no_solution_in(body, puzzles) -> None:
    text = json.dumps(body)
    assert "solution" not in text
    for puzzle in puzzles:
        assert puzzle.solution not in text


@pytest.fixture
def bank(make_puzzle):
    return [make_puzzle(size=9, level="easy", seed=str(i)) for i in range(3)] + [
        make_puzzle(size=9, level="medium", seed="m"),
        make_puzzle(size=4, level="easy", seed="f"),
    ]


def test_players_list_puzzles_without_solutions(player_client, bank):
    response = player_client.get("/api/v1/puzzles/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 5
    item = body["results"][0]
    assert set(item) >= {"id", "size", "box_rows", "box_cols", "difficulty", "score", "givens"}
    _no_solution_in(body, bank)


def test_the_list_filters_by_size_and_difficulty(player_client, bank):
    body = player_client.get("/api/v1/puzzles/?size=9&difficulty=easy").json()
    assert body["count"] == 3
    assert {p["difficulty"] for p in body["results"]} == {"easy"}
    assert player_client.get("/api/v1/puzzles/?size=4").json()["count"] == 1


def test_the_list_filters_by_pack_in_pack_order(player_client, run_pack):
    pack = run_pack(size=4, difficulty="easy", count=3)
    body = player_client.get(f"/api/v1/puzzles/?pack={pack.pk}").json()
    ordered = list(pack.entries.order_by("position").values_list("puzzle_id", flat=True))
    assert [p["id"] for p in body["results"]] == ordered


def test_pages_hold_at_most_one_hundred(player_client, bank):
    body = player_client.get("/api/v1/puzzles/?page_size=2").json()
    assert len(body["results"]) == 2
    assert body["next"]
    for bad in ("1000", "101", "0", "x"):
        response = player_client.get(f"/api/v1/puzzles/?page_size={bad}")
        assert response.status_code == 400
        assert "page_size" in response.json()["error"]["fields"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("size=7", "size"),
        ("size=nine", "size"),
        ("size=", "size"),
        ("difficulty=insane", "difficulty"),
        ("difficulty=", "difficulty"),
        ("pack=x", "pack"),
    ],
)
def test_a_bad_filter_is_a_400_naming_it(player_client, bank, query, field):
    response = player_client.get(f"/api/v1/puzzles/?{query}")
    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]


def test_one_puzzle_without_its_solution(player_client, bank):
    response = player_client.get(f"/api/v1/puzzles/{bank[0].pk}/")
    assert response.status_code == 200
    assert response.json()["givens"] == bank[0].givens
    _no_solution_in(response.json(), bank)
    assert player_client.get("/api/v1/puzzles/999999/").status_code == 404


def test_the_daily_puzzle_is_the_same_for_everyone_today(player_client, staff_client, bank):
    first = player_client.get("/api/v1/puzzles/daily/")
    assert first.status_code == 200
    body = first.json()
    assert body["size"] == 9
    assert body["date"] == timezone.now().date().isoformat()
    assert staff_client.get("/api/v1/puzzles/daily/").json()["id"] == body["id"]
    _no_solution_in(body, bank)
    assert player_client.get("/api/v1/puzzles/daily/?size=4").json()["size"] == 4


def test_no_daily_puzzle_of_a_size_the_bank_lacks_is_a_404(player_client, bank):
    response = player_client.get("/api/v1/puzzles/daily/?size=16")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "bank_empty"


def test_puzzles_need_a_signed_in_player(api_client, bank):
    assert api_client.get("/api/v1/puzzles/").status_code == 401


# --- Packs ---------------------------------------------------------------------------------

PACK = {"name": "spring", "size": 9, "difficulty": "hard", "count": 50}


def test_staff_ask_for_a_pack_and_get_202(
    staff_client, no_enqueue, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post("/api/v1/packs/", {**PACK, "symmetry": "rotational"})
    assert response.status_code == 202
    body = response.json()
    assert body["name"] == "spring"
    assert body["status"] == "pending"
    assert (body["count"], body["made"], body["progress"]) == (50, 0, 0.0)
    assert body["symmetry"] == "rotational"
    assert body["requested_by"] == "staffer"
    pack = PuzzlePack.objects.get()
    assert no_enqueue == [(pack.pk, list(range(pack.chunk_count)), None)]


@pytest.mark.parametrize(
    ("changes", "field", "says"),
    [
        ({"size": 7}, "size", "size: 7 is not offered; use one of 4, 6, 8, 9, 12, 16."),
        ({"size": "nine"}, "size", "size: nine is not offered"),
        ({"difficulty": "insane"}, "difficulty", "difficulty: insane is not a level"),
        ({"count": 0}, "count", "count: Ask for 1 to 10,000 puzzles."),
        ({"count": 20000}, "count", "count: Ask for 1 to 10,000 puzzles."),
        ({"count": "lots"}, "count", "count: A whole number is required."),
        ({"count": True}, "count", "count: A whole number is required, not true or false."),
        ({"symmetry": "spiral"}, "symmetry", "symmetry"),
        ({"name": "   "}, "name", "name: This field may not be blank."),
        ({"colour": "red"}, "colour", "Unknown field"),
        ({"name": 7}, "name", "name: A string is required."),
        ({"seed": 7}, "seed", "seed: A string is required."),
    ],
)
def test_a_bad_pack_request_is_a_400_naming_the_field(
    staff_client, no_enqueue, changes, field, says
):
    response = staff_client.post("/api/v1/packs/", {**PACK, **changes})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert says in error["message"]
    assert field in error["fields"]
    assert not PuzzlePack.objects.exists()


def test_a_level_the_size_is_not_made_at_is_a_400(staff_client, no_enqueue, only_easy_4x4):
    response = staff_client.post("/api/v1/packs/", {**PACK, "size": 4, "difficulty": "master"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_difficulty"
    assert "4x4 puzzles are made only at easy, not master" in error["message"]
    assert not PuzzlePack.objects.exists()


def test_a_pack_name_that_exists_is_a_409(staff_client, no_enqueue):
    assert staff_client.post("/api/v1/packs/", PACK).status_code == 202
    response = staff_client.post("/api/v1/packs/", PACK)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "pack_name_taken"
    assert "a pack named 'spring' exists" in response.json()["error"]["message"]


def test_staff_follow_and_cancel_a_pack(staff_client, no_enqueue):
    pack = packs.pack_create(name="p", size=4, difficulty="easy", count=4, chunk_size=2)
    chunks.pack_chunk_generate(pack_id=pack.pk, number=0)
    listed = staff_client.get("/api/v1/packs/").json()["results"]
    assert [(p["name"], p["made"], p["progress"]) for p in listed] == [("p", 2, 50.0)]
    detail = staff_client.get(f"/api/v1/packs/{pack.pk}/").json()
    assert (detail["status"], detail["made"], detail["count"]) == ("running", 2, 4)
    cancelled = staff_client.post(f"/api/v1/packs/{pack.pk}/cancel/")
    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "cancelled"
    again = staff_client.post(f"/api/v1/packs/{pack.pk}/cancel/")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "pack_not_active"


def test_staff_export_a_pack_in_every_format(staff_client, run_pack):
    pack = run_pack(size=4, difficulty="easy", count=3)
    puzzles = [e.puzzle for e in pack.entries.select_related("puzzle").order_by("position")]

    txt = staff_client.get(f"/api/v1/packs/{pack.pk}/export/?format=txt")
    assert txt.status_code == 200
    assert txt["Content-Disposition"].endswith('.txt"')
    assert txt.content.decode().splitlines() == [p.givens for p in puzzles]

    sdm = staff_client.get(f"/api/v1/packs/{pack.pk}/export/?format=sdm").content.decode()
    assert sdm.splitlines() == [p.givens.replace(".", "0") for p in puzzles]

    rows = list(
        csv.DictReader(
            io.StringIO(
                staff_client.get(f"/api/v1/packs/{pack.pk}/export/?format=csv").content.decode()
            )
        )
    )
    assert [(r["givens"], r["solution"], r["level"], int(r["score"])) for r in rows] == [
        (p.givens, p.solution, p.difficulty, p.score) for p in puzzles
    ]

    data = staff_client.get(f"/api/v1/packs/{pack.pk}/export/?format=json").json()
    assert data["pack"]["name"] == pack.name
    assert [p["solution"] for p in data["puzzles"]] == [p.solution for p in puzzles]


def test_an_unknown_export_format_is_a_400(staff_client, run_pack):
    pack = run_pack(size=4, difficulty="easy", count=1)
    response = staff_client.get(f"/api/v1/packs/{pack.pk}/export/?format=xls")
    assert response.status_code == 400
    assert "format" in response.json()["error"]["fields"]


def test_players_cannot_touch_packs(player_client, run_pack):
    pack = run_pack(size=4, difficulty="easy", count=1)
    assert player_client.post("/api/v1/packs/", PACK).status_code == 403
    assert player_client.get("/api/v1/packs/").status_code == 403
    assert player_client.get(f"/api/v1/packs/{pack.pk}/").status_code == 403
    assert player_client.post(f"/api/v1/packs/{pack.pk}/cancel/").status_code == 403
    assert player_client.get(f"/api/v1/packs/{pack.pk}/export/?format=csv").status_code == 403
    assert PuzzlePack.objects.get().status == PackStatus.DONE
    assert PuzzlePack.objects.count() == 1


def test_anonymous_callers_cannot_touch_packs(api_client):
    assert api_client.post("/api/v1/packs/", PACK).status_code == 401
    assert api_client.get("/api/v1/packs/").status_code == 401


def test_no_player_response_carries_a_solution(player_client, run_pack):
    pack = run_pack(size=4, difficulty="easy", count=3)
    puzzles = list(Puzzle.objects.all())
    responses = [
        player_client.get("/api/v1/puzzles/"),
        player_client.get(f"/api/v1/puzzles/?pack={pack.pk}"),
        player_client.get("/api/v1/puzzles/daily/?size=4"),
        *(player_client.get(f"/api/v1/puzzles/{p.pk}/") for p in puzzles),
    ]
    for response in responses:
        assert response.status_code == 200
        _no_solution_in(response.json(), puzzles)


def test_a_puzzle_without_constraints_lists_an_empty_constraints_list(player_client, make_puzzle):
    puzzle = make_puzzle(size=4)
    assert player_client.get(f"/api/v1/puzzles/{puzzle.pk}/").json()["constraints"] == []
    listed = player_client.get("/api/v1/puzzles/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert rows and all(row["constraints"] == [] for row in rows)
