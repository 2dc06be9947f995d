"""The variant API contract: POST /api/v1/games/ with variant or fpuzzles, the puzzle's
rules in its JSON, clashes by the variant's houses and cages, fpuzzles analysis."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from play.models import Game
from puzzles.models import Puzzle, Source
from puzzles.variants import rules_of
from solver.grid import tables
from solver.rules.ruleset import layout

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"
ANALYSE = "/api/v1/solver/analyse/"


@pytest.fixture
def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def _fp_grid(size: int, givens: str = "", regions: list[int] | None = None) -> list:
    rows = []
    for r in range(size):
        row = []
        for c in range(size):
            i = r * size + c
            cell: dict = {}
            if givens and givens[i] != ".":
                cell = {"value": int(givens[i]), "given": True}
            if regions is not None:
                cell["region"] = regions[i]
            row.append(cell)
        rows.append(row)
    return rows


def _killer_fpuzzles(puzzle: Puzzle) -> dict:
    n = puzzle.size
    cages = [
        {"cells": [f"R{c // n + 1}C{c % n + 1}" for c in cage["cells"]], "value": str(cage["sum"])}
        for cage in puzzle.rules["cages"]
    ]
    return {"size": n, "grid": _fp_grid(n, puzzle.givens), "killercage": cages}


@pytest.mark.parametrize("size", [6, 9])
@pytest.mark.parametrize("variant", ["diagonal", "jigsaw", "killer"])
def test_a_game_of_each_variant_starts_and_its_json_carries_the_rules(
    client, make_variant, variant, size
):
    puzzle = make_variant(variant, size=size)
    answer = client.post(
        GAMES, {"variant": variant, "difficulty": "easy", "size": size}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    got = answer.json()["puzzle"]
    assert got["id"] == puzzle.pk
    assert got["variant"] == variant
    assert got["regions"] == list(rules_of(puzzle).regions)
    assert len(got["regions"]) == size * size
    assert got["diagonals"] is (variant == "diagonal")
    if variant == "killer":
        assert got["cages"] and all({"cells", "sum"} == set(c) for c in got["cages"])
        covered = sorted(c for cage in got["cages"] for c in cage["cells"])
        assert covered == list(range(size * size))
    else:
        assert got["cages"] == []
    if variant == "jigsaw":
        assert got["regions"] != list(tables(puzzle.shape).box_of)
    assert answer.json()["solution"] is None
    assert puzzle.solution not in answer.content.decode()


def test_a_classic_game_json_has_the_boxes_as_regions(client, make_variant):
    from tests.play.factories import NINE, puzzle_create

    puzzle_create(NINE, difficulty="easy")
    make_variant("killer")
    got = client.post(GAMES, {"difficulty": "easy"}, format="json").json()["puzzle"]
    assert got["variant"] == "classic"
    assert got["regions"] == list(tables(Puzzle.objects.get(pk=got["id"]).shape).box_of)
    assert got["diagonals"] is False and got["cages"] == []


def test_a_variant_level_not_made_at_a_size_is_a_clear_404(client):
    """A level none is made at (a 4x4 Jigsaw is easy only); a level merely out of stock
    is made on the spot (tests/puzzles/test_stock_offer.py)."""
    body = {"variant": "jigsaw", "difficulty": "hard", "size": 4}
    answer = client.post(GAMES, body, format="json")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "no_puzzle_available"
    assert "not made at hard: choose easy" in answer.json()["error"]["message"]


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "windoku", "difficulty": "easy"},
        {"variant": "killer"},
        {"variant": "killer", "puzzle": 1},
        {"variant": 3, "difficulty": "easy"},
    ],
)
def test_a_bad_variant_request_is_a_400(client, body):
    assert client.post(GAMES, body, format="json").status_code == 400


def _move(client, game_id: int, cell: int, value: int):
    return client.post(
        f"{GAMES}{game_id}/moves/",
        {"client_move_id": str(uuid.uuid4()), "cell": cell, "value": value},
        format="json",
    )


def test_a_clash_on_a_diagonal_is_reported(client, make_variant):
    puzzle = make_variant("diagonal", level="hard")
    game = client.post(GAMES, {"variant": "diagonal", "difficulty": "hard"}, format="json").json()
    n = puzzle.size
    diagonals = ([i * n + i for i in range(n)], [(n - 1 - i) * n + i for i in range(n)])
    peers = tables(puzzle.shape).peers
    given, cell = next(
        (g, c)
        for diagonal in diagonals
        for g in diagonal
        if puzzle.givens[g] != "."
        for c in diagonal
        if puzzle.givens[c] == "." and g not in peers[c]  # they share only the diagonal
    )
    answer = _move(client, game["id"], cell, int(puzzle.givens[given]))
    assert answer.status_code == 200, answer.json()
    assert given in answer.json()["conflicts"]


def test_a_clash_in_a_cage_is_reported(client, make_variant):
    puzzle = make_variant("killer", level="hard")
    game = client.post(GAMES, {"variant": "killer", "difficulty": "hard"}, format="json").json()
    lay = layout(rules_of(puzzle))
    box_peers = tables(puzzle.shape).peers
    pairs = [
        (a, b)
        for cage in puzzle.rules["cages"]
        for a in cage["cells"]
        for b in cage["cells"]
        if a != b and b not in box_peers[a] and puzzle.givens[a] == "."
    ]
    assert pairs, "the seeded puzzle has a cage across boxes"
    a, b = pairs[0]
    assert b in lay.peers[a]
    value = int(puzzle.solution[b])
    if puzzle.givens[b] == ".":
        assert _move(client, game["id"], b, value).status_code == 200
    answer = _move(client, game["id"], a, value)
    assert b in answer.json()["conflicts"]


def test_a_variant_game_plays_to_the_end(client, make_variant):
    puzzle = make_variant("jigsaw", size=6)
    game = client.post(GAMES, {"variant": "jigsaw", "difficulty": "easy", "size": 6}, format="json")
    game_id = game.json()["id"]
    last = None
    for cell, ch in enumerate(puzzle.solution):
        if puzzle.givens[cell] == ".":
            last = _move(client, game_id, cell, int(ch))
            assert last.json()["correct"] is True and last.json()["conflicts"] == []
    assert last.json()["completed"] is True
    assert client.get(f"{GAMES}{game_id}/").json()["solution"] == puzzle.solution


def test_an_fpuzzles_killer_starts_a_game_of_the_players_own(client, make_variant):
    bank = make_variant("killer", level="hard", seed="fp")
    data = _killer_fpuzzles(bank)
    Puzzle.objects.filter(pk=bank.pk).delete()
    answer = client.post(GAMES, {"fpuzzles": data}, format="json")
    assert answer.status_code == 201, answer.json()
    got = answer.json()["puzzle"]
    assert got["variant"] == "killer" and got["givens"] == "." * 81
    assert len(got["cages"]) == len(data["killercage"])
    stored = Puzzle.objects.get(pk=got["id"])
    assert stored.source == Source.TYPED
    assert Game.objects.get(pk=answer.json()["id"]).puzzle_id == stored.pk


def test_an_fpuzzles_jigsaw_reads_its_regions(client, make_variant):
    bank = make_variant("jigsaw", size=6, level="hard", seed="fpj")
    regions = rules_of(bank).regions
    data = {"size": 6, "grid": _fp_grid(6, bank.givens, list(regions))}
    answer = client.post(GAMES, {"fpuzzles": data}, format="json")
    assert answer.status_code in (200, 201), answer.json()
    assert answer.json()["puzzle"]["regions"] == list(regions)


def test_an_fpuzzles_classic_grid_is_a_typed_in_grid(client):
    from tests.play.factories import NINE

    data = {"size": 9, "grid": _fp_grid(9, NINE)}
    answer = client.post(GAMES, {"fpuzzles": data}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["puzzle"]["variant"] == "classic"
    assert Puzzle.objects.get(pk=answer.json()["puzzle"]["id"]).source == Source.TYPED


def _bad_cases() -> list[tuple[str, object, str]]:
    nine = {"size": 9, "grid": _fp_grid(9)}
    return [
        ("not an object", [1, 2], "JSON object"),
        ("size wrong type", {**nine, "size": "nine"}, "size"),
        ("prime size", {"size": 7, "grid": _fp_grid(7)}, "size"),
        ("too big", {"size": 25, "grid": []}, "size"),
        ("short grid", {"size": 9, "grid": _fp_grid(9)[:8]}, "9 rows"),
        ("bad value", {"size": 9, "grid": [[{"value": 12, "given": True}] * 9] * 9}, "value"),
        (
            "overlapping cages",
            {
                **nine,
                "killercage": [
                    {"cells": ["R1C1", "R1C2"], "value": "3"},
                    {"cells": ["R1C2", "R1C3"], "value": "5"},
                ],
            },
            "overlap",
        ),
        (
            "impossible sum",
            {**nine, "killercage": [{"cells": ["R1C1", "R1C2"], "value": "18"}]},
            "cannot add up",
        ),
        ("bad cell name", {**nine, "killercage": [{"cells": ["A1"], "value": "3"}]}, "R6C3"),
        ("one diagonal", {**nine, "diagonal+": True}, "both diagonals"),
        (
            "unsupported rule",
            {**nine, "quadruple": [{"cells": ["R1C1"], "values": [1]}]},
            "quadruple",
        ),
        ("sum not a number", {**nine, "killercage": [{"cells": ["R1C1"], "value": [3]}]}, "sum"),
        ("no unique solution", nine, "more than one solution"),
    ]


@pytest.mark.parametrize(("name", "data", "says"), _bad_cases(), ids=[c[0] for c in _bad_cases()])
def test_bad_fpuzzles_is_a_400_that_says_why(client, name, data, says):
    for url in (GAMES, ANALYSE):
        answer = client.post(url, {"fpuzzles": data}, format="json")
        if url == ANALYSE and name == "no unique solution":
            assert answer.status_code == 200 and answer.json()["solutions"] == 2
            continue
        assert answer.status_code == 400, (url, answer.json())
        assert says in answer.content.decode(), (url, answer.json())


def test_the_analysis_of_an_fpuzzles_killer_counts_and_solves_under_its_rules(client, make_variant):
    bank = make_variant("killer", size=6, level="hard", seed="an")
    data = _killer_fpuzzles(bank)
    Puzzle.objects.filter(pk=bank.pk).delete()  # not a bank puzzle in play
    answer = client.post(ANALYSE, {"fpuzzles": data}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["variant"] == "killer" and body["solutions"] == 1
    assert body["solution"] == bank.solution
    assert len(body["cages"]) == len(data["killercage"])


def test_the_analysis_takes_grid_or_fpuzzles_not_both(client):
    assert client.post(ANALYSE, {}, format="json").status_code == 400
    both = {"grid": "." * 81, "fpuzzles": {"size": 9, "grid": _fp_grid(9)}}
    assert client.post(ANALYSE, both, format="json").status_code == 400


def test_the_score_board_is_per_variant(client, make_variant):
    answer = client.get("/api/v1/leaderboards/", {"difficulty": "easy", "variant": "killer"})
    assert answer.status_code == 200
    assert (
        client.get("/api/v1/leaderboards/", {"difficulty": "easy", "variant": "x"}).status_code
        == 400
    )


def test_the_schema_describes_the_rules_a_client_draws():
    from drf_spectacular.generators import SchemaGenerator

    components = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    puzzle = components["GamePuzzle"]["properties"]
    assert {"variant", "regions", "diagonals", "cages"} <= set(puzzle)
    cage = components["Cage"]["properties"]
    assert set(cage) == {"cells", "sum"}
    start = components["GameCreateInputRequest"]["properties"]
    assert "fpuzzles" in start
    variant_ref = start["variant"]
    name = (variant_ref.get("$ref") or variant_ref["allOf"][0]["$ref"]).rsplit("/", 1)[-1]
    assert components[name]["enum"] == ["classic", "diagonal", "jigsaw", "killer"]
    assert "fpuzzles" in components["SolverAnalyseInputRequest"]["properties"]


@pytest.mark.parametrize("variant", ["diagonal", "jigsaw", "killer"])
def test_a_hint_on_a_variant_game_follows_its_rules(client, make_variant, variant):
    puzzle = make_variant(variant, level="medium")
    game = client.post(GAMES, {"variant": variant, "difficulty": "medium"}, format="json").json()
    url = f"{GAMES}{game['id']}/hint/"
    where = client.post(url, {"level": 1}, format="json")
    assert where.status_code == 200, where.json()
    applied = client.post(url, {"level": 3}, format="json")
    assert applied.status_code == 200, applied.json()
    hint = applied.json()["hint"]
    for pair in hint.get("placements", []):
        assert puzzle.solution[pair["cell"]] == str(pair["value"])
    for pair in hint.get("eliminations", []):
        assert puzzle.solution[pair["cell"]] != str(pair["value"])
    assert hint.get("placements") or hint.get("eliminations")
    assert applied.json()["game"]["hints_used"] == 3


def test_a_variant_hint_names_a_wrong_value_first(client, make_variant):
    puzzle = make_variant("jigsaw", level="medium")
    game = client.post(GAMES, {"variant": "jigsaw", "difficulty": "medium"}, format="json").json()
    cell = puzzle.givens.index(".")
    wrong = 1 if puzzle.solution[cell] != "1" else 2
    _move(client, game["id"], cell, wrong)
    hint = client.post(f"{GAMES}{game['id']}/hint/", {"level": 2}, format="json").json()["hint"]
    assert hint["technique"] == "incorrect_entry" and hint["cells"] == [cell]


def test_a_finished_variant_game_moves_no_rating(client, make_variant, user):
    from ratings.models import PlayerRating
    from ratings.services import game_is_rateable

    puzzle = make_variant("diagonal", size=6)
    game = client.post(
        GAMES, {"variant": "diagonal", "difficulty": "easy", "size": 6}, format="json"
    ).json()
    for cell, ch in enumerate(puzzle.solution):
        if puzzle.givens[cell] == ".":
            last = _move(client, game["id"], cell, int(ch))
    assert last.json()["completed"] is True
    finished = Game.objects.select_related("puzzle").get(pk=game["id"])
    assert finished.ranked and finished.status == "completed"
    assert not game_is_rateable(finished)
    assert not PlayerRating.objects.filter(user=user).exists()


def test_a_variant_replay_carries_the_rules_and_its_analysis(client, make_variant):
    from replays.services import analysis_compute

    puzzle = make_variant("killer", size=6)
    game = client.post(
        GAMES, {"variant": "killer", "difficulty": "easy", "size": 6}, format="json"
    ).json()
    cell = puzzle.givens.index(".")
    _move(client, game["id"], cell, int(puzzle.solution[cell]))
    assert client.post(f"{GAMES}{game['id']}/abandon/", {}, format="json").status_code == 200
    assert analysis_compute(game_id=game["id"]) is not None
    body = client.get(f"{GAMES}{game['id']}/replay/").json()
    assert body["puzzle"]["variant"] == "killer"
    assert body["puzzle"]["cages"] == puzzle.rules["cages"]
    assert body["analysis"]["status"] == "ready"
    assert [p["cell"] for p in body["analysis"]["data"]["placements"]] == [cell]


def test_a_finished_variant_game_is_on_its_variants_board_only(client, make_variant, user):
    from datetime import timedelta

    import time_machine

    from tests.integrity.players import START

    puzzle = make_variant("diagonal", size=6)
    with time_machine.travel(START, tick=False) as clock:  # a person's pace: the gate's review
        game = client.post(
            GAMES, {"variant": "diagonal", "difficulty": "easy", "size": 6}, format="json"
        ).json()
        for cell, ch in enumerate(puzzle.solution):
            if puzzle.givens[cell] == ".":
                clock.shift(timedelta(seconds=3))
                _move(client, game["id"], cell, int(ch))
    board = {"difficulty": "easy", "size": 6}
    diagonal = client.get("/api/v1/leaderboards/", {**board, "variant": "diagonal"}).json()
    classic = client.get("/api/v1/leaderboards/", board).json()
    assert [r["username"] for r in diagonal["results"]] == [user.username]
    assert classic["results"] == []
    page = client.get("/leaderboards/", {**board, "variant": "diagonal"}).content.decode()
    assert user.username in page


def test_a_givens_free_killer_is_analysed_at_its_logics_level_not_as_expert(client, make_variant):
    bank = make_variant("killer", level="medium", seed="free")
    assert bank.givens == "." * 81  # no givens: the old rule called it expert
    data = _killer_fpuzzles(bank)
    Puzzle.objects.filter(pk=bank.pk).delete()
    body = client.post(ANALYSE, {"fpuzzles": data}, format="json").json()
    assert body["level"] == "medium" and body["solved_by_logic"] is True


def test_a_variant_puzzle_beyond_the_techniques_is_analysed_as_master(client, make_variant):
    bank = make_variant("jigsaw", level="master", seed="beyond")
    regions = list(rules_of(bank).regions)
    data = {"size": 9, "grid": _fp_grid(9, bank.givens, regions)}
    Puzzle.objects.filter(pk=bank.pk).delete()
    body = client.post(ANALYSE, {"fpuzzles": data}, format="json").json()
    assert body["level"] == "master" and body["solved_by_logic"] is False
    assert body["score"] > 7500  # above every puzzle the techniques finish
