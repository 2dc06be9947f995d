"""A 45 rule step over a group of boxes reads in Chinese with the boxes named."""

from __future__ import annotations

from django.utils import translation

from solver.grid import Grid, Shape
from solver.logic.houses import VBoard
from solver.logic.innies import innies_outies
from solving.steps import step_localized
from tests.i18n.english import english_words
from tests.solver.test_variant_innies import two_box_rules


def test_a_two_box_45_rule_step_names_both_boxes_in_chinese():
    board = VBoard.from_grid(two_box_rules(), Grid.empty(Shape.for_size(9)))
    assert board is not None
    step = next(innies_outies(board))
    with translation.override("zh-hans"):
        chinese = step_localized(step.to_dict())["sentence"]
    assert english_words(chinese) == [], chinese
    assert "第1和2宫" in chinese and "r1c1" in chinese
