"""A solver step as the player reads it, in the active language.

The solver renders a step's sentence in English (:mod:`solver.sentences`) from the step's
parameters; here the same parameters are rendered through Django's gettext, so a hint or an
analysis step reads the same in English and in Chinese, and nothing is translated by
matching finished English sentences. A step with no parameters (one stored before they
existed) or from a technique with no sentence template yet falls back to a plain sentence
built from its placements and eliminations, under the technique's name.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from solver import sentences

# Translators: technique names. Chinese terms are those of Chinese sudoku tutorials and
# books: 唯一余数 (naked single), 隐性唯一 / 排除法 (hidden single), 区块 / 区块摒除 with
# 宫区块 (Pointing) and 行列区块 (Claiming), 显性/隐性数对 (pairs), 三链数 / 四链数
# (triples, quads), 剑鱼 (Swordfish), 水母 (Jellyfish), 摩天楼 (Skyscraper), 双线风筝
# (2-String Kite), 唯一矩形 (Unique Rectangle), 染色 (colouring), X链 / XY链 (chains);
# sources: the tutorial series 数独技巧 第4讲 区块 (one124.com/ba/kfuitqqf.html, "宫区块
# (Pointing)"), the books 《一看就会的数独技巧》 and 《数独技巧精讲与示例》 (唯一余数, 显性数对,
# 隐性数组, 区块), and HoDoKu's technique pages for the English names
# (hodoku.sourceforge.net/en/techniques.php). X-Wing, XY-Wing, XYZ-Wing, W-Wing and BUG+1
# keep their English names, as Chinese players write them.
NAMES: dict[str, Any] = {
    "full_house": pgettext_lazy("technique", "Full House"),
    "naked_single": pgettext_lazy("technique", "Naked Single"),
    "hidden_single": pgettext_lazy("technique", "Hidden Single"),
    "pointing": pgettext_lazy("technique", "Pointing"),
    "claiming": pgettext_lazy("technique", "Claiming"),
    "naked_pair": pgettext_lazy("technique", "Naked Pair"),
    "hidden_pair": pgettext_lazy("technique", "Hidden Pair"),
    "naked_triple": pgettext_lazy("technique", "Naked Triple"),
    "hidden_triple": pgettext_lazy("technique", "Hidden Triple"),
    "naked_quad": pgettext_lazy("technique", "Naked Quad"),
    "hidden_quad": pgettext_lazy("technique", "Hidden Quad"),
    "x_wing": pgettext_lazy("technique", "X-Wing"),
    "swordfish": pgettext_lazy("technique", "Swordfish"),
    "jellyfish": pgettext_lazy("technique", "Jellyfish"),
    "xy_wing": pgettext_lazy("technique", "XY-Wing"),
    "xyz_wing": pgettext_lazy("technique", "XYZ-Wing"),
    "w_wing": pgettext_lazy("technique", "W-Wing"),
    "unique_rectangle_1": pgettext_lazy("technique", "Unique Rectangle Type 1"),
    "unique_rectangle_2": pgettext_lazy("technique", "Unique Rectangle Type 2"),
    "unique_rectangle_4": pgettext_lazy("technique", "Unique Rectangle Type 4"),
    "bug_plus_one": pgettext_lazy("technique", "BUG+1"),
    "skyscraper": pgettext_lazy("technique", "Skyscraper"),
    "two_string_kite": pgettext_lazy("technique", "2-String Kite"),
    "simple_colouring": pgettext_lazy("technique", "Simple Colouring"),
    "x_chain": pgettext_lazy("technique", "X-Chain"),
    "xy_chain": pgettext_lazy("technique", "XY-Chain"),
    "alternating_chain": pgettext_lazy("technique", "Alternating Inference Chain"),
    "search": pgettext_lazy("technique", "Trial and Error"),
    "search:solution": pgettext_lazy("technique", "Search"),
    "incorrect_entry": pgettext_lazy("technique", "Incorrect Entry"),
    "incorrect_note": pgettext_lazy("technique", "Incorrect Note"),
}

PLACE = _("%(name)s: %(cell)s is %(value)s.")
REMOVE = _("%(name)s: remove %(eliminations)s.")
LOOK = _("Look at %(where)s.")
LOOK_WRONG_ENTRY = _("A value on the board is wrong: look at %(cells)s.")
LOOK_WRONG_NOTE = _("Some notes leave out the right value: look at %(cells)s.")


def _variant(step: dict[str, Any]) -> str | None:
    return (step.get("params") or {}).get("variant")


def technique_name(step: dict[str, Any]) -> str:
    """The technique's name in the active language (its English name if it has no entry)."""
    slug = step["technique"]
    variant = _variant(step)
    name = NAMES.get(f"{slug}:{variant}") or NAMES.get(slug)
    return str(name) if name is not None else step.get("name") or slug


def _pairs(items: list[dict[str, Any]]) -> list[tuple[int, int]]:
    return [(item["cell"], item["value"]) for item in items]


def step_sentence(step: dict[str, Any]) -> str:
    """The step's sentence in the active language, from its parameters."""
    size = step.get("size")
    params = step.get("params")
    eliminations = _pairs(step.get("eliminations") or [])
    if size and params is not None:
        text = sentences.render(
            step["technique"],
            params,
            size=size,
            eliminations=eliminations,
            translate=gettext,
        )
        if text is not None:
            return text
    # No template (a technique newer than the catalog) or a step stored without parameters.
    name = technique_name(step)
    placements = step.get("placements") or []
    if placements:
        first = placements[0]
        return str(PLACE) % {
            "name": name,
            "cell": first["cell_name"],
            "value": sentences.symbol(first["value"]),
        }
    if eliminations and size:
        return str(REMOVE) % {
            "name": name,
            "eliminations": sentences.eliminations_label(size, eliminations, gettext),
        }
    return step.get("sentence") or name


def step_localized(step: dict[str, Any]) -> dict[str, Any]:
    """The step dict with its name and sentence in the active language."""
    return {
        **step,
        "name": technique_name(step),
        "sentence": step_sentence(step),
        "unit_names": _unit_names(step),
    }


def _unit_names(step: dict[str, Any]) -> list[str]:
    size = step.get("size")
    if not size:
        return list(step.get("unit_names") or [])
    return [sentences.unit_label(size, u, gettext) for u in step.get("units") or []]


def hint_where(step: dict[str, Any]) -> str:
    """The first stage of a hint: where to look, without saying what is there."""
    technique = step["technique"]
    cells = sentences.join(list(step.get("cell_names") or []), gettext)
    if technique == "incorrect_entry":
        return str(LOOK_WRONG_ENTRY) % {"cells": cells}
    if technique == "incorrect_note":
        return str(LOOK_WRONG_NOTE) % {"cells": cells}
    units = _unit_names(step)
    return str(LOOK) % {"where": sentences.join(units, gettext) if units else cells}
