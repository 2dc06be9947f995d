"""The words static/js/constraints.js draws and reads out, translated with the page.

They reach the page in its data (``constraint_words``) only when its puzzle has
constraints, so the JavaScript catalog every page loads stays small.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

WORDS = (
    gettext_noop("palindrome line"),
    gettext_noop("renban line"),
    gettext_noop("German whispers line"),
    gettext_noop("region-sum line"),
    gettext_noop("between line"),
    gettext_noop("Little killer: the diagonal from r%(row)sc%(col)s adds up to %(sum)s"),
    gettext_noop("Sandwich: between the 1 and the %(n)s of %(line)s, %(sum)s"),
    gettext_noop("Anti-knight: cells a knight's move apart differ"),
    gettext_noop("Anti-king: cells a king's move apart differ"),
    gettext_noop("Non-consecutive: neighbours are not consecutive unless a white dot joins them"),
    gettext_noop("Every black dot is given"),
    gettext_noop("Every X and V is given"),
    gettext_noop("on a thermometer, %(place)s of %(count)s cells from the bulb"),
    gettext_noop("in an arrow's circle, its line of %(count)s cells adds up to it"),
    gettext_noop("on an arrow"),
    gettext_noop("on a %(line)s, %(place)s of %(count)s cells"),
    gettext_noop("a white dot to r%(row)sc%(col)s"),
    gettext_noop("a black dot to r%(row)sc%(col)s"),
    gettext_noop("%(mark)s to r%(row)sc%(col)s"),
    gettext_noop("odd"),
    gettext_noop("even"),
    gettext_noop("in an extra region"),
    gettext_noop("on a little killer diagonal adding up to %(sum)s"),
)


def constraint_words() -> dict[str, str]:
    """Each English text with its translation in the active language."""
    return {text: gettext(text) for text in WORDS}
