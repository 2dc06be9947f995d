"""A solver step as the player reads it, in the active language.

The solver renders a step's sentence in English (:mod:`solver.logic.sentences`) from the step's
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

from solver.logic import sentences

# The technique names and their Chinese terms. Sources for the terms: the books
# 《一看就会的数独技巧》 and 《数独技巧精讲与示例》 (唯一余数, 排除法, 区块, 显性数对, 隐性数组),
# the tutorial series 数独技巧 (one124.com/ba/kfuitqqf.html, 第4讲 区块: 宫区块 Pointing),
# and HoDoKu's technique pages for the English names (hodoku.sourceforge.net/en/
# techniques.php). The comment on each entry goes into the catalog with it.
NAMES: dict[str, Any] = {
    # Translators: 唯一空格: the last empty cell of a row, column or box (唯一解法 in
    # older tutorials; renamed so it is not read as the puzzle's unique solution).
    "full_house": pgettext_lazy("technique", "Full House"),
    # Translators: 唯一余数 (唯余法): 《一看就会的数独技巧》 技巧3, 《数独技巧精讲与示例》 第七节.
    "naked_single": pgettext_lazy("technique", "Naked Single"),
    # Translators: 隐性唯一, also taught as 排除法 (宫排除/行列排除).
    "hidden_single": pgettext_lazy("technique", "Hidden Single"),
    # Translators: 宫区块 (区块摒除 from a box): one124.com/ba/kfuitqqf.html
    # 第4讲 区块, "宫区块(Pointing)".
    "pointing": pgettext_lazy("technique", "Pointing"),
    # Translators: 行列区块 (区块摒除 from a row or column), same source.
    "claiming": pgettext_lazy("technique", "Claiming"),
    # Translators: 显性数对: 《数独技巧精讲与示例》.
    "naked_pair": pgettext_lazy("technique", "Naked Pair"),
    # Translators: 隐性数对: 《数独技巧精讲与示例》.
    "hidden_pair": pgettext_lazy("technique", "Hidden Pair"),
    # Translators: 显性三链数 (数组 of three).
    "naked_triple": pgettext_lazy("technique", "Naked Triple"),
    # Translators: 隐性三链数.
    "hidden_triple": pgettext_lazy("technique", "Hidden Triple"),
    # Translators: 显性四链数.
    "naked_quad": pgettext_lazy("technique", "Naked Quad"),
    # Translators: 隐性四链数.
    "hidden_quad": pgettext_lazy("technique", "Hidden Quad"),
    # Translators: X-Wing, kept in English as Chinese players write it.
    "x_wing": pgettext_lazy("technique", "X-Wing"),
    # Translators: 剑鱼.
    "swordfish": pgettext_lazy("technique", "Swordfish"),
    # Translators: 水母.
    "jellyfish": pgettext_lazy("technique", "Jellyfish"),
    # Translators: XY-Wing, kept in English.
    "xy_wing": pgettext_lazy("technique", "XY-Wing"),
    # Translators: XYZ-Wing, kept in English.
    "xyz_wing": pgettext_lazy("technique", "XYZ-Wing"),
    # Translators: W-Wing, kept in English.
    "w_wing": pgettext_lazy("technique", "W-Wing"),
    # Translators: 唯一矩形 类型1 (UR).
    "unique_rectangle_1": pgettext_lazy("technique", "Unique Rectangle Type 1"),
    # Translators: 唯一矩形 类型2.
    "unique_rectangle_2": pgettext_lazy("technique", "Unique Rectangle Type 2"),
    # Translators: 唯一矩形 类型4.
    "unique_rectangle_4": pgettext_lazy("technique", "Unique Rectangle Type 4"),
    # Translators: BUG+1 (全双值坟墓+1), kept in English.
    "bug_plus_one": pgettext_lazy("technique", "BUG+1"),
    # Translators: 摩天楼.
    "skyscraper": pgettext_lazy("technique", "Skyscraper"),
    # Translators: 双线风筝.
    "two_string_kite": pgettext_lazy("technique", "2-String Kite"),
    # Translators: 简单染色.
    "simple_colouring": pgettext_lazy("technique", "Simple Colouring"),
    # Translators: X链.
    "x_chain": pgettext_lazy("technique", "X-Chain"),
    # Translators: XY链.
    "xy_chain": pgettext_lazy("technique", "XY-Chain"),
    # Translators: 交替推理链 (AIC).
    "alternating_chain": pgettext_lazy("technique", "Alternating Inference Chain"),
    # Translators: 带鳍 (finned) fish: a fish but for a fin in one box.
    "finned_x_wing": pgettext_lazy("technique", "Finned X-Wing"),
    # Translators: 退化 (sashimi) fish: a finned fish with a base line of one cell.
    "finned_x_wing:sashimi": pgettext_lazy("technique", "Sashimi X-Wing"),
    # Translators: 带鳍剑鱼.
    "finned_swordfish": pgettext_lazy("technique", "Finned Swordfish"),
    # Translators: 退化剑鱼.
    "finned_swordfish:sashimi": pgettext_lazy("technique", "Sashimi Swordfish"),
    # Translators: 带鳍水母.
    "finned_jellyfish": pgettext_lazy("technique", "Finned Jellyfish"),
    # Translators: 退化水母.
    "finned_jellyfish:sashimi": pgettext_lazy("technique", "Sashimi Jellyfish"),
    # Translators: 唯一矩形 类型3.
    "unique_rectangle_3": pgettext_lazy("technique", "Unique Rectangle Type 3"),
    # Translators: 唯一矩形 类型5.
    "unique_rectangle_5": pgettext_lazy("technique", "Unique Rectangle Type 5"),
    # Translators: 唯一矩形 类型6.
    "unique_rectangle_6": pgettext_lazy("technique", "Unique Rectangle Type 6"),
    # Translators: 隐性唯一矩形 (Hidden Unique Rectangle).
    "hidden_unique_rectangle": pgettext_lazy("technique", "Hidden Unique Rectangle"),
    # Translators: 空矩形 (Empty Rectangle).
    "empty_rectangle": pgettext_lazy("technique", "Empty Rectangle"),
    # Translators: Sue de Coq, kept in English as Chinese players write it.
    "sue_de_coq": pgettext_lazy("technique", "Sue de Coq"),
    # Translators: X环 (X-Cycle).
    "x_cycle": pgettext_lazy("technique", "X-Cycle"),
    # Translators: ALS-XZ (待定数组 ALS), kept in English.
    "als_xz": pgettext_lazy("technique", "ALS-XZ"),
    # Translators: 连续环 (Continuous Nice Loop).
    "nice_loop": pgettext_lazy("technique", "Continuous Nice Loop"),
    # Translators: 试错法.
    "search": pgettext_lazy("technique", "Trial and Error"),
    # Translators: a drawn constraint (thermometer, dot, arrow...) rules values out: 规则限制.
    "constraint": pgettext_lazy("technique", "Constraint"),
    # Translators: Killer (杀手数独): 笼子组合, the sets of values a cage's sum allows.
    "cage_combination": pgettext_lazy("technique", "Cage Combination"),
    # Translators: Killer: a cage's values locked in a row, column or box (笼子区块).
    "cage_house": pgettext_lazy("technique", "Cage-House Interaction"),
    # Translators: Killer: 45法则 (innies and outies), as Chinese Killer tutorials call it.
    "innies_outies": pgettext_lazy("technique", "45 Rule"),
    # Translators: Killer: the 45 rule on four cells or more, read as a virtual cage.
    "innies_outies_large": pgettext_lazy("technique", "45 Rule (Many Cells)"),
    # Translators: Killer: 笼子拆分, a cage less a part of known sum.
    "cage_split": pgettext_lazy("technique", "Cage Splitting"),
    # Translators: Killer: 隐藏笼子, the rest of a house once a part has a known sum.
    "hidden_cage": pgettext_lazy("technique", "Hidden Cage"),
    # Translators: Killer: 杀手数对, two cages in one house sharing no value.
    "killer_pair": pgettext_lazy("technique", "Killer Pair"),
    # Translators: Killer: 杀手三数组, three cages in one house sharing no value.
    "killer_triple": pgettext_lazy("technique", "Killer Triple"),
    # Translators: Killer: 区域组合, every cage crossing a house filled together.
    "house_combination": pgettext_lazy("technique", "House Combinations"),
    # Translators: 搜索.
    "search:solution": pgettext_lazy("technique", "Search"),
    # Translators: 填错的数字.
    "incorrect_entry": pgettext_lazy("technique", "Incorrect Entry"),
    # Translators: 笔记有误.
    "incorrect_note": pgettext_lazy("technique", "Incorrect Note"),
}

PLACE = _("%(name)s: %(cell)s is %(value)s.")
REMOVE = _("%(name)s: remove %(eliminations)s.")
LOOK = _("Look at %(where)s.")
LOOK_WRONG_ENTRY = _("A value on the board is wrong: look at %(cells)s.")
LOOK_WRONG_NOTE = _("Some notes leave out the right value: look at %(cells)s.")


def technique_name(step: dict[str, Any]) -> str:
    """The technique's name in the active language (its English name if it has no entry).

    A technique with several names (a finned or sashimi fish) says which in its
    ``name_variant`` parameter, else in its ``variant``."""
    slug = step["technique"]
    params = step.get("params") or {}
    name = (
        NAMES.get(f"{slug}:{params.get('name_variant')}")
        or NAMES.get(f"{slug}:{params.get('variant')}")
        or NAMES.get(slug)
    )
    return str(name) if name is not None else step.get("name") or slug


def techniques_localized(data: Any) -> Any:
    """``data`` with the name of every technique in it (a ``{"slug", "name", "level"}``
    dict, as stored analyses hold them) in the active language."""
    if isinstance(data, list):
        return [techniques_localized(item) for item in data]
    if not isinstance(data, dict):
        return data
    out = {key: techniques_localized(value) for key, value in data.items()}
    if {"slug", "name", "level"} <= out.keys() and isinstance(out["slug"], str):
        out["name"] = technique_name({"technique": out["slug"], "name": out["name"]})
    return out


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
            regions=bool(step.get("regions")),
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
    regions = bool(step.get("regions"))
    return [
        sentences.unit_label(size, u, gettext, regions=regions) for u in step.get("units") or []
    ]


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
