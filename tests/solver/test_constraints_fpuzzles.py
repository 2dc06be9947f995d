"""Every constraint through f-puzzles JSON and a share link, and SudokuPad's spellings."""

from __future__ import annotations

import pytest

from solver.formats.fpuzzles import (
    FPuzzlesError,
    from_fpuzzles,
    read_share_link,
    share_link,
    to_fpuzzles,
)
from solver.generation.constrained import DRAWN, make_constrained
from solver.grid import Shape
from solver.rules.constraints import (
    XV,
    Arrow,
    BlackDotsNegative,
    Kropki,
    LittleKiller,
    RegionSumLine,
    Renban,
    Sandwich,
    Thermometer,
    Whispers,
)

SIX = Shape.for_size(6)


def _same(a, b) -> bool:
    return sorted(map(repr, a)) == sorted(map(repr, b))


@pytest.mark.parametrize("kind", DRAWN)
def test_every_constraint_round_trips_through_f_puzzles(kind):
    made = make_constrained(kind, SIX, 11)
    assert made is not None
    data = to_fpuzzles(made.rules, made.puzzle, solution=made.solution)
    back = from_fpuzzles(data)
    assert _same(back.rules.constraints, made.rules.constraints)
    assert back.puzzle == made.puzzle and back.solution == made.solution
    again = read_share_link(share_link(data))
    assert _same(again.rules.constraints, made.rules.constraints)


def _nine(**extra):
    return {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)], **extra}


def test_sudokupad_spellings_are_read():
    found = from_fpuzzles(
        _nine(
            thermometer=[{"lines": [["R1C1", "R1C2", "R1C3"], ["R1C1", "R2C1"]]}],
            arrow=[{"cells": ["R5C5", "R5C6"], "lines": [["R5C6", "R6C7", "R7C8"]]}],
            ratio=[{"cells": ["R9C1", "R9C2"]}],
            difference=[{"cells": ["R9C3", "R9C4"], "value": "2"}],
            xv=[{"cells": ["R8C1", "R8C2"], "value": "X"}],
            negative=["ratio"],
            littlekillersum=[{"cell": "R0C2", "direction": "DR", "value": "12"}],
            sandwichsum=[{"cell": "R0C4", "value": "7"}, {"cell": "R3C0", "value": 0}],
            renban=[{"lines": [["R3C3", "R3C4", "R3C5"]]}],
            whispers=[{"lines": [["R4C1", "R4C2", "R4C3"]]}],
            regionsumline=[{"lines": [["R2C3", "R2C4", "R2C5"]]}],
            line=[{"lines": [["R3C3", "R3C4", "R3C5"]], "fromConstraint": "Renban"}],
        )
    )
    cons = found.rules.constraints
    assert Thermometer((0, 1, 2)) in cons and Thermometer((0, 9)) in cons
    assert Arrow((40, 41), (51, 61)) in cons
    assert Kropki("black", (72, 73), 2) in cons and Kropki("white", (74, 75), 2) in cons
    assert XV((63, 64), 10) in cons and BlackDotsNegative() in cons
    assert LittleKiller.make(9, -1, 1, "DR", 12) in cons
    assert LittleKiller.make(9, -1, 1, "DR", 12).diagonal == (2, 12, 22, 32, 42, 52, 62)
    assert Sandwich("column", 3, 7) in cons and Sandwich("row", 2, 0) in cons
    assert Renban((20, 21, 22)) in cons and Whispers((27, 28, 29)) in cons
    assert RegionSumLine((11, 12, 13)) in cons
    assert any("Renban" in note for note in found.notes)


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"clone": [{"cells": ["R1C1"], "cloneCells": ["R2C2"]}]}, "'clone' constraint"),
        ({"negative": ["difference"]}, "negative constraint for 'difference'"),
        ({"xv": [{"cells": ["R1C1", "R1C2"], "value": "Y"}]}, "X or V"),
        ({"ratio": [{"cells": ["R1C1", "R3C1"]}]}, "neighbours"),
        ({"arrow": [{"cells": ["R1C1"], "lines": "R1C2"}]}, "arrow 1"),
        ({"sandwichsum": [{"cell": "R4C4", "value": "3"}]}, "outside a row or column"),
        ({"thermometer": [{"lines": [["R1C1", "R1C1"]]}]}, "names a cell twice"),
    ],
)
def test_bad_constraints_in_f_puzzles_are_refused_by_name(extra, message):
    with pytest.raises(FPuzzlesError, match=message):
        from_fpuzzles(_nine(**extra))
