"""f-puzzles JSON and SudokuPad share links: round trips, the format readers expect, lz-string
against vectors made with the JavaScript library, and bad input refused clearly."""

import json
import random

import pytest

from solver.formats.fpuzzles import (
    SHARE_PREFIX,
    FPuzzlesError,
    from_fpuzzles,
    read_share_link,
    share_link,
    to_fpuzzles,
)
from solver.formats.lzstring import LZStringError, compress_to_base64, decompress_from_base64
from solver.generation.general import generate_variant

# Made with lz-string's compressToBase64 in JavaScript (the second has non-ASCII text).
VECTORS = [
    ("hello world", "BYUwNmD2AEDukCcwBMg="),
    (
        "Žluťoučký kůň úpěl ďábelské ódy!",
        "r6ABsK6KaAD2aLCADWBfgBPQ9oCAlAZAvgDobEARlB4QAEOAjAUxAGd4BL5AZ4BMBPAQiA==",
    ),
]


@pytest.mark.parametrize(("text", "compressed"), VECTORS)
def test_lz_string_matches_the_javascript_library(text, compressed):
    assert compress_to_base64(text) == compressed
    assert decompress_from_base64(compressed) == text


def test_lz_string_round_trips_random_text_beyond_the_bmp():
    rng = random.Random(1)
    for _ in range(200):
        text = "".join(
            chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x100, 0x3000), 0x1F600]))
            for _ in range(rng.randrange(1, 200))
        )
        assert decompress_from_base64(compress_to_base64(text)) == text


@pytest.mark.parametrize("bad", ["", "!!!!", "A", "BYUwNmD2"])
def test_lz_string_refuses_text_it_cannot_read(bad):
    with pytest.raises(LZStringError):
        decompress_from_base64(bad)


def test_lz_string_caps_what_a_small_input_may_expand_to():
    with pytest.raises(LZStringError, match="expands beyond"):
        decompress_from_base64(compress_to_base64("a" * 5000), max_length=1000)


@pytest.mark.parametrize("variant", ["diagonal", "jigsaw", "killer"])
@pytest.mark.parametrize("size", [6, 9])
def test_each_variant_round_trips_through_f_puzzles_and_a_share_link(variant, size):
    made = generate_variant(variant, size, seed="fp")
    data = to_fpuzzles(made.rules, made.puzzle, solution=made.solution, title="T", author="A")
    back = from_fpuzzles(json.dumps(data))
    assert (back.rules, back.puzzle, back.solution) == (made.rules, made.puzzle, made.solution)
    assert (back.title, back.author) == ("T", "A")
    link = share_link(data)
    assert link.startswith(SHARE_PREFIX)
    assert "+" not in link[len(SHARE_PREFIX) :]  # URL-encoded
    assert read_share_link(link).rules == made.rules


def test_the_export_has_the_shape_sudokupad_reads():
    made = generate_variant("killer", 9, seed="shape")
    data = to_fpuzzles(made.rules, made.puzzle)
    assert data["size"] == 9 and len(data["grid"]) == 9
    assert all(len(row) == 9 for row in data["grid"])
    cage = data["killercage"][0]
    assert isinstance(cage["value"], str) and cage["cells"][0].startswith("R")
    givens = [c for row in data["grid"] for c in row if c]
    assert all(c == {"value": c["value"], "given": True} for c in givens)
    assert "region" not in json.dumps(data)  # boxes are the default


def test_only_cells_off_their_box_carry_a_region():
    made = generate_variant("jigsaw", 9, seed="regions")
    data = to_fpuzzles(made.rules, made.puzzle)
    grid = data["grid"]
    marked = [(r, k) for r, row in enumerate(grid) for k, c in enumerate(row) if "region" in c]
    assert 0 < len(marked) < 81
    boxes = [(r // 3) * 3 + k // 3 for r in range(9) for k in range(9)]
    assert all(data["grid"][r][k]["region"] != boxes[r * 9 + k] for r, k in marked)


def test_a_diagonal_reads_from_both_flags():
    made = generate_variant("diagonal", 9, seed="flags")
    data = to_fpuzzles(made.rules, made.puzzle)
    assert data["diagonal-"] is True and data["diagonal+"] is True
    assert from_fpuzzles(data).rules.diagonals


def test_a_link_pasted_with_spaces_for_pluses_still_reads():
    made = generate_variant("killer", 6, seed="paste")
    data = to_fpuzzles(made.rules, made.puzzle)
    raw = SHARE_PREFIX + compress_to_base64(json.dumps(data)).replace("+", " ")
    assert read_share_link(raw).puzzle == made.puzzle


def empty(n=4):
    return {"size": n, "grid": [[{} for _ in range(n)] for _ in range(n)]}


def first_row(*cells):
    """A 4x4 puzzle whose first row starts with ``cells``."""
    data = empty()
    data["grid"][0][: len(cells)] = cells
    return data


def with_(**extra):
    data = empty()
    data.update(extra)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("[1, 2", "not JSON"),
        ([], "JSON object"),
        ({"size": "9"}, "whole number"),
        ({"size": 7}, "not offered"),
        ({"size": 25}, "not offered"),
        ({"size": 4, "grid": [[{}] * 4] * 3}, "4 rows"),
        ({"size": 4, "grid": [[{}] * 3] * 4}, "row 1"),
        ({"size": 4, "grid": [["x"] * 4] * 4}, "must be an object"),
        (first_row({"value": 7, "given": True}), "not a value"),
        (first_row({"value": 1, "given": True}, {"value": 1, "given": True}), "twice"),
        (first_row({"region": 9}), "region 9"),
        (first_row({"region": 1}), "cells, expected 4"),
        (with_(killercage=[{"cells": ["R1C1", "R9C9"], "value": "3"}]), "outside"),
        (with_(killercage=[{"cells": ["A1"], "value": "3"}]), "not a cell"),
        (with_(killercage=[{"cells": ["R1C1", "R1C2"], "value": "30"}]), "cannot add up"),
        (with_(killercage=[{"cells": ["R1C1"]}, {"cells": ["R1C1", "R1C2"]}]), "overlap"),
        (with_(killercage=[{"cells": ["R1C1"] * 5}]), "1 to 4 cells"),
        (with_(killercage="R1C1"), "list"),
        (with_(**{"diagonal+": True}), "both diagonals"),
        (with_(**{"diagonal-": "yes"}), "true or false"),
        (with_(quadruple=[{"cells": ["R1C1", "R1C2"], "values": [1]}]), "'quadruple' constraint"),
        (with_(thermometer=[{"lines": [["R1C1"]]}]), "thermometer 1: give at least 2 cells"),
        (with_(line=[{"lines": [["R1C1", "R1C2"]]}]), "'line' constraint"),
        (with_(solution=[1] * 16), "does not solve"),
        (with_(solution=[1] * 5), "16 values"),
        (with_(title=5), "title must be text"),
        ("{" * 300_000, "characters; at most"),
    ],
)
def test_bad_f_puzzles_input_is_refused_with_a_clear_message(data, message):
    with pytest.raises(FPuzzlesError, match=message):
        from_fpuzzles(data)


def test_a_bad_share_link_is_refused_with_a_clear_message():
    with pytest.raises(FPuzzlesError, match=r"not an f-puzzles object.*SudokuPad"):
        read_share_link(SHARE_PREFIX + "%%%")
    with pytest.raises(ValueError):
        read_share_link(SHARE_PREFIX + compress_to_base64("not json"))


def test_a_killer_cage_with_text_for_its_sum_is_kept_without_a_sum_and_noted():
    read = from_fpuzzles(
        with_(killercage=[{"cells": ["R1C1", "R1C2"], "value": "?"}, {"cells": []}])
    )
    assert [(cage.cells, cage.total) for cage in read.rules.cages] == [((0, 1), None)]
    assert len(read.notes) == 2
    assert "kept as a cage without a sum" in read.notes[0]
    assert "left out" in read.notes[1]
