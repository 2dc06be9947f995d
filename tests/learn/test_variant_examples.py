"""Every Killer lesson example is a real step of the variant engine on a real Killer board,
and it is sound against the puzzle's one solution."""

from __future__ import annotations

import pytest
from django.utils import translation

from learn.examples import example_rules, examples, variant_position_before
from learn.lessons import FALLBACK, lesson_text
from solver import parse
from solver.generation.general_practice import technique_variant, variant_techniques
from solver.logic.general import BY_SLUG, variant_logic_solve
from solver.logic.techniques.base import values_of
from solver.search.exact import solutions

VARIANT_SLUGS = [t.slug for t in variant_techniques()]
EXAMPLES = examples()


def _puzzle(slug: str):
    ex = EXAMPLES[slug]
    rules = example_rules(ex)
    assert rules is not None
    return ex, rules, parse(ex["givens"], box_rows=ex["box_rows"], box_cols=ex["box_cols"])


def test_the_killer_techniques_are_the_variant_ones_and_each_has_an_example() -> None:
    assert {"cage_combination", "innies_outies", "cage_house"} <= set(VARIANT_SLUGS)
    for slug in VARIANT_SLUGS:
        assert technique_variant(slug) == "killer"
        assert EXAMPLES[slug]["variant"] == "killer"
        assert EXAMPLES[slug]["cages"], slug


@pytest.mark.parametrize("slug", VARIANT_SLUGS)
def test_the_killer_example_is_the_engines_first_use_on_its_board(slug: str) -> None:
    ex, rules, grid = _puzzle(slug)
    steps = variant_logic_solve(rules, grid).steps
    assert steps[ex["index"]].technique == slug
    assert slug not in [s.technique for s in steps[: ex["index"]]]  # its first use
    assert steps[ex["index"]].to_dict() == ex["step"]
    position = variant_position_before(rules, grid, steps, ex["index"])
    assert [values_of(m) for m in position.cand] == ex["candidates"]
    assert "".join(str(v or ".") for v in position.values) == ex["values"].replace("0", ".")
    assert ex["step"] in [s.to_dict() for s in BY_SLUG[slug].find(position)]


@pytest.mark.parametrize("slug", VARIANT_SLUGS)
def test_the_killer_example_keeps_the_one_solution(slug: str) -> None:
    ex, rules, grid = _puzzle(slug)
    found = solutions(grid, limit=2, rules=rules)
    assert len(found) == 1
    solution = found[0].cells
    for cage in ex["cages"]:  # the cages drawn are the puzzle's: their sums hold
        assert sum(solution[c] for c in cage["cells"]) == cage["sum"]
    step = ex["step"]
    assert step["eliminations"] or step["placements"]
    for e in step["eliminations"]:
        assert solution[e["cell"]] != e["value"]
        assert e["value"] in ex["candidates"][e["cell"]]
    for p in step["placements"]:
        assert solution[p["cell"]] == p["value"]


@pytest.mark.parametrize("slug", VARIANT_SLUGS)
def test_every_killer_technique_has_a_lesson_text_in_english_and_chinese(slug: str) -> None:
    with translation.override("en"):
        english = str(lesson_text(slug))
    with translation.override("zh-hans"):
        chinese = str(lesson_text(slug))
    assert english != str(FALLBACK)
    assert chinese != english
    assert any("\u4e00" <= ch <= "\u9fff" for ch in chinese)
