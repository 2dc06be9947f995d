"""The classic's harder techniques, found on a variant's houses, read in Chinese too.

A step found on a Diagonal, Jigsaw or Killer board names its diagonals and regions by unit
number (``diagonal 1``, ``box 4``); the site renders it from its parameters like any other
step, so the Chinese sentence has no English left and names the same cells.
"""

from __future__ import annotations

import itertools
import re

from django.utils import translation

from solving.steps import step_localized
from tests.i18n.english import english_words
from tests.solver.test_variant_techniques import HARDER, load_walks, positions

CELL = re.compile(r"r\d+c\d+")


def test_every_harder_technique_on_a_variant_reads_in_chinese():
    seen: set[str] = set()
    diagonal_named = False
    for _, rules, puzzle, _solution in load_walks():
        for board in itertools.islice(positions(rules, puzzle), 12):
            for tech in HARDER:
                if tech.slug in seen:
                    continue
                step = next(tech.find(board), None)
                if step is None:
                    continue
                seen.add(tech.slug)
                data = step.to_dict()
                with translation.override("zh-hans"):
                    chinese = step_localized(data)
                assert english_words(chinese["sentence"]) == [], chinese["sentence"]
                assert set(CELL.findall(chinese["sentence"])) == set(CELL.findall(step.sentence))
                diagonal_named |= "diagonal" in step.sentence and "对角线" in chinese["sentence"]
    assert seen == {t.slug for t in HARDER}
    assert diagonal_named


def test_a_jigsaw_step_calls_its_irregular_boxes_regions_in_both_languages():
    from solver.logic.general import techniques_for
    from solver.logic.houses import VBoard

    for variant, rules, puzzle, _solution in load_walks():
        if variant != "jigsaw":
            continue
        board = VBoard.from_grid(rules, puzzle)
        for tech in techniques_for(rules):
            for step in itertools.islice(tech.find(board), 20):
                data = step.to_dict()
                if not any(2 * rules.size <= u < 3 * rules.size for u in data["units"]):
                    continue
                assert "region" in step.sentence and "box" not in step.sentence
                assert all("box" not in name for name in data["unit_names"])
                with translation.override("zh-hans"):
                    chinese = step_localized(data)
                assert "区" in chinese["sentence"] and "宫" not in chinese["sentence"]
                assert all("区" in name for name in chinese["unit_names"])
                return
    raise AssertionError("no Jigsaw step in a region")
