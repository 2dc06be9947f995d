"""The solver withholds only what the site holds: a daily's solution, under every copy of
it (rotated, reflected, transposed, relabelled where the rules allow; regions and cages
moved with the grid), and never a puzzle a player typed in or imported."""

from __future__ import annotations

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from puzzles.models import DailyPuzzle, Puzzle
from puzzles.variants import rules_of

pytestmark = pytest.mark.django_db

ANALYSE = "/api/v1/solver/analyse/"
GAMES = "/api/v1/games/"


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _fpuzzles(n: int, cells: list[int], regions: list[int], cages, diagonals: bool) -> dict:
    """An f-puzzles object writing every cell's region (as a file that spells out its
    boxes does)."""
    grid = [
        [
            {"region": regions[r * n + c]}
            | ({"value": cells[r * n + c], "given": True} if cells[r * n + c] else {})
            for c in range(n)
        ]
        for r in range(n)
    ]
    out: dict = {"size": n, "grid": grid}
    if diagonals:
        out["diagonal-"] = out["diagonal+"] = True
    if cages:
        out["killercage"] = [
            {"cells": [f"R{c // n + 1}C{c % n + 1}" for c in cells_], "value": str(total)}
            for cells_, total in cages
        ]
    return out


def _copy(puzzle: Puzzle, transform, *, relabel=None) -> dict:
    """The f-puzzles object of ``puzzle`` moved by ``transform`` (r, c, n) -> (r, c), its
    digits renamed by ``relabel`` (a function of the digit and n)."""
    n = puzzle.size
    rules = rules_of(puzzle)
    grid = puzzle.grid().cells
    where = []
    for cell in range(n * n):
        r, c = transform(cell // n, cell % n, n)
        where.append(r * n + c)
    cells = [0] * (n * n)
    regions = [0] * (n * n)
    for cell in range(n * n):
        v = grid[cell]
        cells[where[cell]] = relabel(v, n) if (relabel and v) else v
        regions[where[cell]] = rules.regions[cell]
    cages = []
    for cage in rules.cages:
        total = cage.total
        if relabel is not None:  # the complement: each cell's d becomes n + 1 - d
            total = len(cage.cells) * (n + 1) - total
        cages.append(([where[c] for c in cage.cells], total))
    return _fpuzzles(n, cells, regions, cages, rules.diagonals)


TRANSFORMS = {
    "as_is": lambda r, c, n: (r, c),
    "quarter_turn": lambda r, c, n: (c, n - 1 - r),
    "half_turn": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "mirrored": lambda r, c, n: (r, n - 1 - c),
    "transposed": lambda r, c, n: (c, r),
    "anti_transposed": lambda r, c, n: (n - 1 - c, n - 1 - r),
}


def _relabel_for(variant: str):
    if variant == "killer":
        return lambda d, n: n + 1 - d  # the one relabelling a Killer's sums allow
    return lambda d, n: d % n + 1  # any permutation: here 1 -> 2 -> ... -> n -> 1


@pytest.mark.parametrize("size", [6, 9])
@pytest.mark.parametrize("variant", ["diagonal", "jigsaw", "killer"])
def test_every_copy_of_a_variant_daily_is_withheld_by_the_solver(make_variant, variant, size):
    puzzle = make_variant(variant, size=size, level="medium" if size == 9 else "easy")
    DailyPuzzle.objects.create(date=timezone.localdate(), variant=variant, size=size, puzzle=puzzle)
    stranger = _client(UserFactory())
    for name, transform in TRANSFORMS.items():
        for relabel in (None, _relabel_for(variant)):
            body = {"fpuzzles": _copy(puzzle, transform, relabel=relabel)}
            answer = stranger.post(ANALYSE, body, format="json")
            assert answer.status_code == 403, (name, relabel is not None, answer.json())
            assert answer.json()["error"]["code"] == "puzzle_in_play"
            assert puzzle.solution not in answer.content.decode()


def test_an_imported_puzzle_opened_as_a_game_locks_the_solver_for_nobody(make_variant):
    made = make_variant("killer", size=6, level="easy")
    body = _copy(made, TRANSFORMS["mirrored"])  # a Killer from elsewhere, not the bank's
    made.delete()
    opener = _client(UserFactory())
    game = opener.post(GAMES, {"fpuzzles": body}, format="json")
    assert game.status_code == 201, game.json()
    assert Puzzle.objects.get(pk=game.json()["puzzle"]["id"]).source == "typed"
    for caller in (_client(UserFactory()), _client(), opener):
        answer = caller.post(ANALYSE, {"fpuzzles": body}, format="json")
        assert answer.status_code == 200, answer.json()
        assert answer.json()["solution"]


def test_a_typed_in_grid_opened_as_a_game_locks_the_solver_for_nobody():
    grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    opener = _client(UserFactory())
    game = opener.post(GAMES, {"grid": grid}, format="json")
    assert game.status_code == 201, game.json()
    for caller in (_client(UserFactory()), _client(), opener):
        answer = caller.post(ANALYSE, {"grid": grid}, format="json")
        assert answer.status_code == 200, answer.json()
        assert answer.json()["solution"]
