"""Usernames people can tell apart (Unicode Technical Standard #39, security mechanisms).

Two rules, on top of Django's username characters and the case-insensitive uniqueness of
migration 0001:

- **One look, one name.** A name's *skeleton* is what it looks like: every character
  replaced by the prototype of its confusable class ("а" Cyrillic, "ɑ" Latin alpha and
  "a" are one class; "m" looks like "rn", "0" like "O", "l" like "I"), after NFD and
  then case-folded and mapped again, so "admin", "аdmin", "ɑdmin" and "adm1n" share one
  ("ADMIN" is "admin" by migration 0001's case-insensitive uniqueness). The skeleton
  is stored under a unique constraint (``UsernameSkeleton``), so two sign-ups racing with
  look-alike names cannot both succeed: the database refuses the second.
- **One script, or a mix TR39 calls highly restrictive.** Letters of one script, or Latin
  with Han and Japanese kana, Han and Bopomofo, or Han and Hangul (section 5.2); digits
  and punctuation (Common, Inherited) go with any. "pаypal" (Latin and Cyrillic) is
  refused whatever other accounts exist.

The confusable classes and script data come from the ``confusable-homoglyphs`` package
(confusables.txt and Scripts.txt of the Unicode Character Database, as JSON). Its file
pairs each character with its look-alikes in both directions; a class is a connected set
of those pairs, and its prototype is the one string every other member maps to (the one
of several characters when there is one: TR39 maps single characters only, to a
prototype), else the member most others map to.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

from confusable_homoglyphs import categories
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from sudokusite.fields import BIDI_CONTROLS, BLANK_LETTERS, text_problem

# Characters a name may not hold anywhere: format (zero-width), space and control ones.
HIDDEN = frozenset({"Cf", "Zs", "Zl", "Zp", "Cc"})

NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})
# TR39 5.2 "Highly Restrictive": one script, or one of these sets of scripts.
ALLOWED_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)


# Script names a player may meet in the message; others show as Unicode names them.
SCRIPT_NAMES = {
    "LATIN": gettext_lazy("Latin"),
    "CYRILLIC": gettext_lazy("Cyrillic"),
    "GREEK": gettext_lazy("Greek"),
    "ARMENIAN": gettext_lazy("Armenian"),
    "HEBREW": gettext_lazy("Hebrew"),
    "ARABIC": gettext_lazy("Arabic"),
    "HAN": gettext_lazy("Han"),
    "HIRAGANA": gettext_lazy("Hiragana"),
    "KATAKANA": gettext_lazy("Katakana"),
    "HANGUL": gettext_lazy("Hangul"),
    "CHEROKEE": gettext_lazy("Cherokee"),
}


def _clean(text: str) -> str:
    """A confusables entry as text: the data file wraps right-to-left ones in marks."""
    return "".join(ch for ch in text if ch not in BIDI_CONTROLS)


@cache
def prototypes() -> dict[str, str]:
    """Character -> the prototype of its confusable class (characters of no class absent)."""
    raw = resources.files("confusable_homoglyphs").joinpath("confusables.json")
    data: dict[str, list[dict[str, str]]] = json.loads(raw.read_text(encoding="utf-8"))
    parent: dict[str, str] = {}
    degree: dict[str, int] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for key, entries in data.items():
        key = _clean(key)
        for entry in entries:
            other = _clean(entry["c"])
            if not key or not other or key == other:
                continue
            degree[key] = degree.get(key, 0) + 1
            degree[other] = degree.get(other, 0) + 1
            a, b = find(key), find(other)
            if a != b:
                parent[a] = b
    members: dict[str, list[str]] = {}
    for node in parent:
        members.setdefault(find(node), []).append(node)
    out: dict[str, str] = {}
    for group in members.values():
        prototype = min(group, key=lambda s: (len(s) == 1, -degree.get(s, 0), s))
        for node in group:
            if len(node) == 1 and node != prototype:
                out[node] = prototype
    return out


def skeleton(name: str) -> str:
    """What ``name`` looks like, in any case: equal for names people cannot tell apart."""
    table = prototypes()
    text = unicodedata.normalize("NFD", name)
    text = "".join(table.get(ch, ch) for ch in text)
    text = unicodedata.normalize("NFD", text).casefold()
    text = "".join(table.get(ch, ch) for ch in text)
    return unicodedata.normalize("NFD", text)


def scripts_of(name: str) -> set[str]:
    """The scripts of a name's letters (Common and Inherited characters left out)."""
    found = set()
    for ch in name:
        alias, _category = categories.aliases_categories(ch)
        if alias not in NEUTRAL_SCRIPTS:
            found.add(alias)
    return found


def mixed_script(name: str) -> bool:
    """Whether the name mixes scripts beyond what TR39's highly restrictive level allows."""
    found = scripts_of(name)
    return len(found) > 1 and not any(found <= allowed for allowed in ALLOWED_MIXES)


def _script_name(script: str) -> str:
    return str(SCRIPT_NAMES.get(script, script.replace("_", " ").title()))


def username_problem(name: str) -> str | None:
    """Why ``name`` cannot be a username on its own (not counting other accounts)."""
    problem = text_problem(name)
    if problem is not None:
        return problem
    if any(ch in BLANK_LETTERS or unicodedata.category(ch) in HIDDEN for ch in name):
        return _("A username cannot hold invisible characters (zero-width spaces, joiners).")
    if mixed_script(name):
        return _(
            "This username mixes alphabets (%(scripts)s), so it can look like another "
            "name: use letters of one alphabet."
        ) % {"scripts": ", ".join(sorted(_script_name(s) for s in scripts_of(name)))}
    return None


def looks_taken_message() -> str:
    return _("This username looks the same as one already taken: choose another.")
