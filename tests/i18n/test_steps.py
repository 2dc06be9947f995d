"""Every technique's step reads in English and in Chinese from the same structured form.

The positions are the technique tests' (tests/solver/test_techniques.py): one per
technique and shape. The English the site renders from a step's parameters must be the
solver's own sentence, word for word; the Chinese must name the same cells and hold no
English. The technique table is walked too, so a technique added without a name and a
sentence in the catalog fails here.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from solver.grid import SYMBOLS
from solver.logic import sentences
from solver.logic.classic import next_step
from solver.logic.techniques import ORDER
from solving.steps import NAMES, hint_where, step_localized, step_sentence, technique_name
from tests.i18n.english import english_words
from tests.solver.test_techniques import POSITIONS, ids, position

KEPT_IN_ENGLISH = {
    "x_wing",
    "xy_wing",
    "xyz_wing",
    "w_wing",
    "bug_plus_one",
    "sue_de_coq",
    "als_xz",
}
CELL = re.compile(r"r\d+c\d+")


def step_of(label: str, givens: str, board: str, removed: str) -> dict:
    puzzle, entries, notes = position(label, givens, board, removed)
    step = next_step(puzzle, entries, notes)
    assert step is not None
    return step.to_dict()


@pytest.mark.parametrize(
    ("slug", "label", "givens", "board", "removed"), POSITIONS, ids=ids(POSITIONS)
)
def test_a_step_reads_the_same_in_english_and_says_it_in_chinese(
    slug, label, givens, board, removed
):
    step = step_of(label, givens, board, removed)
    assert step["technique"] == slug and step["params"]
    with translation.override("en"):
        english = step_localized(step)
    with translation.override("zh-hans"):
        chinese = step_localized(step)
    assert english["sentence"] == step["sentence"]
    assert english["name"] == step["name"]
    assert english_words(chinese["sentence"]) == []
    assert set(CELL.findall(chinese["sentence"])) == set(CELL.findall(step["sentence"]))
    assert chinese["technique"] == slug and chinese["params"] == step["params"]
    if slug in KEPT_IN_ENGLISH:
        assert chinese["name"] == step["name"]
    else:
        assert english_words(chinese["name"]) == [], chinese["name"]


@pytest.mark.parametrize("technique", ORDER, ids=[t.slug for t in ORDER])
def test_every_technique_has_a_chinese_name_and_a_sentence(technique):
    assert technique.slug in NAMES, f"add {technique.slug} to solving.steps.NAMES"
    assert sentences.has_template(technique.slug) or any(
        key.startswith(f"{sentences.FAMILY.get(technique.slug, technique.slug)}:")
        for key in sentences.TEMPLATES
    ), f"add {technique.slug}'s sentence to solver.logic.sentences.TEMPLATES"
    with translation.override("zh-hans"):
        name = technique_name({"technique": technique.slug, "name": technique.name})
    if technique.slug not in KEPT_IN_ENGLISH:
        assert name != technique.name, f"translate {technique.name!r} in locale/zh_Hans"


def _sample(key: str, size: int = 9):
    """A value of the kind a parameter's name says it holds."""
    if key in ("path", "cells") or key.endswith("_cells"):
        return [0, 1, 2]
    if key in ("chain", "entries"):
        return [[0, 1], [1, 2], [10, 3], [11, 4]]
    if key in ("units",) or key.endswith("_units"):
        return [0, 3]
    if key in ("values", "options") or key.endswith("_values"):
        return [1, 2]
    if key == "count":
        return 7
    return 4  # a cell, a unit or a value


@pytest.mark.parametrize("key", sorted(sentences.TEMPLATES))
def test_every_sentence_template_renders_in_both_languages(key):
    technique, _, variant = key.partition(":")
    template = sentences.TEMPLATES[key]
    params = {name: _sample(name) for name in re.findall(r"%\((\w+)\)s", template)}
    params.pop("eliminations", None)
    if variant:
        params["variant"] = variant
    elims = [(5, 3), (6, 3)]
    english = sentences.render(technique, params, size=9, eliminations=elims)
    with translation.override("zh-hans"):
        chinese = sentences.render(
            technique, params, size=9, eliminations=elims, translate=translation.gettext
        )
    assert english and chinese and english != chinese
    assert english_words(chinese) == [], chinese


def test_a_hint_names_where_to_look_in_the_readers_language():
    step = step_of(*POSITIONS[2][1:])  # a hidden single in box 1
    with translation.override("en"):
        assert hint_where(step) == "Look at box 1."
    with translation.override("zh-hans"):
        assert hint_where(step) == "看看第1宫。"
        assert step_sentence(step) == "在第1宫中，3只能填在r2c2。"


def test_a_step_from_a_technique_without_a_sentence_falls_back_to_its_moves():
    step = step_of(*POSITIONS[2][1:])
    step = {**step, "technique": "death_blossom", "name": "Death Blossom", "params": {}}
    with translation.override("zh-hans"):
        text = step_sentence(step)
    value = SYMBOLS[step["placements"][0]["value"] - 1]
    assert text == f"Death Blossom：r2c2是{value}。"


def test_a_step_stored_before_it_had_parameters_keeps_its_sentence():
    step = step_of(*POSITIONS[2][1:])
    old = {k: v for k, v in step.items() if k not in ("params", "size")}
    with translation.override("zh-hans"):
        assert step_sentence(old).endswith("r2c2是3。")


def test_values_that_leave_the_same_cells_are_named_together_in_both_languages():
    removed = [(cell, value) for value in (1, 2, 7) for cell in (67, 75, 76)] + [(3, 3)]
    with translation.override("en"):
        english = sentences.eliminations_label(9, removed, translation.gettext)
    with translation.override("zh-hans"):
        chinese = sentences.eliminations_label(9, removed, translation.gettext)
    assert english == "1, 2 and 7 from r8c5, r9c4 and r9c5 and 3 from r1c4"
    assert chinese == "r8c5、r9c4和r9c5中的1、2和7和r1c4中的3"
