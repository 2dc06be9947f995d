"""What each technique is, in a few sentences a player can follow (the lesson's text),
translated lazily: the reader's language applies when the text is shown.

Keys are the engine's technique slugs (:data:`solver.logic.techniques.ORDER`); a technique the
engine learns later without a text here gets :data:`FALLBACK` until one is written.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from learn.constraint_lessons import constraint_lesson

FALLBACK = _(
    "The engine uses this pattern to rule out candidates. Step through the example to see "
    "the cells it looks at and what it concludes."
)

TEXTS: dict[str, Any] = {
    "full_house": _(
        "A row, column or box has only one empty cell left. Only one value is missing from "
        "it, so that value goes in the empty cell."
    ),
    "naked_single": _(
        "Look at one empty cell and cross out every value already in its row, its column and "
        "its box. When just one value survives, that is the cell's value."
    ),
    "hidden_single": _(
        "Pick a value and a unit (row, column or box). If the value fits in only one cell of "
        "the unit, it must go there, even when that cell still has other candidates."
    ),
    "pointing": _(
        "Inside one box, a value's candidates all lie on the same row (or column). Whichever "
        "cell takes it, that line gets the value inside the box, so it can be crossed out "
        "from the rest of the line."
    ),
    "claiming": _(
        "The mirror of pointing: in one row (or column) a value's candidates all sit inside "
        "one box. The line's copy of the value is in that box, so the other cells of the box "
        "cannot hold it."
    ),
    "naked_pair": _(
        "Two cells of one unit have the same two candidates and nothing else. Those two "
        "values are shared out between the two cells, so every other cell of the unit loses "
        "them."
    ),
    "hidden_pair": _(
        "In one unit, two values fit only in the same two cells. Those cells must take the "
        "two values, so any other candidates in them can go."
    ),
    "naked_triple": _(
        "Three cells of one unit hold, between them, only three different candidates (each "
        "cell need not have all three). The three values fill those cells, so the rest of "
        "the unit loses them."
    ),
    "hidden_triple": _(
        "In one unit, three values fit only within the same three cells. Those cells take the "
        "three values; their other candidates can be removed."
    ),
    "naked_quad": _(
        "Four cells of one unit hold only four different candidates between them. The four "
        "values belong to those cells and leave the rest of the unit."
    ),
    "hidden_quad": _(
        "Four values of one unit fit only within the same four cells. Those cells keep just "
        "those four values."
    ),
    "x_wing": _(
        "In two rows a value fits in exactly the same two columns. The four cells make a "
        "rectangle: the value sits on one diagonal or the other, and either way both columns "
        "get it there. So it leaves every other cell of those two columns. (The same works "
        "with rows and columns swapped.)"
    ),
    "swordfish": _(
        "An X-Wing with three lines: in three rows a value fits only within the same three "
        "columns. The three copies fill those columns, so the value leaves the rest of them."
    ),
    "jellyfish": _(
        "The four-line fish: in four rows a value fits only within four columns, so those "
        "columns get their copies from these rows and the value leaves the rest of them."
    ),
    "xy_wing": _(
        "A pivot cell with candidates XY sees two pincers, XZ and YZ. If the pivot is X, the "
        "first pincer is Z; if it is Y, the second one is. Either way a pincer holds Z, so a "
        "cell that sees both pincers cannot be Z."
    ),
    "xyz_wing": _(
        "Like the XY-Wing, but the pivot holds all three values XYZ. One of the three cells "
        "is Z, so a cell seeing all three of them cannot be Z."
    ),
    "w_wing": _(
        "Two cells far apart have the same two candidates XY. A value X has only two places "
        "in some unit, one seen by each of the two cells. One of those two places is X, so "
        "one of the two cells is Y: a cell that sees both loses Y."
    ),
    "skyscraper": _(
        "In two rows a value has just two places, and one end of each lines up in the same "
        "column. At most one of the aligned ends is the value, so one of the two far ends "
        "is: a cell seeing both far ends loses it."
    ),
    "two_string_kite": _(
        "A value has two places in a row and two in a column, and one end of each shares a "
        "box. Those two ends cannot both be the value, so one of the two other ends is: a "
        "cell seeing both loses the value."
    ),
    "simple_colouring": _(
        "Follow one value along units where it has exactly two places, colouring the cells "
        "in turn with two colours. One colour holds the value everywhere. A cell that sees "
        "both colours loses it; a colour that meets itself in a unit is false throughout."
    ),
    "unique_rectangle_1": _(
        "Four cells in two rows, two columns and two boxes would all hold the same two values "
        "XY, and the puzzle would then have two solutions. A proper puzzle has one, so the "
        "corner with extra candidates cannot be just X or Y: X and Y leave it."
    ),
    "unique_rectangle_2": _(
        "A deadly rectangle where two corners share one extra candidate Z. One of them must "
        "be Z to avoid two solutions, so any cell seeing both of them loses Z."
    ),
    "unique_rectangle_4": _(
        "A deadly rectangle with two corners that carry extras, where one of the pair values "
        "is forced into those two corners within their unit. The other pair value would make "
        "the rectangle deadly, so it leaves both corners."
    ),
    "bug_plus_one": _(
        "Every empty cell has two candidates except one cell with three. If that cell were "
        "not its odd value, the grid would be a pattern with two solutions, so the cell "
        "takes the value that appears three times in its units."
    ),
    "x_chain": _(
        "A chain for one value, alternating strong links (a unit with only two places: one "
        "of them is the value) and weak links (two cells that see each other). The two ends "
        "cannot both be false, so a cell seeing both ends loses the value."
    ),
    "xy_chain": _(
        "A chain of two-candidate cells, each sharing a value with the next. If the first "
        "cell is not Z, the chain forces the last cell to be Z. So one end is Z, and any "
        "cell seeing both ends cannot be."
    ),
    "finned_x_wing": _(
        "An X-Wing that is almost there: in one of its two lines the value also fits in a "
        "cell or two next to a corner, all inside that corner's box (the fin). Either the "
        "X-Wing holds or the fin takes the value, so only the cells that see both the "
        "X-Wing's corner and the fin lose it. Without the corner itself it is called Sashimi."
    ),
    "finned_swordfish": _(
        "A Swordfish on three lines with a fin: one line has extra candidates, all in one "
        "box. The cells that the fish would clear and that also see the fin lose the value, "
        "whichever of the two is true."
    ),
    "empty_rectangle": _(
        "In one box a value's candidates all lie on one row and one column of the box (an L "
        "or a cross). Pair that with a line where the value fits in just two cells: follow "
        "the pair from the box's row to the far cell, and the cell where that column meets "
        "the box's column cannot hold the value."
    ),
    "unique_rectangle_3": _(
        "Four cells on two rows, two columns and two boxes share two candidates; two of them "
        "have extra values. A puzzle with one solution cannot let the four keep only the "
        "pair, so the extra values act as one more cell of a naked subset in their unit, and "
        "the rest of the unit loses them."
    ),
    "unique_rectangle_5": _(
        "A unique rectangle where the same extra value sits in two or three of its corners. "
        "One of those corners must take it, or the rectangle could swap its two values: so "
        "every cell that sees all the corners with the extra value loses it."
    ),
    "unique_rectangle_6": _(
        "A unique rectangle whose two bivalue corners are diagonal, and where one of its "
        "values fits nowhere else in the rectangle's two rows and two columns. That value "
        "must then sit in the two diagonal corners, so it is removed from the other two."
    ),
    "hidden_unique_rectangle": _(
        "A unique rectangle seen through one value: when a value fits only in the "
        "rectangle's cells along one row and one column, the far corner cannot take the other "
        "value of the pair, or the four cells could swap and the puzzle would have two "
        "solutions."
    ),
    "sue_de_coq": _(
        "Where a box meets a line, two or three cells hold more candidates than cells. Split "
        "their values between a bivalue cell of the line and one of the box: each set of "
        "values is locked in its own unit, so the rest of the line and of the box lose them."
    ),
    "x_cycle": _(
        "A loop of one value around the board, alternating strong links (the value fits in "
        "just two cells of a unit) and weak ones. In a closed loop each weak link also works "
        "as a strong one, so cells that see both ends of a weak link lose the value."
    ),
    "als_xz": _(
        "Two almost locked sets (groups of cells with one more candidate than cells) share a "
        "value X that, in both, can only go in cells that see each other: X goes in one set "
        "or the other. Then another shared value Z is locked in one of the two, and any cell "
        "that sees every Z of both sets loses it."
    ),
    "nice_loop": _(
        "An alternating chain of candidates that closes on itself, mixing links inside cells "
        "and inside units. Because the loop has no weak point, every weak link in it becomes "
        "strong, and candidates that see both ends of such a link can be removed."
    ),
    "alternating_chain": _(
        "The general chain: links between candidates, strong (one of them is true) and weak "
        "(not both true), alternating. Its two ends cannot both be false, so whatever sees "
        "both ends is false."
    ),
    # Killer Sudoku (solver.logic.cages): the variant engine's own techniques.
    "cage_combination": _(
        "A cage is a group of cells inside a dashed outline, with a sum in its corner: its "
        "values add up to that sum and none repeats inside it. Few sets of different values "
        "make a given sum: two cells adding up to 3 hold 1 and 2, three cells adding up to "
        "24 hold 7, 8 and 9. List the sets that make the sum from the candidates the cells "
        "still have; a value that no such set can give a cell leaves that cell."
    ),
    "innies_outies": _(
        "The 45 rule: a row, column or box holds 1 to 9 once each, so its values add up to "
        "45, and neighbouring houses add up together: two rows, or two boxes side by side, "
        "to 90; three boxes in an L to 135. Take away the sums of the cages wholly inside "
        "such a house or group: what is left is the sum of its other cells, the innies. Or "
        "add up the cages that stick out of it: what they hold beyond its total is the sum "
        "of their cells outside, the outies. A single innie or outie gets its value at once; "
        "two or three lose the values that cannot make their sum."
    ),
    "cage_house": _(
        "When every set of values that makes a cage's sum uses one value, that value is in "
        "the cage. If the cells of the cage that can take it all lie in one row, column or "
        "box, that house gets the value there, so it leaves the rest of the house. A cage "
        "of two cells adding up to 3 in one row takes 1 and 2 from the rest of the row."
    ),
    # Killer Sudoku (solver.logic.killer_sums): sums of any size, splits, pairs of cages.
    "killer_pair": _(
        "Two cages wholly inside one row, column or box cannot share a value. Pair up the "
        "sets that make each cage's sum with no value in both: a value every such pairing "
        "uses is in one of the two cages, so it leaves the rest of the house; a set of one "
        "cage that fits no set of the other is dropped."
    ),
    "innies_outies_large": _(
        "The 45 rule with more cells: when four or more innies or outies are left, they "
        "still add up to a known total. Read them as a cage of their own, a virtual cage, "
        "except that two of them may repeat a value when they share no row, column or box. "
        "A value that no way of making the total gives a cell leaves it."
    ),
    "cage_split": _(
        "When a known sum lies inside a cage, or inside another known sum, the cells left "
        "over add up to the difference. The 45 rule gives the part of a cage inside a box: "
        "the rest of the cage outside the box is a cage of its own with the sum left over."
    ),
    "hidden_cage": _(
        "The 45 rule on two or three houses can give a group of cells that all lie in one "
        "row, column or box. The rest of that house then adds up to 45 less their sum: a "
        "cage nobody drew, read like any other."
    ),
    "killer_triple": _(
        "The killer pair with three cages wholly inside one house: pick one set for each so "
        "that no value repeats; a value every such choice uses leaves the rest of the house."
    ),
    "house_combination": _(
        "When the easier steps stall, take one row, column or box and every cage that "
        "crosses it, wholly inside or only in part. Write down the ways each cage can still "
        "make its sum, the cells outside the house included, and keep only the ways that fit "
        "together: the house takes every value once. A value no fitting way gives a cell "
        "leaves it, inside the house or out."
    ),
}


def lesson_text(slug: str) -> Any:
    """The lesson's explanation of ``slug`` (a technique, or a constraint's lesson)."""
    if slug in TEXTS:
        return TEXTS[slug]
    lesson = constraint_lesson(slug)
    return lesson.text if lesson is not None else FALLBACK
