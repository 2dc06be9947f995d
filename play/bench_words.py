"""The setter's bench on the Solve page (static/js/bench.js): its tools, and the words its
script shows, translated with the page.

Like ``constraint_words``, the words reach the page in its data, not in the JavaScript
catalog every page loads (the game page's byte budget counts that catalog).
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

# (slug, label, how it is drawn): bench.js reads the slug and the kind from the radio.
TOOLS = (
    ("givens", _("Givens"), "cell"),
    ("region", _("Regions (Jigsaw)"), "paint"),
    ("thermometer", _("Thermometer"), "line"),
    ("arrow", _("Arrow (circle first)"), "line"),
    ("palindrome", _("Palindrome"), "line"),
    ("renban", _("Renban"), "line"),
    ("whispers", _("German whispers"), "line"),
    ("region_sum", _("Region-sum line"), "line"),
    ("between", _("Between line"), "line"),
    ("cage", _("Killer cage"), "line"),
    ("extra_region", _("Extra region"), "line"),
    ("odd", _("Odd (circle)"), "cell"),
    ("even", _("Even (square)"), "cell"),
    ("white", _("White dot"), "dot"),
    ("black", _("Black dot"), "dot"),
    ("x", _("X (sum 10)"), "dot"),
    ("v", _("V (sum 5)"), "dot"),
    ("sandwich", _("Sandwich sum"), "cell"),
    ("little_killer", _("Little killer"), "cell"),
)

TOGGLES = (
    ("antiknight", _("Anti-knight")),
    ("antiking", _("Anti-king")),
    ("nonconsecutive", _("Non-consecutive")),
    ("diagonals", _("Both diagonals")),
    ("black_dots_negative", _("Every black dot given")),
    ("xv_negative", _("Every X and V given")),
)

WORDS = (
    gettext_noop("Thermometer from %(cell)s, %(count)s cells"),
    gettext_noop("Arrow: circle %(cell)s, %(count)s cells on its line"),
    gettext_noop("Palindrome from %(cell)s, %(count)s cells"),
    gettext_noop("Renban from %(cell)s, %(count)s cells"),
    gettext_noop("German whispers from %(cell)s, %(count)s cells"),
    gettext_noop("Region-sum line from %(cell)s, %(count)s cells"),
    gettext_noop("Between line from %(cell)s, %(count)s cells"),
    gettext_noop("Extra region from %(cell)s, %(count)s cells"),
    gettext_noop("Killer cage at %(cell)s, %(count)s cells, sum %(sum)s"),
    gettext_noop("Killer cage at %(cell)s, %(count)s cells, no sum"),
    gettext_noop("Odd: %(cell)s"),
    gettext_noop("Even: %(cell)s"),
    gettext_noop("White dot: %(cell)s and %(other)s"),
    gettext_noop("Black dot: %(cell)s and %(other)s"),
    gettext_noop("%(mark)s: %(cell)s and %(other)s"),
    gettext_noop("Sandwich sum %(sum)s on row %(number)s"),
    gettext_noop("Sandwich sum %(sum)s on column %(number)s"),
    gettext_noop("Little killer %(sum)s through %(cell)s, pointing %(direction)s"),
    gettext_noop("Anti-knight"),
    gettext_noop("Anti-king"),
    gettext_noop("Non-consecutive"),
    gettext_noop("Both diagonals"),
    gettext_noop("Every black dot given"),
    gettext_noop("Every X and V given"),
    gettext_noop("Jigsaw regions"),
    gettext_noop("Remove"),
    gettext_noop("Nothing drawn yet."),
    gettext_noop("Give a number first."),
    gettext_noop("Too short for this tool: nothing added."),
    gettext_noop("Too many cells for this tool: nothing added."),
    gettext_noop("Pick two cells side by side."),
    gettext_noop("Path: %(count)s cells. Space or Enter adds a cell, Escape ends it."),
    gettext_noop(
        "Painting region %(number)s: Space or Enter paints a cell into it, [ and ] change "
        "the region, Escape ends."
    ),
    gettext_noop("region %(number)s"),
    gettext_noop(
        "The work budget ran out before the count finished: this puzzle is too hard to "
        "check here. Simplify it, or add givens."
    ),
    gettext_noop("Too many checks at once: the next one runs in %(seconds)s s."),
    gettext_noop("Draw givens or constraints: the count shows here as you draw."),
    gettext_noop("Checking the drawing…"),
    gettext_noop("The solver could not read the drawing: %(why)s"),
)


def bench_words() -> dict[str, str]:
    """Each English text with its translation in the active language."""
    return {text: gettext(text) for text in WORDS}
