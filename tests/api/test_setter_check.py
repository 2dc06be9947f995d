"""The setter's bench, POST /api/v1/solver/check/: counts, grades and finds the logic's
stall, and never gives a unique puzzle's solution unless asked."""

from __future__ import annotations

from urllib.parse import unquote

import pytest

from solver import logic_solve, parse
from solver.formats.fpuzzles import to_fpuzzles
from solver.generation.constrained import make_constrained
from solver.grid import Shape
from solver.logic.classic import LogicResult
from solver.rules.ruleset import Rules
from solving import bench
from tests.api.test_solver_api import CLASHING, HOSTILE_16, UNIQUE, UNIQUE_SOLUTION, error_of

pytestmark = pytest.mark.django_db

CHECK = "/api/v1/solver/check/"
# Wikipedia's puzzle without its first two givens: two solutions or more.
LOOSE = ".." + UNIQUE[2:]


def check(client, **body):
    return client.post(CHECK, body, format="json")


def test_a_unique_puzzle_is_graded_without_its_solution(api_client):
    got = check(api_client, grid=UNIQUE).json()
    assert got["solutions"] == 1
    assert got["solution"] is None and got["difference"] is None
    assert got["level"] == "easy" and got["hardest"] and got["hardest_name"]
    assert got["solved_by_logic"] is True and got["stall"] is None


def test_the_solution_comes_only_when_the_setter_asks_to_solve(api_client):
    assert check(api_client, grid=UNIQUE, solve=True).json()["solution"] == UNIQUE_SOLUTION


def test_two_solutions_are_shown_apart_by_the_cells_that_differ(api_client):
    got = check(api_client, grid=LOOSE, solve=True).json()
    assert got["solutions"] == 2 and got["solution"] is None and got["level"] is None
    diff = got["difference"]
    assert diff["cells"] and len(diff["cells"]) == len(diff["cell_names"])
    assert all(a != b for a, b in zip(diff["first"], diff["second"], strict=True))
    assert all(LOOSE[c] == "." for c in diff["cells"])


def _stalling_logic(grid, budget):
    """The logic engine as if it stopped after ten steps."""
    full = logic_solve(grid, budget=budget)
    cells = list(grid.cells)
    for step in full.steps[:10]:
        for cell, value in step.placements:
            cells[cell] = value
    reached = parse("".join(str(v) if v else "." for v in cells))
    return LogicResult(steps=full.steps[:10], solved=False, grid=reached)


def test_the_stall_is_the_board_where_the_logic_stops(api_client, monkeypatch):
    monkeypatch.setattr(bench, "logic_solve", _stalling_logic)
    got = check(api_client, grid=UNIQUE).json()
    stall = got["stall"]
    assert got["solved_by_logic"] is False and got["solution"] is None
    assert stall["placed"] > 0 and stall["empty"] > 0
    for given, placed, answer in zip(UNIQUE, stall["grid"], UNIQUE_SOLUTION, strict=True):
        assert placed in (".", answer) and (given == "." or given == placed)


def test_clashing_givens_have_no_solution_and_name_the_clash(api_client):
    got = check(api_client, grid=CLASHING).json()
    assert got["solutions"] == 0 and got["conflicts"]


def test_an_fpuzzles_puzzle_with_new_givens_keeps_its_constraints(api_client):
    made = make_constrained("thermometer", Shape.for_size(6), 0)
    assert made is not None
    source = to_fpuzzles(made.rules, made.puzzle)
    whole = check(api_client, fpuzzles=source).json()
    assert whole["solutions"] == 1 and whole["solution"] is None and whole["level"]
    assert whole["constraints"] == [c.to_dict() for c in made.rules.constraints]
    bare = check(api_client, fpuzzles=source, grid="." * 36).json()
    assert bare["solutions"] == 2 and bare["difference"]["cells"]
    assert bare["constraints"] == whole["constraints"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "grid"),
        ({"fpuzzles": None}, "fpuzzles"),
        ({"grid": "12"}, "grid"),
        ({"fpuzzles": {"size": 6, "grid": [[{}] * 6] * 6}, "grid": "." * 81}, "grid"),
        ({"fpuzzles": {"size": 9, "grid": [[{}] * 9] * 9, "bogus": [{}]}}, "fpuzzles"),
        ({"grid": UNIQUE, "solve": "maybe"}, "solve"),
    ],
    ids=["nothing", "null", "unreadable", "wrong-size-givens", "unknown-constraint", "bad-solve"],
)
def test_bad_input_is_a_400_naming_the_field(api_client, body, field):
    answer = check(api_client, **body)
    assert answer.status_code == 400, answer.content
    assert field in answer.content.decode()


def test_a_puzzle_that_uses_up_the_budget_is_too_hard(api_client):
    assert parse(HOSTILE_16).size == 16
    assert error_of(check(api_client, grid=HOSTILE_16), 422, "too_hard")["engine"] == "search"


def test_the_check_counts_against_the_analyse_rate():
    from solving.api.throttles import AnalyseThrottle
    from solving.api.views import AnalyseView, SetterCheckView

    assert SetterCheckView.throttle_classes == AnalyseView.throttle_classes == [AnalyseThrottle]


def test_givens_that_break_a_constraint_are_a_named_contradiction(api_client):
    made = make_constrained("thermometer", Shape.for_size(6), 0)
    assert made is not None
    thermo = next(c.to_dict()["cells"] for c in made.rules.constraints if c.kind == "thermometer")
    givens = ["."] * 36
    givens[thermo[0]], givens[thermo[1]] = "6", "1"
    source = to_fpuzzles(made.rules, made.puzzle)
    got = check(api_client, fpuzzles=source, grid="".join(givens)).json()
    assert got["solutions"] == 0 and "thermometer" in got["contradiction"]


def test_a_constrained_puzzle_the_logic_cannot_finish_shows_its_stall(api_client):
    for seed in range(1, 6):  # the arrow generator's 6x6 at seed 1 stalls the logic today
        made = make_constrained("arrow", Shape.for_size(6), seed)
        assert made is not None
        got = check(api_client, fpuzzles=to_fpuzzles(made.rules, made.puzzle)).json()
        if got["stall"] is not None:
            break
    else:
        pytest.fail("no arrow puzzle of five stalls the logic")
    assert got["solutions"] == 1 and got["solution"] is None
    assert got["level"] == "master" and got["solved_by_logic"] is False
    answer = "".join(str(v) for v in made.solution.cells)
    assert got["stall"]["empty"] > 0
    assert all(s in (".", a) for s, a in zip(got["stall"]["grid"], answer, strict=True))


def test_the_schema_documents_the_check_and_the_puzzles_constraints():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    check_op = schema["paths"]["/api/v1/solver/check/"]["post"]
    assert {"200", "400", "403", "422", "429"} <= set(check_op["responses"])
    components = schema["components"]["schemas"]
    assert {"difference", "stall", "hardest_name"} <= set(components["SetterCheck"]["properties"])
    assert "constraints" in components["Puzzle"]["properties"]


def test_a_drawn_puzzle_comes_back_with_its_share_links_and_no_solution(api_client):
    made = make_constrained("thermometer", Shape.for_size(6), 0)
    assert made is not None
    source = to_fpuzzles(made.rules, made.puzzle)
    bare = dict(source, grid=[[{} for _ in range(6)] for _ in range(6)])
    got = check(api_client, fpuzzles=bare).json()
    assert got["solutions"] == 2  # the links come whatever the count: the setter shares drafts
    export = got["export"]
    assert export["fpuzzles"]["thermometer"] == source["thermometer"]
    assert "solution" not in export["fpuzzles"]
    assert export["sudokupad_url"].startswith("https://sudokupad.app/fpuzzles")
    assert export["fpuzzles_url"].startswith("https://www.f-puzzles.com/?load=")
    assert export["solve_url"].startswith("/solve/?puzzle=")
    # The Solve page's link reads back as the same puzzle, through the check itself.
    compressed = unquote(export["solve_url"].split("=", 1)[1])
    again = check(api_client, fpuzzles=compressed).json()
    assert again["constraints"] == got["constraints"] and again["grid"] == got["grid"]


def test_a_unique_drawn_puzzles_export_still_holds_no_solution(api_client):
    got = check(api_client, grid=UNIQUE).json()
    assert got["solutions"] == 1
    assert "solution" not in got["export"]["fpuzzles"]


def test_clashing_givens_have_no_export(api_client):
    assert check(api_client, grid=CLASHING).json()["export"] is None


def test_links_are_the_ones_the_exports_make_and_stop_above_16x16(api_client):
    from solver.formats.fpuzzles import fpuzzles_link, share_link

    export = check(api_client, grid=UNIQUE).json()["export"]
    assert export["sudokupad_url"] == share_link(export["fpuzzles"])
    assert export["fpuzzles_url"] == fpuzzles_link(export["fpuzzles"])
    giant = parse("." * 625)
    assert bench.puzzle_share(giant, Rules.classic(giant.shape)) is None


# A 6x6 with four solutions; two extra regions (r1c3-r2c4 and r4c5-r5c6, each across two
# boxes) leave two each, and one together: what the bench's e2e test draws.
EXTRA_GIVENS = "1...5...6.....2...3......4.3....5..1"
EXTRA_REGIONS = [[2, 3, 8, 9], [22, 23, 28, 29]]


def drawn_fpuzzles(givens: str, extra: list[list[int]]) -> dict:
    """The f-puzzles object as the bench builds it (static/js/bench_model.js)."""

    def cell(c: int) -> dict:
        return {"value": int(givens[c]), "given": True} if givens[c] != "." else {}

    ref = [f"R{c // 6 + 1}C{c % 6 + 1}" for c in range(36)]
    out: dict = {"size": 6, "grid": [[cell(r * 6 + k) for k in range(6)] for r in range(6)]}
    if extra:
        out["extraregion"] = [{"cells": [ref[c] for c in cells]} for cells in extra]
    return out


def test_drawn_extra_regions_are_counted_and_come_back_in_the_export(api_client):
    for extra in ([], EXTRA_REGIONS[:1], EXTRA_REGIONS[1:]):
        got = check(api_client, fpuzzles=drawn_fpuzzles(EXTRA_GIVENS, extra)).json()
        assert got["solutions"] == 2, extra
    source = drawn_fpuzzles(EXTRA_GIVENS, EXTRA_REGIONS)
    got = check(api_client, fpuzzles=source).json()
    assert got["solutions"] == 1 and got["solution"] is None
    assert got["constraints"] == [{"type": "extra_region", "cells": c} for c in EXTRA_REGIONS]
    assert got["export"]["fpuzzles"]["extraregion"] == source["extraregion"]
    compressed = unquote(got["export"]["solve_url"].split("=", 1)[1])
    assert check(api_client, fpuzzles=compressed).json()["constraints"] == got["constraints"]
