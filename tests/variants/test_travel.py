"""Puzzles travel both ways: exported as f-puzzles JSON and SudokuPad / f-puzzles links,
and read back from every form people paste, in every rule set and size."""

from __future__ import annotations

import json
from datetime import timedelta
from urllib.parse import quote

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from play.models import Game, Status
from puzzles.models import DailyPuzzle, Puzzle
from solver import format_line
from solver.formats.fpuzzles import MAX_JSON, compress
from solver.generation.classic import generate
from tests.play.factories import puzzle_create

pytestmark = pytest.mark.django_db

ANALYSE = "/api/v1/solver/analyse/"
GAMES = "/api/v1/games/"


def _client(user=None) -> APIClient:
    client = APIClient()
    client.force_authenticate(user or UserFactory())
    return client


def _puzzle(make_variant, variant: str, size: int) -> Puzzle:
    if variant == "classic":
        made = generate(size, level="easy", seed=f"travel:{size}")
        return puzzle_create(format_line(made.puzzle))
    return make_variant(variant, size=size)


def _cages(cages: list[dict]) -> list[tuple]:
    return sorted((tuple(cage["cells"]), cage["sum"]) for cage in cages)


def _forms(exported: dict) -> dict[str, object]:
    """Every form a person may paste the exported puzzle in."""
    data = exported["fpuzzles"]
    packed = compress(data)
    link = exported["sudokupad_url"]
    with_slash = next((i for i, ch in enumerate(packed) if ch == "/"), None)
    forms: dict[str, object] = {
        "object": data,
        "json_text": json.dumps(data),
        "compressed_text": packed,
        "sudokupad_link": link,
        "fpuzzles_link": exported["fpuzzles_url"],
        "puzzleid_query": "https://sudokupad.app/?puzzleid=fpuzzles" + quote(packed, safe=""),
        "ctc_app": "https://app.crackingthecryptic.com/sudoku/?puzzleid=fpuzzles" + packed,
        "beta_sudoku_html": "https://beta.sudokupad.app/sudoku.html?puzzleid=fpuz" + packed,
        "app_scheme": "sudokupad://puzzle/fpuzzles" + packed,
        "unencoded_with_spaces": "https://sudokupad.app/fpuzzles" + packed.replace("+", " "),
        "with_settings": link + "?setting-nogrid=1&setting-conflictchecker=0",
        "no_scheme": link.removeprefix("https://"),
        "fpuzzles_no_www": "f-puzzles.com/?load=" + quote(packed, safe=""),
        "padded_in_whitespace": f"  {link}\n",
    }
    if with_slash is not None and packed[with_slash + 1] == "/":
        forms["collapsed_slashes"] = "https://sudokupad.app/fpuzzles" + packed.replace("//", "/")
    return forms


@pytest.mark.parametrize("size", [6, 9])
@pytest.mark.parametrize("variant", ["classic", "diagonal", "jigsaw", "killer"])
def test_an_exported_puzzle_comes_back_the_same_from_every_form(make_variant, variant, size):
    puzzle = _puzzle(make_variant, variant, size)
    client = _client()
    exported = client.get(f"/api/v1/puzzles/{puzzle.pk}/export/")
    assert exported.status_code == 200, exported.json()
    body = exported.json()
    assert body["sudokupad_url"].startswith("https://sudokupad.app/fpuzzles")
    assert body["fpuzzles_url"].startswith("https://www.f-puzzles.com/?load=")
    assert body["solution_included"] is False and "solution" not in body["fpuzzles"]
    shown = client.get(f"/api/v1/puzzles/{puzzle.pk}/").json()
    for name, form in _forms(body).items():
        answer = client.post(ANALYSE, {"fpuzzles": form}, format="json")
        assert answer.status_code == 200, (name, answer.json())
        got = answer.json()
        assert got["grid"] == puzzle.givens, name
        assert got["solution"] == puzzle.solution, name
        assert got.get("variant", "classic") == variant, name
        if variant != "classic":
            assert got["regions"] == shown["regions"], name
            assert got["diagonals"] == shown["diagonals"], name
            assert _cages(got["cages"]) == _cages(shown["cages"]), name
    # Opened as a game, the link is the same puzzle, not a second copy.
    game = client.post(GAMES, {"fpuzzles": body["sudokupad_url"]}, format="json")
    assert game.status_code == 201, game.json()
    assert game.json()["puzzle"]["id"] == puzzle.pk


def _complete(game_id: int, puzzle: Puzzle, *, ago: timedelta = timedelta(0)) -> None:
    Game.objects.filter(pk=game_id).update(
        status=Status.COMPLETED, entries=puzzle.solution, finished=timezone.now() - ago
    )


def test_a_game_export_carries_the_solution_only_once_it_is_no_secret(make_variant):
    puzzle = make_variant("killer", size=6)
    client = _client()
    game = client.post(GAMES, {"puzzle": puzzle.pk}, format="json").json()
    playing = client.get(f"{GAMES}{game['id']}/export/").json()
    assert playing["solution_included"] is False
    assert "solution" not in playing["fpuzzles"]
    assert puzzle.solution not in json.dumps(playing)
    # Completed this week, it is a leaderboard puzzle in play: a shared link would carry
    # the solution to players still playing it for this week's board.
    _complete(game["id"], puzzle)
    assert client.get(f"{GAMES}{game['id']}/export/").json()["solution_included"] is False
    _complete(game["id"], puzzle, ago=timedelta(days=15))
    done = client.get(f"{GAMES}{game['id']}/export/").json()
    assert done["solution_included"] is True
    assert done["fpuzzles"]["solution"] == [int(v) for v in puzzle.solution]
    # The same export through the puzzle, and nobody else gets the solution.
    assert client.get(f"/api/v1/puzzles/{puzzle.pk}/export/").json()["solution_included"]
    other = _client().get(f"/api/v1/puzzles/{puzzle.pk}/export/").json()
    assert other["solution_included"] is False


def test_a_daily_export_holds_the_solution_while_it_is_the_daily(make_variant):
    puzzle = make_variant("diagonal", size=9)
    today = timezone.localdate()
    DailyPuzzle.objects.create(date=today, variant="diagonal", size=9, puzzle=puzzle)
    client = _client()
    game = client.post(GAMES, {"puzzle": puzzle.pk}, format="json").json()
    _complete(game["id"], puzzle, ago=timedelta(days=15))  # no board holds it: the daily does
    for url in (f"{GAMES}{game['id']}/export/", f"/api/v1/puzzles/{puzzle.pk}/export/"):
        got = client.get(url).json()
        assert got["solution_included"] is False, url
        assert puzzle.solution not in json.dumps(got)
    DailyPuzzle.objects.filter(puzzle=puzzle).update(date=today - timedelta(days=2))
    assert client.get(f"{GAMES}{game['id']}/export/").json()["solution_included"] is True


def test_sudokupad_cages_are_read_and_decorations_left_out_with_a_note(make_variant):
    puzzle = make_variant("killer", size=6)
    exported = _client().get(f"/api/v1/puzzles/{puzzle.pk}/export/").json()["fpuzzles"]
    data = dict(exported)
    data["cage"] = data.pop("killercage")  # SudokuPad writes its own cages as "cage"
    data["cage"] += [
        {"cells": [], "value": "Killer: digits in a cage sum to its total"},
        {"cells": ["R1C1"], "value": "title: Travel test"},
        {"cells": ["R1C1", "R1C2"], "value": "customstyle: #fff"},
        {"cells": ["R6C6"]},
    ]
    answer = _client().post(ANALYSE, {"fpuzzles": data}, format="json")
    assert answer.status_code == 200, answer.json()
    got = answer.json()
    assert got["solution"] == puzzle.solution
    assert len(got["cages"]) == len(puzzle.rules["cages"])
    assert len(got["import_notes"]) == 4
    assert all("left out" in note for note in got["import_notes"])
    link = "https://sudokupad.app/fpuzzles" + compress(data)
    game = _client().post(GAMES, {"fpuzzles": link}, format="json")
    assert game.status_code == 201, game.json()
    assert game.json()["puzzle"]["id"] == puzzle.pk
    assert game.json()["import_notes"] == got["import_notes"]


def _grid(n: int) -> list:
    return [[{} for _ in range(n)] for _ in range(n)]


BAD = {
    "not_json_text": "{size: 9, grid: nope",
    "not_any_form": "hello, this is a sudoku",
    "a_number": 42,
    "a_list": [1, 2, 3],
    "a_bool": True,
    "null_size": {"size": None, "grid": []},
    "size_as_text": {"size": "9", "grid": _grid(9)},
    "size_seven": {"size": 7, "grid": _grid(7)},
    "size_too_big": {"size": 25, "grid": _grid(25)},
    "rows_short": {"size": 9, "grid": _grid(9)[:8]},
    "cell_not_object": {"size": 4, "grid": [[1, 2, 3, 4]] * 4},
    "value_out_of_range": {"size": 4, "grid": [[{"value": 7, "given": True}, {}, {}, {}]] * 4},
    "unknown_constraint": {"size": 9, "grid": _grid(9), "quadruple": [{"cells": ["R1C1"]}]},
    "cage_cell_off_grid": {"size": 4, "grid": _grid(4), "killercage": [{"cells": ["R9C9"]}]},
    "cage_not_list": {"size": 4, "grid": _grid(4), "cage": "R1C1"},
    "huge_text": "A" * (MAX_JSON + 1),
    "sudokupad_own_format": "https://sudokupad.app/sclN4IgzglgXgpiBcBOANCA",
    "sudokupad_short_id": "https://sudokupad.app/abc123xyz",
    "fpuzzles_short_id": "https://www.f-puzzles.com/?id=abcd",
    "damaged_link": "https://sudokupad.app/fpuzzlesN4IgzglgXgpiBcBOANC%%%",
    "empty_link": "https://sudokupad.app/fpuzzles",
}


@pytest.mark.parametrize("name", sorted(BAD))
@pytest.mark.parametrize("endpoint", [ANALYSE, GAMES])
def test_bad_fpuzzles_input_of_every_class_is_a_clear_400(name, endpoint):
    answer = _client().post(endpoint, {"fpuzzles": BAD[name]}, format="json")
    assert answer.status_code == 400, (name, answer.status_code, answer.content[:300])
    error = answer.json().get("error") or answer.json()
    assert json.dumps(error).strip(), name
    assert "Traceback" not in answer.content.decode()


def test_the_game_and_replay_pages_offer_the_export_without_a_held_solution(make_variant):
    from django.test import Client

    puzzle = make_variant("jigsaw", size=6)
    user = UserFactory()
    page = Client()
    page.force_login(user)
    game = _client(user).post(GAMES, {"puzzle": puzzle.pk}, format="json").json()
    html = page.get(f"/play/{game['id']}/").content.decode()
    assert 'data-testid="puzzle-export"' in html
    assert "https://sudokupad.app/fpuzzles" in html and "f-puzzles.com/?load=" in html
    from urllib.parse import unquote

    href = html.split('data-testid="puzzle-export"')[1].split('href="data:application/json;')[1]
    exported = json.loads(unquote(href.split(",", 1)[1].split('"')[0]))
    assert exported["size"] == 6 and "solution" not in exported
    _complete(game["id"], puzzle)
    replay = page.get(f"/play/{game['id']}/replay/")
    assert replay.status_code == 200
    assert 'data-testid="puzzle-export"' in replay.content.decode()


def test_an_import_file_takes_share_links_and_json_lines_of_every_variant(make_variant):
    from puzzles.imports import puzzle_import_text

    made = {v: make_variant(v, size=6) for v in ("diagonal", "jigsaw", "killer")}
    client = _client()
    exports = {v: client.get(f"/api/v1/puzzles/{p.pk}/export/").json() for v, p in made.items()}
    for puzzle in made.values():
        puzzle.delete()  # a collection from elsewhere: none of them is in the bank yet
    classic = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    text = "\n".join(
        [
            exports["diagonal"]["sudokupad_url"],
            classic,
            json.dumps(exports["jigsaw"]["fpuzzles"]),
            exports["killer"]["fpuzzles_url"],
            "https://sudokupad.app/fpuzzlesN4IgzglgXgpiBcBOANCA%%",
            exports["diagonal"]["fpuzzles_url"],  # the same puzzle as line 1
        ]
    )
    report = puzzle_import_text(text=text)
    statuses = [line.status for line in report.lines]
    assert statuses == ["imported", "imported", "imported", "imported", "invalid", "duplicate"]
    assert [line.line for line in report.lines] == [1, 2, 3, 4, 5, 6]
    variants = {Puzzle.objects.get(pk=line.puzzle_id).variant for line in report.lines[:4]}
    assert variants == {"diagonal", "classic", "jigsaw", "killer"}
    assert all(
        Puzzle.objects.get(pk=line.puzzle_id).source == "imported" for line in report.lines[:4]
    )
