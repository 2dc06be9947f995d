"""The key of a puzzle with constraints is the same for each copy of it under the eight
symmetries of the square (every constraint moved with its cells) and the relabellings its
rules allow, and differs for another puzzle. The copies are made here, from the
constraints' JSON, independently of ``Constraint.moved``."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.factories import UserFactory
from puzzles.models import DailyPuzzle, Puzzle, Source
from puzzles.variant_bank import variant_puzzle_store
from puzzles.variant_keys import variant_canonical_key
from puzzles.variants import rules_of, rules_stored
from solver.formats.fpuzzles import to_fpuzzles
from solver.generation.constrained import DRAWN, make_constrained
from solver.grid import Grid, Shape, format_line
from solver.rules.constraints import LittleKiller, Sandwich, Thermometer
from solver.rules.ruleset import Rules
from solver.search.exact import solutions
from tests.play.helpers import start

ANALYSE = "/api/v1/solver/analyse/"

TRANSFORMS = {
    "as_is": lambda r, c, n: (r, c),
    "quarter_turn": lambda r, c, n: (c, n - 1 - r),
    "half_turn": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "three_quarters": lambda r, c, n: (n - 1 - c, r),
    "mirrored": lambda r, c, n: (r, n - 1 - c),
    "upside_down": lambda r, c, n: (n - 1 - r, c),
    "transposed": lambda r, c, n: (c, r),
    "anti_transposed": lambda r, c, n: (n - 1 - c, n - 1 - r),
}
KINDS_MADE = (*DRAWN, "mix")
NINES = ("thermometer", "arrow", "xv", "little_killer", "whispers", "mix")


def _made(kind: str, size: int, seed: int = 5):
    made = make_constrained(kind, Shape.for_size(size), seed)
    assert made is not None
    return made


def _key(grid: Grid, rules: Rules) -> str:
    return variant_canonical_key(grid, rules)


def _moved_constraint(data: dict, t, n: int) -> dict:
    """One constraint's JSON moved by ``t`` (r, c, n) -> (r, c)."""

    def cell(i: int) -> int:
        r, c = t(i // n, i % n, n)
        return r * n + c

    out = dict(data)
    for key in ("cells", "circle", "line"):
        if isinstance(out.get(key), list):
            out[key] = [cell(i) for i in out[key]]
    if "cell" in out:
        out["cell"] = cell(out["cell"])
    if data["type"] == "little_killer":
        r, c = t(*data["clue"], n)
        first_r, first_c = divmod(out["cells"][0], n)  # the diagonal's first cell, moved
        out["clue"] = [r, c]
        out["direction"] = ("D" if first_r > r else "U") + ("R" if first_c > c else "L")
    if data["type"] == "sandwich":
        i = data["index"]
        line = [(i, k) if data["line"] == "row" else (k, i) for k in range(n)]
        moved = [t(r, c, n) for r, c in line]
        if len({r for r, _ in moved}) == 1:
            out["line"], out["index"] = "row", moved[0][0]
        else:
            out["line"], out["index"] = "column", moved[0][1]
    return out


def _copy(grid: Grid, rules: Rules, t) -> tuple[Grid, Rules]:
    """The puzzle moved by ``t``: givens, regions and constraints."""
    n = rules.size
    cells = [0] * (n * n)
    regions = [0] * (n * n)
    for i in range(n * n):
        r, c = t(i // n, i % n, n)
        cells[r * n + c] = grid.cells[i]
        regions[r * n + c] = rules.regions[i]
    moved = [_moved_constraint(con.to_dict(), t, n) for con in rules.constraints]
    data = {"size": n, "regions": regions, "constraints": moved}
    return grid.with_cells(cells), Rules.from_dict(data, rules.shape)


@pytest.mark.parametrize("kind, size", [(k, 6) for k in KINDS_MADE] + [(k, 9) for k in NINES])
def test_every_symmetric_copy_of_a_constrained_puzzle_has_its_key(kind, size):
    made = _made(kind, size)
    key = _key(made.puzzle, made.rules)
    for name, t in TRANSFORMS.items():
        grid, rules = _copy(made.puzzle, made.rules, t)
        solution, _ = _copy(made.solution, made.rules, t)
        found = solutions(grid, limit=2, rules=rules)
        assert found == [solution], name  # the copy is the same puzzle, moved
        assert _key(grid, rules) == key, name


def _complement(data: dict, n: int) -> dict:
    """One constraint's JSON for the grid with every digit d written n + 1 - d."""
    out = dict(data)
    if data["type"] == "thermometer":
        out["cells"] = data["cells"][::-1]
    elif data["type"] == "little_killer":
        out["sum"] = len(data["cells"]) * (n + 1) - data["sum"]
    elif data["type"] == "xv":
        out["sum"] = 2 * (n + 1) - data["sum"]
    elif data["type"] in ("odd", "even") and n % 2 == 0:
        out["type"] = "even" if data["type"] == "odd" else "odd"
    return out


@pytest.mark.parametrize(
    "kind, size",
    [
        ("thermometer", 6),
        ("little_killer", 6),
        ("parity", 6),
        ("parity", 9),
        ("whispers", 6),
        ("renban", 6),
        ("between", 6),
        ("nonconsecutive", 6),
        ("thermometer", 9),
    ],
)
def test_the_complemented_copy_has_the_key_where_every_constraint_allows_it(kind, size):
    made = _made(kind, size)
    n = size
    for name in ("as_is", "transposed", "quarter_turn"):
        grid, rules = _copy(made.puzzle, made.rules, TRANSFORMS[name])
        solution, _ = _copy(made.solution, made.rules, TRANSFORMS[name])
        flipped = {
            "size": n,
            "regions": list(rules.regions),
            "constraints": [_complement(c.to_dict(), n) for c in rules.constraints],
        }
        rules = Rules.from_dict(flipped, rules.shape)
        grid = grid.with_cells([n + 1 - v if v else 0 for v in grid.cells])
        solution = solution.with_cells([n + 1 - v for v in solution.cells])
        assert solutions(grid, limit=2, rules=rules) == [solution], name
        assert _key(grid, rules) == _key(made.puzzle, made.rules), name


@pytest.mark.parametrize("kind", ["antiknight", "antiking", "extra_region", "palindrome"])
def test_a_puzzle_whose_constraints_only_say_which_cells_differ_is_keyed_under_any_labels(kind):
    made = _made(kind, 6)
    renamed = made.puzzle.with_cells([v % 6 + 1 if v else 0 for v in made.puzzle.cells])
    assert _key(renamed, made.rules) == _key(made.puzzle, made.rules)


@pytest.mark.parametrize("kind", ["arrow", "sandwich", "kropki", "xv"])
def test_no_relabelling_is_allowed_where_a_constraint_reads_the_digits(kind):
    """The givens complemented under the same constraints: another puzzle (most likely
    with no solution), and another key."""
    made = _made(kind, 6)
    flipped = made.puzzle.with_cells([7 - v if v else 0 for v in made.puzzle.cells])
    assert _key(flipped, made.rules) != _key(made.puzzle, made.rules)
    renamed = made.puzzle.with_cells([v % 6 + 1 if v else 0 for v in made.puzzle.cells])
    assert _key(renamed, made.rules) != _key(made.puzzle, made.rules)


@pytest.mark.parametrize("kind", KINDS_MADE)
def test_a_puzzle_with_one_constraint_left_out_has_another_key(kind):
    made = _made(kind, 6)
    for dropped in made.rules.constraints[:3]:
        fewer = Rules.make(
            made.rules.shape, constraints=[c for c in made.rules.constraints if c != dropped]
        )
        assert _key(made.puzzle, fewer) != _key(made.puzzle, made.rules)


def _changed(kind: str, rules: Rules) -> Rules:
    """The constraints with the first one turned another way, its cells kept where the
    type allows it."""
    cons = list(rules.constraints)
    if kind == "thermometer":
        cons[0] = Thermometer(cons[0].line[::-1])
    elif kind == "sandwich":
        con = cons[0]
        cons[0] = Sandwich("column" if con.line == "row" else "row", con.index, con.total)
    else:  # a little killer from the same place along the other diagonal
        flip = {"DR": "DL", "DL": "DR", "UR": "UL", "UL": "UR"}
        for i, con in enumerate(cons):
            other = LittleKiller.make(6, *con.clue, flip[con.direction], con.total)
            if len(other.diagonal) >= 2 and con.total <= 6 * len(other.diagonal):
                cons[i] = other
                break
        else:
            raise AssertionError("no little killer clue to turn")
    return Rules.make(rules.shape, constraints=cons)


@pytest.mark.parametrize("kind", ["thermometer", "little_killer", "sandwich"])
def test_a_clue_pointing_another_way_makes_another_puzzle_and_key(kind):
    made = _made(kind, 6)
    changed = _changed(kind, made.rules)
    assert changed != made.rules
    assert _key(made.puzzle, changed) != _key(made.puzzle, made.rules)


def test_a_little_killer_clued_from_the_other_end_of_its_diagonal_keeps_the_key():
    made = _made("little_killer", 6)
    steps = {"DR": (1, 1), "UL": (-1, -1), "DL": (1, -1), "UR": (-1, 1)}
    back = {"DR": "UL", "UL": "DR", "DL": "UR", "UR": "DL"}
    cons = []
    for con in made.rules.constraints:
        dr, dc = steps[con.direction]
        r, c = divmod(con.diagonal[-1], 6)
        cons.append(LittleKiller.make(6, r + dr, c + dc, back[con.direction], con.total))
    other = Rules.make(made.rules.shape, constraints=cons)
    assert other != made.rules
    assert _key(made.puzzle, other) == _key(made.puzzle, made.rules)


def test_a_thermometer_puzzle_and_its_copy_without_the_complement_differ():
    """Turning every thermometer round without complementing the givens is not the same
    puzzle (its solution is not a relabelling), so it keeps its own key."""
    made = _made("thermometer", 6)
    turned = Rules.make(
        made.rules.shape, constraints=[Thermometer(c.line[::-1]) for c in made.rules.constraints]
    )
    assert _key(made.puzzle, turned) != _key(made.puzzle, made.rules)


# --- The solver's API withholds every copy ----------------------------------------------


def _stored(kind: str, size: int):
    made = _made(kind, size)
    puzzle, _ = variant_puzzle_store(
        grid=made.puzzle, rules=made.rules, solution=made.solution, source=Source.GENERATED
    )
    return made, puzzle


def _refused(answer, solution: str) -> bool:
    return (
        answer.status_code == 403
        and answer.json()["error"]["code"] == "puzzle_in_play"
        and solution not in answer.content.decode()
    )


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["thermometer", "little_killer", "sandwich", "mix"])
def test_a_transposed_copy_of_a_constrained_daily_is_refused_like_the_original(kind):
    made, puzzle = _stored(kind, 6)
    DailyPuzzle.objects.create(date=timezone.localdate(), variant="classic", size=6, puzzle=puzzle)
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    for name in ("as_is", "transposed", "quarter_turn", "mirrored"):
        grid, rules = _copy(made.puzzle, made.rules, TRANSFORMS[name])
        body = {"fpuzzles": to_fpuzzles(rules, grid)}
        assert _refused(stranger.post(ANALYSE, body, format="json"), puzzle.solution), name


@pytest.mark.django_db
def test_a_transposed_copy_of_a_constrained_puzzle_the_caller_plays_is_refused(token_client):
    made, puzzle = _stored("arrow", 6)
    start(token_client, puzzle)
    grid, rules = _copy(made.puzzle, made.rules, TRANSFORMS["transposed"])
    body = {"fpuzzles": to_fpuzzles(rules, grid)}
    assert _refused(token_client.post(ANALYSE, body, format="json"), puzzle.solution)


@pytest.mark.django_db
def test_another_constrained_puzzle_is_analysed_while_a_daily_is_protected():
    made, puzzle = _stored("thermometer", 6)
    DailyPuzzle.objects.create(date=timezone.localdate(), variant="classic", size=6, puzzle=puzzle)
    grid, rules = _copy(made.puzzle, made.rules, TRANSFORMS["transposed"])
    turned = Rules.make(rules.shape, regions=rules.regions, constraints=rules.constraints[1:])
    answer = APIClient().post(ANALYSE, {"fpuzzles": to_fpuzzles(turned, grid)}, format="json")
    assert answer.status_code == 200, answer.json()


# --- The migration that stores the new keys ---------------------------------------------


@pytest.mark.django_db
def test_the_migration_gives_stored_constrained_puzzles_their_new_key_unless_taken():
    from django.apps import apps

    rekey = import_module("puzzles.migrations.0012_constrained_keys_under_symmetries").rekey
    _, puzzle = _stored("thermometer", 6)
    _, other = _stored("arrow", 6)
    new = puzzle.canonical_key
    Puzzle.objects.filter(pk=puzzle.pk).update(canonical_key="old-form")
    copy_key = other.canonical_key
    Puzzle.objects.filter(pk=other.pk).update(canonical_key="old-arrow")
    # a copy of the arrow puzzle, stored before copies were recognised, holds its key
    grid, rules = _copy(other.grid(), rules_of(other), TRANSFORMS["transposed"])
    held = Puzzle.objects.get(pk=other.pk)
    held.pk = None
    held.givens, held.rules, held.canonical_key = format_line(grid), rules_stored(rules), copy_key
    held.save()
    rekey(apps, None)
    assert Puzzle.objects.get(pk=puzzle.pk).canonical_key == new
    assert Puzzle.objects.get(pk=other.pk).canonical_key == "old-arrow"
    assert Puzzle.objects.get(pk=held.pk).canonical_key == copy_key
