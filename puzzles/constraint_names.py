"""What a puzzle with constraints is called: its kinds of constraint, in the reader's
language, before its level and size ("Thermometer · Hard 9×9", "Killer, Arrow · Expert 9×9").

``Rules.variant`` names a puzzle by its houses and cages only, so a thermometer puzzle's
variant is "classic"; its label must still say it is not one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

KIND_NAMES: dict[str, Promise] = {
    # The lessons' names (learn.constraint_lessons), so the catalogue holds each once.
    "thermometer": _("Thermometer"),
    "arrow": _("Arrow"),
    "kropki": _("Kropki"),
    "black_dots_negative": _("Kropki"),
    "xv": _("XV"),
    "xv_negative": _("XV"),
    "nonconsecutive": _("Non-Consecutive"),
    "antiknight": _("Anti-Knight"),
    "antiking": _("Anti-King"),
    "extra_region": _("Extra Region"),
    "odd": _("Odd and Even Cells"),
    "even": _("Odd and Even Cells"),
    "little_killer": _("Little Killer"),
    "sandwich": _("Sandwich"),
    "palindrome": _("Palindrome Line"),
    "renban": _("Renban Line"),
    "whispers": _("German Whispers"),
    "region_sum": _("Region-Sum Line"),
    "between": _("Between Line"),
}
"""Each constraint ``type``'s name; a rule that says every mark is given goes by its marks'."""

NAMES_SHOWN = 3
"""Names a label spells out; past that, the first two and "+n" for the rest."""


def constraint_kinds(rules: Mapping[str, Any] | None) -> list[str]:
    """The ``type`` of each kind of constraint in a puzzle's stored rules, each once, in
    the order they first appear (empty for a puzzle without constraints)."""
    kinds: list[str] = []
    for item in (rules or {}).get("constraints") or ():
        kind = item.get("type") if isinstance(item, Mapping) else None
        if isinstance(kind, str) and kind not in kinds:
            kinds.append(kind)
    return kinds


def rules_names(variant_name: str | None, kinds: list[str]) -> str:
    """The names a label puts before the level: the variant's (None for classic), then
    each kind of constraint's, capped at ``NAMES_SHOWN`` ("Killer, Arrow", "Anti-Knight,
    Kropki +2"); "" when there is neither."""
    names = [variant_name] if variant_name else []
    for kind in kinds:
        name = str(KIND_NAMES.get(kind, kind.replace("_", " ").capitalize()))
        if name not in names:
            names.append(name)
    separator = pgettext("between the names of a puzzle's rules", ", ")
    if len(names) > NAMES_SHOWN:
        return separator.join(names[:2]) + f" +{len(names) - 2}"
    return separator.join(names)
