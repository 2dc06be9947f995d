"""The solver over HTTP: /api/v1/solver/analyse/ and /api/v1/solver/hint/."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings

from solver import LEVELS, BudgetExceeded, count_solutions, is_solution, logic_solve, parse
from solving.services import STEP_LIMIT, budget_for
from tests.solver.datasets import load

pytestmark = pytest.mark.django_db

ANALYSE = "/api/v1/solver/analyse/"
HINT = "/api/v1/solver/hint/"

# Wikipedia's example puzzle and its solution.
UNIQUE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
UNIQUE_SOLUTION = (
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)
# Row 1 holds 1-8 and column 9 holds a 9 (r5c9): r1c9 can take no value. Nothing clashes.
UNSOLVABLE = "12345678." + "." * 36 + "........9" + "." * 27
# Wikipedia's puzzle with a 5 added at r1c5: it clashes with r1c1 (row 1) and r2c6 (box 2).
CLASHING = "53..5....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

# Adversarial grids, chosen because they use up the budget of a request (the search needs
# more than 100,000 nodes on the first two and more than 4,096 on the third, against a
# budget of 3,559 on 16x16 and 933 on 25x25). A 16x16 with 68 scattered givens:
HOSTILE_16 = (
    ".2..............3.4....C.......2..G.......214....F7.E..6...4.C....93..F.......D..E..G..7"
    "..8.1.F.8.1.4..9....B..CC..51...F.D..834.G.....1A.6....D....CG.F.........C......E...9.."
    "A....A6.......1C....1D8.53..76.....E.......F..........E..................C4...E.."
)
HOSTILE_16_B = (
    "..A..B6...G.7F.2......G...DF.8.5...2...9..A.D.6..1B..7.4..8..G...BD.9....C....3....9GD8"
    "...4...21....B17...635..9F6......2.....G.8947...D.....1B....6..5.C..B.3.43......F..E..."
    "A........71........E.....B.13..........G4..B.....8...F.......42E.6....E.F.A8......"
)
# A nearly empty 25x25: 20 givens.
NEARLY_EMPTY_25 = "".join(
    {
        2: "L",
        27: "3",
        36: "E",
        155: "L",
        182: "O",
        199: "J",
        207: "5",
        238: "G",
        281: "G",
        320: "O",
        325: "I",
        336: "L",
        407: "8",
        423: "6",
        431: "9",
        441: "N",
        474: "G",
        519: "L",
        558: "O",
        613: "6",
    }.get(i, ".")
    for i in range(625)
)


def rate_limit(scope: str) -> int:
    """Requests allowed per period for a throttle scope ("30/min" -> 30)."""
    return int(django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope].split("/")[0])


def analyse(client, grid: str, *, environ: dict | None = None, **fields):
    return client.post(ANALYSE, {"grid": grid, **fields}, format="json", **(environ or {}))


def hint(client, grid: str, *, environ: dict | None = None, **fields):
    return client.post(HINT, {"grid": grid, **fields}, format="json", **(environ or {}))


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code
    assert error["message"]
    return error


def assert_steps_follow_the_solution(steps: list[dict], solution: str) -> None:
    """Every placement of every step is the solution's value, every elimination is not."""
    grid = parse(solution)
    for step in steps:
        assert step["technique"] and step["sentence"] and step["cells"]
        for placement in step["placements"]:
            assert grid.cells[placement["cell"]] == placement["value"]
        for elimination in step["eliminations"]:
            assert grid.cells[elimination["cell"]] != elimination["value"]


# --- Analyse: each answer field on known puzzles ------------------------------------------


def test_analyse_solves_grades_and_explains_a_unique_puzzle(api_client):
    response = analyse(api_client, UNIQUE)
    assert response.status_code == 200
    body = response.json()
    assert body["grid"] == UNIQUE
    assert (body["size"], body["box_rows"], body["box_cols"], body["clues"]) == (9, 3, 3, 30)
    assert body["conflicts"] == []
    assert body["solutions"] == 1
    assert body["solution"] == UNIQUE_SOLUTION
    assert body["level"] == "easy"
    assert body["score"] > 0
    assert body["solved_by_logic"] is True
    assert body["grade_complete"] is True
    assert sum(body["techniques"].values()) == body["steps_total"] == 81 - 30
    assert body["steps_truncated"] is False
    assert len(body["steps"]) == 51
    first = body["steps"][0]
    assert set(first) >= {"technique", "name", "sentence", "cells", "placements", "eliminations"}
    assert_steps_follow_the_solution(body["steps"], UNIQUE_SOLUTION)
    placed = {p["cell"] for step in body["steps"] for p in step["placements"]}
    assert placed == {i for i, ch in enumerate(UNIQUE) if ch == "."}


def test_analyse_reads_any_text_format_into_the_one_line_format(api_client):
    rows = [UNIQUE[r * 9 : r * 9 + 9] for r in range(9)]
    pretty = "\n".join(
        " | ".join(" ".join(row[c : c + 3]) for c in range(0, 9, 3)) for row in rows
    ).replace(".", "0")
    body = analyse(api_client, pretty).json()
    assert body["grid"] == UNIQUE
    assert body["solution"] == UNIQUE_SOLUTION


def test_analyse_says_two_for_a_puzzle_with_several_solutions(api_client):
    puzzle = load("serg_multisolution_1000")[0]
    body = analyse(api_client, puzzle).json()
    assert body["solutions"] == 2
    assert body["conflicts"] == []
    # Nothing that presumes one solution is given.
    assert body["solution"] is None
    assert body["level"] is None and body["score"] is None and body["techniques"] is None
    assert body["steps"] == [] and body["steps_total"] == 0


def test_analyse_says_zero_for_an_unsolvable_puzzle_without_clashes(api_client):
    body = analyse(api_client, UNSOLVABLE).json()
    assert body["conflicts"] == []
    assert body["solutions"] == 0
    assert body["solution"] is None
    assert body["level"] is None
    assert body["steps"] == []


def test_analyse_lists_clashing_cells_with_their_unit(api_client):
    body = analyse(api_client, CLASHING).json()
    assert body["solutions"] == 0
    assert body["solution"] is None
    assert body["conflicts"] == [
        {
            "cells": [0, 4],
            "cell_names": ["r1c1", "r1c5"],
            "unit": 0,
            "unit_name": "row 1",
            "kind": "row",
            "value": 5,
        },
        {
            "cells": [4, 14],
            "cell_names": ["r1c5", "r2c6"],
            "unit": 19,
            "unit_name": "box 2",
            "kind": "box",
            "value": 5,
        },
    ]


def test_analyse_handles_a_16x16_puzzle(api_client):
    puzzle = load("gen_16x16_unique")[4]
    body = analyse(api_client, puzzle).json()
    assert (body["size"], body["box_rows"], body["box_cols"]) == (16, 4, 4)
    assert body["grid"] == puzzle
    assert body["solutions"] == 1
    assert is_solution(parse(puzzle), parse(body["solution"]))
    assert body["level"] in LEVELS
    assert body["solved_by_logic"] is True
    assert body["score"] > 0
    assert_steps_follow_the_solution(body["steps"], body["solution"])


def test_analyse_caps_the_steps_and_says_so(api_client):
    puzzle = load("gen_25x25_unique")[0]  # 265 empty cells, all singles
    body = analyse(api_client, puzzle).json()
    assert body["solutions"] == 1
    assert body["step_limit"] == STEP_LIMIT
    assert len(body["steps"]) == STEP_LIMIT
    assert body["steps_total"] == 265
    assert body["steps_truncated"] is True
    assert_steps_follow_the_solution(body["steps"], body["solution"])


def test_analyse_takes_a_box_shape_for_grids_that_have_several(api_client):
    puzzle = "1.....2.....3.....4.....5.....6....."  # 6x6
    two_by_three = analyse(api_client, puzzle).json()
    three_by_two = analyse(api_client, puzzle, box_rows=3, box_cols=2).json()
    assert (two_by_three["box_rows"], two_by_three["box_cols"]) == (2, 3)
    assert (three_by_two["box_rows"], three_by_two["box_cols"]) == (3, 2)


# --- Analyse: the work budget --------------------------------------------------------------


@pytest.mark.parametrize(
    "grid", [HOSTILE_16, HOSTILE_16_B, NEARLY_EMPTY_25], ids=["16x16", "16x16-b", "25x25"]
)
def test_analyse_refuses_a_grid_that_uses_up_the_search_budget(api_client, grid):
    error = error_of(analyse(api_client, grid), 422, "too_hard")
    nodes = budget_for(parse(grid).shape).nodes
    assert error["engine"] == "search"
    assert error["budget"] == nodes
    assert f"{nodes} nodes" in error["message"]


def test_the_adversarial_grids_really_exceed_the_budget_of_the_pure_engine():
    # If the engine gets better at these, the API tests above need harder grids.
    for grid in (HOSTILE_16, HOSTILE_16_B, NEARLY_EMPTY_25):
        puzzle = parse(grid)
        with pytest.raises(BudgetExceeded):
            count_solutions(puzzle, limit=2, budget=budget_for(puzzle.shape).nodes)


def test_the_budget_shrinks_for_bigger_grids():
    nine, sixteen, twentyfive = (budget_for(parse("." * n * n).shape) for n in (9, 16, 25))
    assert nine.nodes == django_settings.SOLVER_NODE_BUDGET
    assert nine.nodes > sixteen.nodes > twentyfive.nodes
    assert nine.passes > sixteen.passes > twentyfive.passes


def test_analyse_refuses_a_puzzle_that_uses_up_the_logic_budget(api_client, settings):
    puzzle = load("magictour_top1465")[0]
    needed = logic_solve(parse(puzzle)).passes
    settings.SOLVER_LOGIC_BUDGET = needed - 1
    error = error_of(analyse(api_client, puzzle), 422, "too_hard")
    assert error["engine"] == "logic"
    assert error["budget"] == needed - 1


def test_analyse_still_answers_when_grading_by_trial_does_not_fit(api_client, settings):
    puzzle = load("forum_hardest_1106")[0]
    result = logic_solve(parse(puzzle))
    assert not result.solved  # the grader would have to go on by trial and error
    settings.SOLVER_LOGIC_BUDGET = result.passes  # enough for the logic engine, no more
    body = analyse(api_client, puzzle).json()
    assert body["solutions"] == 1
    assert is_solution(parse(puzzle), parse(body["solution"]))
    assert body["grade_complete"] is False
    assert body["level"] == "master"
    assert body["hardest"] == "search"
    assert body["score"] is None
    assert body["solved_by_logic"] is False
    assert body["steps_total"] == len(result.steps)


def test_a_multi_solution_grid_is_not_refused_for_the_budget(api_client):
    body = analyse(api_client, "." * 256).json()  # an empty 16x16
    assert body["solutions"] == 2


# --- Bad input -----------------------------------------------------------------------------


def test_a_bad_symbol_is_a_400_naming_the_cell(api_client):
    error = error_of(analyse(api_client, "12x" + "." * 78), 400, "invalid_grid")
    assert error["message"] == "cell r1c3: 'x' is not a symbol of a 9x9 grid"
    assert error["field"] == "grid"


def test_a_value_too_big_for_the_grid_is_a_400_naming_the_cell(api_client):
    error = error_of(analyse(api_client, "." * 40 + "G" + "." * 40), 400, "invalid_grid")
    assert "r5c5" in error["message"]


def test_a_wrong_cell_count_is_a_400_saying_what_was_expected(api_client):
    error = error_of(analyse(api_client, "." * 80), 400, "invalid_grid")
    assert error["message"] == "80 cells, expected 81 (a 9x9 grid)"


def test_a_parse_error_after_blank_lines_names_the_line(api_client):
    error = error_of(analyse(api_client, "\n\n12x" + "." * 78), 400, "invalid_grid")
    assert error["message"].startswith("line 3: cell r1c3")


def test_a_number_of_thousands_of_digits_is_a_400_naming_the_cell(api_client):
    grid = " ".join(["1"] * 15 + ["9" * 5000])  # 16 numbers: a 4x4 grid
    error = error_of(analyse(api_client, grid), 400, "invalid_grid")
    assert error["message"].startswith("cell r4c4: '999")


def test_a_grid_over_625_cells_is_a_400(api_client):
    error = error_of(analyse(api_client, "." * 626), 400, "invalid_grid")
    assert "625" in error["message"]


def test_several_puzzles_in_one_grid_is_a_400(api_client):
    error = error_of(analyse(api_client, f"{UNIQUE}\n{UNIQUE}"), 400, "invalid_grid")
    assert "send one puzzle" in error["message"]


@pytest.mark.parametrize(
    ("box_rows", "box_cols", "expected"),
    [
        (5, 6, "box shape 5x6 is not supported"),
        (4, 4, "81 cells, expected 256"),
        (3, None, "give both box_rows and box_cols"),
    ],
)
def test_an_unusable_box_shape_is_a_400(api_client, box_rows, box_cols, expected):
    extra = {"box_rows": box_rows} | ({"box_cols": box_cols} if box_cols else {})
    error = error_of(analyse(api_client, UNIQUE, **extra), 400, "invalid_grid")
    assert expected in error["message"]


@pytest.mark.parametrize("box_rows", [1, 13, "3x3", 2.5])
def test_a_box_side_out_of_range_is_a_400_naming_the_field(api_client, box_rows):
    error = error_of(analyse(api_client, UNIQUE, box_rows=box_rows, box_cols=3), 400, "invalid")
    assert "box_rows" in error["fields"]


def test_a_grid_that_is_not_text_is_a_400(api_client):
    for grid in (5, ["53..7...."], None, True):
        error = error_of(analyse(api_client, grid), 400, "invalid")
        assert "grid" in error["fields"]


def test_a_missing_grid_is_a_400(api_client):
    error = error_of(api_client.post(ANALYSE, {}, format="json"), 400, "invalid")
    assert "grid" in error["fields"]


def test_grid_text_longer_than_any_grid_is_a_400(api_client):
    error = error_of(analyse(api_client, " " * 20_000 + UNIQUE), 400, "invalid")
    assert "grid" in error["fields"]


def test_a_body_over_the_size_limit_is_a_413(api_client):
    grid = "." * (django_settings.API_MAX_BODY_BYTES + 1)
    error_of(analyse(api_client, grid), 413, "request_too_large")


# --- Hint ----------------------------------------------------------------------------------


def test_hint_gives_the_next_logical_step_from_the_givens(api_client):
    response = hint(api_client, UNIQUE)
    assert response.status_code == 200
    body = response.json()
    assert body["solved"] is False
    step = body["step"]
    assert step["technique"] in {"full_house", "naked_single", "hidden_single"}
    assert step["placements"]
    assert_steps_follow_the_solution([step], UNIQUE_SOLUTION)


def test_hint_works_from_the_players_entries(api_client):
    # Everything filled in but r1c3: the full house is the only step.
    entries = UNIQUE_SOLUTION[:2] + "." + UNIQUE_SOLUTION[3:]
    step = hint(api_client, UNIQUE, entries=entries).json()["step"]
    assert step["technique"] == "full_house"
    assert step["placements"] == [{"cell": 2, "cell_name": "r1c3", "value": 4}]


def test_hint_names_a_wrong_entry_without_giving_the_value(api_client):
    entries = "532" + UNIQUE[3:]  # r1c3 is 4 in the solution
    step = hint(api_client, UNIQUE, entries=entries).json()["step"]
    assert step["technique"] == "incorrect_entry"
    assert step["cells"] == [2]
    assert step["placements"] == []
    assert "4" not in step["sentence"]


def test_hint_names_notes_that_leave_out_the_value(api_client):
    # r1c3's value is 4; notes of 1 and 2 leave it out.
    step = hint(api_client, UNIQUE, notes={"r1c3": "12"}).json()["step"]
    assert step["technique"] == "incorrect_note"
    assert step["cells"] == [2]


def test_hint_accepts_notes_by_cell_index_and_as_lists(api_client):
    by_name = hint(api_client, UNIQUE, notes={"r1c3": "124"}).json()
    by_index = hint(api_client, UNIQUE, notes={"2": [1, 2, 4]}).json()
    assert by_name == by_index
    assert by_name["step"]["technique"] != "incorrect_note"


def test_hint_on_a_solved_board_says_solved(api_client):
    body = hint(api_client, UNIQUE, entries=UNIQUE_SOLUTION).json()
    assert body == {"solved": True, "step": None}


def test_hint_refuses_entries_that_change_a_given(api_client):
    entries = "63" + UNIQUE[2:]
    error = error_of(hint(api_client, UNIQUE, entries=entries), 400, "invalid_grid")
    assert error["field"] == "entries"
    assert "r1c1" in error["message"]


def test_hint_refuses_entries_of_another_size(api_client):
    error = error_of(hint(api_client, UNIQUE, entries="." * 16), 400, "invalid_grid")
    assert error["field"] == "entries"
    assert error["message"] == "16 cells, expected 81 for a 9x9 grid with 3x3 boxes"


@pytest.mark.parametrize(
    "notes",
    [
        {"r10c1": "1"},
        {"81": "1"},
        {"9" * 5000: "1"},
        {"a": "1"},
        {"r1c3": "0"},
        {"r1c3": [10]},
        {"r1c3": 5},
    ],
)
def test_hint_refuses_notes_it_cannot_read(api_client, notes):
    error = error_of(hint(api_client, UNIQUE, notes=notes), 400, "invalid_grid")
    assert error["field"] == "notes"


def test_hint_refuses_a_puzzle_with_several_solutions(api_client):
    puzzle = load("serg_multisolution_1000")[0]
    error_of(hint(api_client, puzzle), 400, "multiple_solutions")


def test_hint_refuses_a_puzzle_without_a_solution(api_client):
    error_of(hint(api_client, UNSOLVABLE), 400, "no_solution")
    error = error_of(hint(api_client, CLASHING), 400, "no_solution")
    assert "r1c1 and r1c5 both hold 5 in row 1" in error["message"]


def test_hint_refuses_a_grid_that_uses_up_the_budget(api_client):
    error = error_of(hint(api_client, HOSTILE_16), 422, "too_hard")
    assert error["engine"] == "search"


# --- Throttling and access -----------------------------------------------------------------


def test_analyse_is_throttled_per_client_address_with_retry_after(api_client):
    limit = rate_limit("solver_analyse")
    grid = "1234341221434321"
    for _ in range(limit):
        assert analyse(api_client, grid, environ={"REMOTE_ADDR": "192.0.2.7"}).status_code == 200
    refused = analyse(api_client, grid, environ={"REMOTE_ADDR": "192.0.2.7"})
    error = error_of(refused, 429, "throttled")
    assert int(refused.headers["Retry-After"]) > 0
    assert "second" in error["message"]
    # Another address, or a claimed X-Forwarded-For, is counted on its own.
    assert analyse(api_client, grid, environ={"REMOTE_ADDR": "192.0.2.8"}).status_code == 200
    spoofed = analyse(
        api_client,
        grid,
        environ={"REMOTE_ADDR": "192.0.2.7", "HTTP_X_FORWARDED_FOR": "198.51.100.1"},
    )
    assert spoofed.status_code == 429


def test_hint_is_throttled_on_its_own_count(api_client):
    limit = rate_limit("solver_hint")
    for _ in range(limit):
        analyse(api_client, "1234341221434321")  # does not count against hints
    statuses = [hint(api_client, "4.....3.....31..").status_code for _ in range(limit + 1)]
    assert statuses[:limit] == [200] * limit
    assert statuses[-1] == 429


def test_signed_in_players_are_counted_per_account(token_client, api_client):
    limit = rate_limit("solver_analyse")
    for i in range(limit):
        analyse(token_client, "1234341221434321", environ={"REMOTE_ADDR": f"192.0.2.{i + 1}"})
    assert analyse(token_client, "1234341221434321").status_code == 429
    # A guest at one of the same addresses is not affected.
    assert (
        analyse(api_client, "1234341221434321", environ={"REMOTE_ADDR": "192.0.2.1"}).status_code
        == 200
    )


def test_the_schema_documents_the_solver_endpoints(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in (ANALYSE, HINT):
        responses = schema["paths"][path]["post"]["responses"]
        assert {"200", "400", "413", "422", "429"} <= set(responses)
