"""The sentence of a step, rendered from its structured form in any language.

A step keeps what its sentence needs as *parameters*
(see :class:`~solver.logic.techniques.base.Step`): plain ints and lists of ints, named by
what they hold, so the same step reads in English for the CLI and in another language on
the site, with one set of wording rules:

- ``cell`` / ``*_cell``: a cell index, named ``r2c5``;
- ``cells`` / ``*_cells``: cell indexes, named and joined (``r1c1, r1c2 and r1c3``);
- ``path``: cell indexes joined by arrows (``r1c1 → r1c5 → r4c5``);
- ``unit`` / ``*_unit``: a unit index, named (``row 3``; a Jigsaw's irregular box is a
  ``region``, with ``regions=True``);
- ``units`` / ``*_units``: unit indexes; all of one kind they read ``rows 1 and 4``,
  else their names are joined (``row 1, column 2 and box 3``);
- ``value`` / ``*_value``: a value, as its symbol; ``values`` / ``*_values``: symbols
  joined (``2 and 7``); ``options``: symbols joined by slashes (``2/5/7``);
- ``chain``: ``[cell, value]`` nodes of an alternating chain, read as "if A is not 5, then
  B is 5, so ...";
- ``entries``: ``[cell, value]`` pairs read ``r1c1 (5)``;
- ``count``: a number; ``variant``: which of a technique's sentences, ``name_variant``:
  which of its names (neither is shown).

The step's eliminations are ``eliminations``, grouped by value and then values that leave
the same cells together (``1, 2 and 7 from r8c5 and r9c4 and 3 from r1c1``).

The templates are English, marked with :func:`gettext_noop` so Django's makemessages
collects them; :func:`render` takes a ``translate`` function (Django's gettext on the site,
the identity here) and applies it to every template and connecting word it uses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from solver.grid import SYMBOLS, UNIT_KINDS

Translate = Callable[[str], str]


def gettext_noop(message: str) -> str:
    """Mark ``message`` for extraction into the translation catalog; return it unchanged."""
    return message


def english(message: str) -> str:
    return message


# Technique families share one sentence; the keys are "family" or "family:variant".
TEMPLATES: dict[str, str] = {
    # Translators: a hint's sentence. Placeholders are filled with cells (r2c5), units
    # (第3行 from "row %(number)s") and values; keep every placeholder. Cells keep the
    # r2c5 notation Chinese tutorials use too.
    "full_house": gettext_noop("%(cell)s is the last empty cell in %(unit)s, so it is %(value)s."),
    "naked_single:units": gettext_noop(
        "%(cell)s can only be %(value)s: %(units)s hold every other value."
    ),
    "naked_single:ruled_out": gettext_noop(
        "%(cell)s can only be %(value)s: every other value has been ruled out."
    ),
    "hidden_single": gettext_noop("In %(unit)s, %(value)s fits only in %(cell)s."),
    "locked": gettext_noop(
        "In %(unit)s, %(value)s fits only in %(other_unit)s (%(cells)s), so %(value)s can be "
        "removed from the rest of %(other_unit)s: %(removed_cells)s."
    ),
    "naked_subset": gettext_noop(
        "In %(unit)s, %(cells)s hold only %(values)s between them, so remove %(eliminations)s."
    ),
    "hidden_subset": gettext_noop(
        "In %(unit)s, %(values)s fit only in %(cells)s, so those cells hold nothing else: "
        "remove %(eliminations)s."
    ),
    "fish:rows": gettext_noop(
        "In %(base_units)s, %(value)s fits only in %(cover_units)s, so %(value)s can be "
        "removed from the rest of those columns: %(removed_cells)s."
    ),
    "fish:columns": gettext_noop(
        "In %(base_units)s, %(value)s fits only in %(cover_units)s, so %(value)s can be "
        "removed from the rest of those rows: %(removed_cells)s."
    ),
    "skyscraper": gettext_noop(
        "In %(first_unit)s and %(second_unit)s, %(value)s fits only in two cells each, and "
        "%(first_base_cell)s and %(second_base_cell)s share %(line_unit)s, so "
        "%(first_far_cell)s or %(second_far_cell)s is %(value)s: remove %(value)s from "
        "%(removed_cells)s."
    ),
    "two_string_kite": gettext_noop(
        "%(value)s fits only in %(row_cells)s in %(row_unit)s and only in %(column_cells)s in "
        "%(column_unit)s; %(row_near_cell)s and %(column_near_cell)s share %(box_unit)s, so "
        "%(row_far_cell)s or %(column_far_cell)s is %(value)s: remove %(value)s from "
        "%(removed_cells)s."
    ),
    "xy_wing": gettext_noop(
        "%(pivot_cell)s is %(x_value)s or %(y_value)s; if %(first_value)s, %(first_cell)s is "
        "%(value)s, and if %(second_value)s, %(second_cell)s is %(value)s: either way "
        "%(value)s can be removed from %(removed_cells)s."
    ),
    "xyz_wing": gettext_noop(
        "%(pivot_cell)s holds %(options)s and sees %(first_cell)s and %(second_cell)s; "
        "whatever it is, one of the three is %(value)s, so %(value)s can be removed from "
        "%(removed_cells)s."
    ),
    "w_wing": gettext_noop(
        "%(first_cell)s and %(second_cell)s are both %(x_value)s or %(y_value)s, and in "
        "%(unit)s, %(x_value)s fits only in %(first_end_cell)s and %(second_end_cell)s, so one "
        "of %(first_cell)s and %(second_cell)s is %(y_value)s: remove %(y_value)s from "
        "%(removed_cells)s."
    ),
    "unique_rectangle_1": gettext_noop(
        "%(cells)s hold only %(values)s; if %(target_cell)s were %(x_value)s or %(y_value)s "
        "too, the two values could swap around the rectangle and the puzzle would have two "
        "solutions, so remove %(values)s from %(target_cell)s."
    ),
    "unique_rectangle_2": gettext_noop(
        "%(floor_cells)s hold only %(floor_values)s, and %(roof_cells)s hold %(roof_values)s; "
        "if neither were %(value)s, the rectangle could swap and the puzzle would have two "
        "solutions, so one of them is %(value)s: remove %(value)s from %(removed_cells)s."
    ),
    "unique_rectangle_4": gettext_noop(
        "%(floor_cells)s hold only %(floor_values)s, and in %(unit)s, %(keep_value)s fits only "
        "in %(roof_cells)s, so one of them is %(keep_value)s; if either were %(drop_value)s, "
        "the rectangle could swap and the puzzle would have two solutions: remove "
        "%(drop_value)s from %(roof_cells)s."
    ),
    "bug_plus_one": gettext_noop(
        "Every empty cell holds two values except %(cell)s, where %(value)s fits three times "
        "in %(units)s; without %(value)s there the board would allow two solutions, so "
        "%(cell)s is %(value)s."
    ),
    "simple_colouring:wrap": gettext_noop(
        "Linking the cells where %(value)s fits only twice in a unit splits them into "
        "%(first_cells)s and %(second_cells)s, one group all %(value)s; %(first_cell)s and "
        "%(second_cell)s are in the first group and see each other, so that group is not "
        "%(value)s: remove %(value)s from %(first_cells)s."
    ),
    "simple_colouring:trap_one": gettext_noop(
        "Linking the cells where %(value)s fits only twice in a unit splits them into "
        "%(first_cells)s and %(second_cells)s, one group all %(value)s; %(removed_cells)s sees "
        "both groups, so %(value)s can be removed from it."
    ),
    "simple_colouring:trap": gettext_noop(
        "Linking the cells where %(value)s fits only twice in a unit splits them into "
        "%(first_cells)s and %(second_cells)s, one group all %(value)s; %(removed_cells)s see "
        "both groups, so %(value)s can be removed from them."
    ),
    "finned_fish:fin": gettext_noop(
        "In %(base_units)s, %(value)s fits only in %(cover_units)s (%(fish_cells)s) except for "
        "the fin %(fin_cells)s in %(box_unit)s; either a fin is %(value)s or the fish stands, "
        "so %(value)s can be removed from %(removed_cells)s, which see both."
    ),
    "finned_fish:fins": gettext_noop(
        "In %(base_units)s, %(value)s fits only in %(cover_units)s (%(fish_cells)s) except for "
        "the fins %(fin_cells)s in %(box_unit)s; either a fin is %(value)s or the fish stands, "
        "so %(value)s can be removed from %(removed_cells)s, which see both."
    ),
    "empty_rectangle": gettext_noop(
        "In %(box_unit)s, %(value)s fits only in %(row_unit)s and %(column_unit)s (%(cells)s), "
        "and in %(unit)s only in %(pair_cells)s; if %(target_cell)s were %(value)s, "
        "%(near_cell)s would be too and %(box_unit)s would have no place left for %(value)s: "
        "remove %(value)s from %(target_cell)s."
    ),
    "unique_rectangle_3": gettext_noop(
        "%(floor_cells)s hold only %(floor_values)s; one of %(roof_cells)s holds one of their "
        "other values %(extra_values)s, or the rectangle could swap and the puzzle would have "
        "two solutions; with %(group_cells)s they lock %(locked_values)s in %(unit)s: remove "
        "%(eliminations)s."
    ),
    "unique_rectangle_5": gettext_noop(
        "The rectangle %(cells)s holds %(values)s, and %(rich_cells)s hold %(value)s besides; "
        "if none were %(value)s, the rectangle could swap and the puzzle would have two "
        "solutions, so one of them is %(value)s: remove %(value)s from %(removed_cells)s."
    ),
    "unique_rectangle_6": gettext_noop(
        "%(floor_cells)s hold only %(values)s, and in %(units)s, %(keep_value)s fits only at "
        "the corners %(cells)s; if %(first_cell)s or %(second_cell)s were %(keep_value)s, all "
        "four corners would hold %(values)s and could swap: remove %(keep_value)s from "
        "%(roof_cells)s."
    ),
    "hidden_unique_rectangle": gettext_noop(
        "%(cell)s holds only %(values)s, and %(keep_value)s fits in %(row_unit)s only at "
        "%(row_cells)s and in %(column_unit)s only at %(column_cells)s; if %(target_cell)s "
        "were %(drop_value)s, the corners %(cells)s would hold just %(values)s and could swap: "
        "remove %(drop_value)s from %(target_cell)s."
    ),
    "als_xz": gettext_noop(
        "%(first_cells)s hold %(first_values)s and %(second_cells)s hold %(second_values)s: "
        "each set has one value more than cells, and the %(value)ss of the two see each "
        "other, so one set loses %(value)s and its other values are locked in; either way "
        "%(locked_values)s is in one of the sets: remove %(eliminations)s."
    ),
    "sue_de_coq": gettext_noop(
        "%(cells)s, where %(box_unit)s meets %(line_unit)s, hold %(values)s; %(line_cell)s in "
        "%(line_unit)s holds %(line_values)s and %(box_cell)s in %(box_unit)s holds "
        "%(box_values)s, so these %(count)s cells hold those %(count)s values once each: "
        "remove %(eliminations)s."
    ),
    "nice_loop": gettext_noop(
        "%(chain)s, and then %(start_cell)s is not %(start_value)s again: the loop closes, so "
        "each of its links holds exactly one true end either way round; remove "
        "%(eliminations)s."
    ),
    "x_cycle": gettext_noop(
        "Following %(value)s around %(path)s and back to %(start_cell)s (where a cell is not "
        "%(value)s, the next one is; where it is, the next one is not), %(value)s is in every "
        "other cell of the loop, either set; so %(value)s can be removed from "
        "%(removed_cells)s, which see two neighbours on the loop."
    ),
    "x_chain": gettext_noop(
        "Following %(value)s along %(path)s (where a cell is not %(value)s, the next one is; "
        "where it is, the next one is not), %(start_cell)s or %(end_cell)s is %(value)s, so "
        "%(value)s can be removed from %(removed_cells)s."
    ),
    "xy_chain": gettext_noop(
        "In the chain %(path)s, each cell holds two values and shares one with the next: if "
        "%(start_cell)s is not %(value)s, each link forces the next until %(end_cell)s is "
        "%(value)s, so %(value)s can be removed from %(removed_cells)s."
    ),
    "alternating_chain": gettext_noop(
        "%(chain)s; so %(start_cell)s is %(start_value)s or %(end_cell)s is %(end_value)s, and "
        "either way remove %(eliminations)s."
    ),
    "search:naked_cell": gettext_noop(
        "If %(cell)s were %(value)s, filling in the naked singles that follow (%(count)s "
        "placements) leads to a contradiction: %(broken_cell)s would have no value left; so "
        "remove %(value)s from %(cell)s."
    ),
    "search:naked_unit": gettext_noop(
        "If %(cell)s were %(value)s, filling in the naked singles that follow (%(count)s "
        "placements) leads to a contradiction: a unit would have no place left for one of its "
        "values; so remove %(value)s from %(cell)s."
    ),
    "search:all_cell": gettext_noop(
        "If %(cell)s were %(value)s, filling in the singles that follow (%(count)s "
        "placements) leads to a contradiction: %(broken_cell)s would have no value left; so "
        "remove %(value)s from %(cell)s."
    ),
    "search:all_unit": gettext_noop(
        "If %(cell)s were %(value)s, filling in the singles that follow (%(count)s "
        "placements) leads to a contradiction: a unit would have no place left for one of its "
        "values; so remove %(value)s from %(cell)s."
    ),
    "search:solution": gettext_noop(
        "None of the techniques this engine knows applies here, and no single trial settles "
        "anything; searching shows that %(cell)s is %(value)s."
    ),
    "incorrect_entry:one": gettext_noop("The %(value)s in %(cell)s is wrong: clear it."),
    "incorrect_entry:many": gettext_noop("The entries in %(entries)s are wrong: clear them."),
    "incorrect_note:one": gettext_noop(
        "Your notes for %(cells)s leave out the value that goes there: check them again."
    ),
    "incorrect_note:many": gettext_noop(
        "Your notes for %(cells)s leave out the value that goes in each: check them again."
    ),
    # Killer (solver.logic.cages): a cage's sum, its values in a house, the 45 rule.
    # Constraints (solver.logic.constraint_steps): the constraint that rules values out.
    "constraint:thermometer": gettext_noop(
        "Values rise along the thermometer through %(cells)s, so remove %(eliminations)s."
    ),
    "constraint:arrow": gettext_noop(
        "The values on the arrow %(cells)s add up to the number in its circle "
        "%(circle_cells)s, so remove %(eliminations)s."
    ),
    "constraint:kropki_white": gettext_noop(
        "A white dot joins %(cells)s: their values differ by %(count)s, so remove %(eliminations)s."
    ),
    "constraint:kropki_black": gettext_noop(
        "A black dot joins %(cells)s: one value is %(count)s times the other, so remove "
        "%(eliminations)s."
    ),
    "constraint:xv": gettext_noop(
        "%(cells)s add up to %(count)s (an X is 10, a V 5), so remove %(eliminations)s."
    ),
    "constraint:black_dots_negative": gettext_noop(
        "No black dot joins %(cells)s, so neither value is double the other: remove "
        "%(eliminations)s."
    ),
    "constraint:xv_negative": gettext_noop(
        "No X or V joins %(cells)s, so they add up to neither 5 nor 10: remove %(eliminations)s."
    ),
    "constraint:nonconsecutive": gettext_noop(
        "No white dot joins the neighbours %(cells)s, so they are not consecutive: remove "
        "%(eliminations)s."
    ),
    "constraint:odd": gettext_noop("%(cells)s holds an odd value, so remove %(eliminations)s."),
    "constraint:even": gettext_noop("%(cells)s holds an even value, so remove %(eliminations)s."),
    "constraint:little_killer": gettext_noop(
        "The diagonal %(cells)s adds up to %(count)s, so remove %(eliminations)s."
    ),
    "constraint:sandwich": gettext_noop(
        "In %(cells)s the values between the 1 and the %(value)s add up to %(count)s, so "
        "remove %(eliminations)s."
    ),
    "constraint:palindrome": gettext_noop(
        "%(cells)s mirror each other on a palindrome line, so remove %(eliminations)s."
    ),
    "constraint:renban": gettext_noop(
        "%(cells)s hold a run of consecutive values, so remove %(eliminations)s."
    ),
    "constraint:whispers": gettext_noop(
        "Neighbours on the whispers line %(cells)s differ by at least %(count)s, so remove "
        "%(eliminations)s."
    ),
    "constraint:region_sum": gettext_noop(
        "The line through %(cells)s adds up to the same in every region it crosses, so "
        "remove %(eliminations)s."
    ),
    "constraint:between": gettext_noop(
        "The values of %(cells)s lie strictly between those at the line's two ends, so "
        "remove %(eliminations)s."
    ),
    # A placement's extra peers, as the constraint lessons show them (learn/constraint_examples.py).
    "constraint:antiknight": gettext_noop(
        "Once %(cell)s is %(value)s, no cell a knight's move away can be %(value)s: remove "
        "%(eliminations)s."
    ),
    "constraint:antiking": gettext_noop(
        "Once %(cell)s is %(value)s, no cell a king's move away can be %(value)s: remove "
        "%(eliminations)s."
    ),
    "constraint:extra_region": gettext_noop(
        "Once %(cell)s is %(value)s, no other cell of its extra region can be %(value)s: "
        "remove %(eliminations)s."
    ),
    "cage_combination": gettext_noop(
        "The cage of %(cells)s adds up to %(count)s; with the values its cells can still hold, "
        "only %(values)s can make that sum, so remove %(eliminations)s."
    ),
    "cage_house": gettext_noop(
        "Every way to make the sum of the cage of %(cage_cells)s uses %(value)s, and only "
        "%(cells)s can hold it there, all in %(unit)s, so %(value)s can be removed from the "
        "rest of %(unit)s: %(removed_cells)s."
    ),
    "innies_outies:innies": gettext_noop(
        "The values in %(units)s add up to a fixed total and the cages wholly inside "
        "account for the rest, so %(cells)s, the cells left inside, add up to "
        "%(count)s: remove %(eliminations)s."
    ),
    "innies_outies:innies_one": gettext_noop(
        "The values in %(units)s add up to a fixed total and the cages wholly inside "
        "account for all but %(cell)s, so %(cell)s is %(value)s."
    ),
    "innies_outies:outies": gettext_noop(
        "The values in %(units)s add up to a fixed total, so %(cells)s, the cells "
        "outside of the cages that cross the edge, add up to %(count)s: remove "
        "%(eliminations)s."
    ),
    "innies_outies:outies_one": gettext_noop(
        "The values in %(units)s add up to a fixed total, so %(cell)s, the one cell "
        "outside of the cages that cross the edge, is %(value)s."
    ),
    # Killer (solver.logic.killer_sums): known sums of any size, killer pairs and triples.
    "innies_outies_large:innies": gettext_noop(
        "The values in %(units)s add up to a fixed total and the cages wholly inside "
        "account for the rest, so %(cells)s, the cells left inside, make a cage of their "
        "own that adds up to %(count)s: remove %(eliminations)s."
    ),
    "innies_outies_large:outies": gettext_noop(
        "The values in %(units)s add up to a fixed total, so %(cells)s, the cells outside "
        "of the cages that cross the edge, make a cage of their own that adds up to "
        "%(count)s: remove %(eliminations)s."
    ),
    "cage_split:split": gettext_noop(
        "By the 45 rule on %(units)s, part of the cage of %(cage_cells)s has a known sum, so "
        "the rest of it, %(cells)s, adds up to %(count)s: remove %(eliminations)s."
    ),
    "cage_split:split_one": gettext_noop(
        "By the 45 rule on %(units)s, part of the cage of %(cage_cells)s has a known sum, so "
        "the rest of it, %(cell)s, is %(value)s."
    ),
    "cage_split:difference": gettext_noop(
        "By the 45 rule on %(units)s, two groups of cells have known sums and one lies "
        "inside the other, so the cells left over, %(cells)s, add up to %(count)s: remove "
        "%(eliminations)s."
    ),
    "cage_split:difference_one": gettext_noop(
        "By the 45 rule on %(units)s, two groups of cells have known sums and one lies "
        "inside the other, so the cell left over, %(cell)s, is %(value)s."
    ),
    "hidden_cage:hidden": gettext_noop(
        "By the 45 rule, cells of %(units)s have a known sum, so the rest of it, %(cells)s, "
        "is a hidden cage that adds up to %(count)s: remove %(eliminations)s."
    ),
    "hidden_cage:hidden_one": gettext_noop(
        "By the 45 rule, cells of %(units)s have a known sum, so the rest of it, %(cell)s, "
        "is %(value)s."
    ),
    "killer_subset:locked": gettext_noop(
        "The cages of %(cells)s lie in %(unit)s and cannot share a value: every way to fill "
        "them together uses %(values)s, so remove %(eliminations)s."
    ),
    "killer_subset:combinations": gettext_noop(
        "The cages of %(cells)s lie in %(unit)s and cannot share a value: only some of "
        "their combinations fit together, so remove %(eliminations)s."
    ),
    "house_combination": gettext_noop(
        "Every value goes once in %(unit)s: of the ways to make the sums of the cages of "
        "%(cells)s that cross it, only some fit together, so remove %(eliminations)s."
    ),
}

# Techniques that share a family's sentence.
FAMILY = {
    "pointing": "locked",
    "claiming": "locked",
    "naked_pair": "naked_subset",
    "naked_triple": "naked_subset",
    "naked_quad": "naked_subset",
    "hidden_pair": "hidden_subset",
    "hidden_triple": "hidden_subset",
    "hidden_quad": "hidden_subset",
    "x_wing": "fish",
    "swordfish": "fish",
    "jellyfish": "fish",
    "finned_x_wing": "finned_fish",
    "finned_swordfish": "finned_fish",
    "finned_jellyfish": "finned_fish",
    "killer_pair": "killer_subset",
    "killer_triple": "killer_subset",
}

# The words that join the parts of a sentence.
AND = gettext_noop("%(head)s and %(last)s")
COMMA = gettext_noop("%(first)s, %(next)s")
UNIT = {
    "row": gettext_noop("row %(number)s"),
    "column": gettext_noop("column %(number)s"),
    "box": gettext_noop("box %(number)s"),
    "diagonal": gettext_noop("diagonal %(number)s"),
    "window": gettext_noop("window %(number)s"),
    "region": gettext_noop("region %(number)s"),
}
UNITS = {
    "row": gettext_noop("rows %(numbers)s"),
    "column": gettext_noop("columns %(numbers)s"),
    "box": gettext_noop("boxes %(numbers)s"),
    "diagonal": gettext_noop("diagonals %(numbers)s"),
    "window": gettext_noop("windows %(numbers)s"),
    "region": gettext_noop("regions %(numbers)s"),
}
ELIMINATION = gettext_noop("%(value)s from %(cells)s")
ENTRY = gettext_noop("%(cell)s (%(value)s)")
CHAIN = gettext_noop("if %(first)s, then %(rest)s")
CHAIN_SO = gettext_noop("%(first)s, so %(next)s")
NODE_OFF = gettext_noop("%(cell)s is not %(value)s")
NODE_ON = gettext_noop("%(cell)s is %(value)s")


def template_key(technique: str, variant: str | None) -> str:
    family = FAMILY.get(technique, technique)
    return f"{family}:{variant}" if variant else family


def has_template(technique: str, variant: str | None = None) -> bool:
    return template_key(technique, variant) in TEMPLATES


def join(words: Sequence[str], translate: Translate = english) -> str:
    """``a``, ``a and b``, ``a, b and c`` in the words of ``translate``."""
    if len(words) <= 1:
        return "".join(words)
    head = words[0]
    for word in words[1:-1]:
        head = translate(COMMA) % {"first": head, "next": word}
    return translate(AND) % {"head": head, "last": words[-1]}


def cell_label(size: int, cell: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


def _kind(kind: int, regions: bool) -> str:
    name = UNIT_KINDS[kind]
    return "region" if regions and name == "box" else name


def unit_label(
    size: int, unit: int, translate: Translate = english, *, regions: bool = False
) -> str:
    """``row 3``; with ``regions`` (a Jigsaw's irregular boxes) a box is ``region 6``."""
    kind, index = divmod(unit, size)
    return translate(UNIT[_kind(kind, regions)]) % {"number": index + 1}


def units_label(
    size: int, units: Sequence[int], translate: Translate = english, *, regions: bool = False
) -> str:
    """``rows 1 and 4`` for units of one kind, else the units' names joined."""
    kinds = {u // size for u in units}
    if len(units) > 1 and len(kinds) == 1:
        numbers = join([str(u % size + 1) for u in units], translate)
        return translate(UNITS[_kind(kinds.pop(), regions)]) % {"numbers": numbers}
    return join([unit_label(size, u, translate, regions=regions) for u in units], translate)


def symbol(value: int) -> str:
    return SYMBOLS[value - 1]


def eliminations_label(
    size: int, eliminations: Iterable[tuple[int, int]], translate: Translate = english
) -> str:
    """``1, 2 and 7 from r8c5 and r9c4 and 3 from r1c1``: the cells each value leaves,
    and values that leave the same cells named together (cells are said once)."""
    by_value: dict[int, list[int]] = {}
    for cell, value in sorted(eliminations, key=lambda p: (p[1], p[0])):
        by_value.setdefault(value, []).append(cell)
    by_cells: dict[tuple[int, ...], list[int]] = {}
    for value, cells in by_value.items():
        by_cells.setdefault(tuple(cells), []).append(value)
    parts = [
        translate(ELIMINATION)
        % {
            "value": join([symbol(v) for v in values], translate),
            "cells": join([cell_label(size, c) for c in cells], translate),
        }
        for cells, values in by_cells.items()
    ]
    return join(parts, translate)


def _chain_label(size: int, nodes: Sequence[Sequence[int]], translate: Translate) -> str:
    parts = [
        translate(NODE_OFF if i % 2 == 0 else NODE_ON)
        % {"cell": cell_label(size, c), "value": symbol(v)}
        for i, (c, v) in enumerate(nodes)
    ]
    rest = parts[1]
    for part in parts[2:]:
        rest = translate(CHAIN_SO) % {"first": rest, "next": part}
    return translate(CHAIN) % {"first": parts[0], "rest": rest}


def _label(key: str, value: Any, size: int, translate: Translate, regions: bool) -> str:
    """One parameter as words, by what its name says it holds (see the module docstring)."""
    if key == "path":
        return " → ".join(cell_label(size, c) for c in value)
    if key == "chain":
        return _chain_label(size, value, translate)
    if key == "entries":
        return join(
            [
                translate(ENTRY) % {"cell": cell_label(size, c), "value": symbol(v)}
                for c, v in value
            ],
            translate,
        )
    if key == "options":
        return "/".join(symbol(v) for v in value)
    if key == "cell" or key.endswith("_cell"):
        return cell_label(size, value)
    if key == "cells" or key.endswith("_cells"):
        return join([cell_label(size, c) for c in value], translate)
    if key == "unit" or key.endswith("_unit"):
        return unit_label(size, value, translate, regions=regions)
    if key == "units" or key.endswith("_units"):
        return units_label(size, value, translate, regions=regions)
    if key == "value" or key.endswith("_value"):
        return symbol(value)
    if key == "values" or key.endswith("_values"):
        return join([symbol(v) for v in value], translate)
    return str(value)


def render(
    technique: str,
    params: Mapping[str, Any],
    *,
    size: int,
    eliminations: Iterable[tuple[int, int]] = (),
    translate: Translate = english,
    regions: bool = False,
) -> str | None:
    """The step's sentence in the words of ``translate``; None if the technique has none.
    ``regions``: the grid's boxes are irregular (Jigsaw), named regions."""
    variant = params.get("variant")
    template = TEMPLATES.get(template_key(technique, variant))
    if template is None:
        return None
    words = {
        key: _label(key, value, size, translate, regions)
        for key, value in params.items()
        if key not in ("variant", "name_variant")
    }
    words["eliminations"] = eliminations_label(size, eliminations, translate)
    return translate(template) % words
