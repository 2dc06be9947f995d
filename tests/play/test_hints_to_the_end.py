"""Whole games played by hints alone, through the API, in every rule set and size.

Every hint is applied (level 3), reached through every stage (1, 2, then 3) one hint in
three; each step is checked against the puzzle's solution: a placement is the solution's
value, an elimination never removes it, a wrong value is named and only then cleared. The
game must end solved, with no hint refused and no step that changes nothing (a loop).
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from puzzles.models import Puzzle
from solver import SYMBOLS, format_line
from tests.play.factories import FOUR, NINE, puzzle_create
from tests.play.helpers import action, move, start
from tests.variants.conftest import variant_puzzle

pytestmark = pytest.mark.django_db


def _value(symbol: str) -> int:
    return 0 if symbol == "." else SYMBOLS.index(symbol) + 1


def _classic(size: int) -> Puzzle:
    if size == 4:
        return puzzle_create(FOUR)
    if size == 9:
        return puzzle_create(NINE)
    from solver.generation.classic import generate

    made = generate(size, level="easy" if size == 16 else "hard", seed=f"hints:{size}")
    return puzzle_create(format_line(made.puzzle))


def play_by_hints(
    client: APIClient, puzzle: Puzzle, *, notes: bool, mistake: bool, game_id: int | None = None
) -> dict:
    """Play ``puzzle`` to its end by hints alone; returns the finished game's JSON and
    the techniques the hints used."""
    gid = game_id if game_id is not None else start(client, puzzle)["id"]
    solution = [_value(s) for s in puzzle.solution]
    empty = [c for c, s in enumerate(puzzle.givens) if s == "."]
    n = puzzle.size
    if notes:  # the player's notes: right ones, wrong ones, and one leaving the value out
        for i, cell in enumerate(empty[: 3 * n : 3]):
            wrong = solution[cell] % n + 1
            for value in (wrong,) if i % 4 == 0 else (solution[cell], wrong):
                assert move(client, gid, cell, value, kind="note").status_code == 200
    wrong_cell = None
    if mistake:
        wrong_cell = empty[len(empty) // 2]
        assert move(client, gid, wrong_cell, solution[wrong_cell] % n + 1).status_code == 200
    techniques: dict[str, int] = {}
    seen: set[tuple[str, str, str, str]] = set()
    for turn in range(4 * len(empty) + 10):
        levels = (1, 2, 3) if turn % 3 == 0 else (3,)
        for level in levels:
            answer = action(client, gid, "hint", level=level)
            assert answer.status_code == 200, (turn, answer.json())
        body = answer.json()
        hint, game = body["hint"], body["game"]
        technique = hint["technique"]
        techniques[technique] = techniques.get(technique, 0) + 1
        assert hint["message"].strip(), hint
        assert "only  can" not in hint["message"], hint
        if wrong_cell is not None:  # the mistake is named first, never its right value
            assert technique == "incorrect_entry" and hint["cells"] == [wrong_cell], hint
            assert game["entries"][wrong_cell] == "."
            wrong_cell = None
        else:
            assert technique != "incorrect_entry", hint
        for pair in hint["placements"]:
            assert solution[pair["cell"]] == pair["value"], (technique, hint)
        for pair in hint["eliminations"]:
            assert solution[pair["cell"]] != pair["value"], (technique, hint)
        entries = game["entries"]
        for cell, symbol in enumerate(entries):
            assert symbol in (".", puzzle.solution[cell]), (technique, cell)
        assert all(entries[int(cell)] == "." for cell in game["notes"])
        # A hint whose eliminations the player's notes already made changes no note, but
        # no hint may come twice: that is a loop.
        said = (technique, str(hint["placements"]), str(hint["eliminations"]), entries)
        assert said not in seen, f"hint {technique} came twice: {hint}"
        seen.add(said)
        if game["status"] == "completed":
            assert entries == puzzle.solution
            return {"game": game, "techniques": techniques}
    raise AssertionError(f"no end after {turn} hints: {techniques}")


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("size", [4, 6, 9])
@pytest.mark.parametrize("notes,mistake", [(False, False), (True, True)])
def test_a_classic_game_is_finished_by_true_hints_alone(user, size, notes, mistake):
    played = play_by_hints(_client(user), _classic(size), notes=notes, mistake=mistake)
    assert played["game"]["hints_used"] > 0


def test_a_giant_classic_game_is_finished_by_true_hints_alone(user):
    played = play_by_hints(_client(user), _classic(16), notes=True, mistake=True)
    assert played["game"]["status"] == "completed"


SLOW_CASES = {("killer", 9, "expert"), ("killer", 9, "master")}
"""Made in 5 to 30 s of CPU: played in the slow run only."""


def _variant_cases() -> list:
    from puzzles.variants import VARIANT_LEVELS, variant_levels

    return [
        pytest.param(
            variant,
            size,
            level,
            marks=[pytest.mark.slow] if (variant, size, level) in SLOW_CASES else [],
        )
        for variant in VARIANT_LEVELS
        for size in (4, 6, 9)
        for level in variant_levels(variant, size)
    ]


@pytest.mark.parametrize("variant,size,level", _variant_cases())
def test_a_variant_game_is_finished_by_true_hints_alone(user, variant, size, level):
    puzzle = variant_puzzle(variant, size, level, seed="hints")
    played = play_by_hints(_client(user), puzzle, notes=True, mistake=True)
    assert played["game"]["status"] == "completed"


@pytest.mark.parametrize("variant", ["diagonal", "jigsaw", "killer"])
def test_a_variant_game_without_notes_or_mistakes_ends_by_hints(user, variant):
    puzzle = variant_puzzle(variant, 9, "medium", seed="plain")
    played = play_by_hints(_client(user), puzzle, notes=False, mistake=False)
    assert "incorrect_entry" not in played["techniques"]


def test_a_killer_practice_game_ends_by_true_hints(user):
    """A practice game looks for its technique first: its hints must stay true too."""
    from play.models import Game

    puzzle = variant_puzzle("killer", 9, "easy", seed="practice")
    client = _client(user)
    gid = start(client, puzzle)["id"]
    Game.objects.filter(pk=gid).update(practice_technique="cage_combination")
    played = play_by_hints(client, puzzle, notes=False, mistake=False, game_id=gid)
    assert played["techniques"].get("cage_combination", 0) > 0


def test_a_puzzle_beyond_the_logic_still_ends_with_true_search_hints(user, monkeypatch):
    """Where no technique applies the hint reveals one cell (a search step, paid as a
    hint), so the game still ends and every hint stays true: here the engine is left
    with the singles only, so a medium puzzle is beyond it."""
    import play.variant_hints
    from solver.logic.general import techniques_for

    singles = ("full_house", "naked_single", "hidden_single")
    monkeypatch.setattr(
        play.variant_hints,
        "techniques_for",
        lambda rules: tuple(t for t in techniques_for(rules) if t.slug in singles),
    )
    puzzle = variant_puzzle("jigsaw", 9, "hard", seed="beyond")
    played = play_by_hints(_client(user), puzzle, notes=True, mistake=False)
    assert played["techniques"].get("search", 0) > 0
    assert played["game"]["hints_used"] >= 3 * sum(played["techniques"].values())
