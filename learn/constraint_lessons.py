"""The constraint lessons: one per deduction a constraint gives the logic engine
(:mod:`solver.logic.constraint_steps`), with the text a player reads.

The engine has one technique for them all (``constraint``); a lesson is one of its
sentences (``constraint:<kind>`` in :mod:`solver.logic.sentences`), so its slug is the
constraint's kind. Anti-knight, anti-king and extra regions give no step of their own: they
add peers, and their lesson shows a placement clearing them
(:func:`learn.constraint_examples.peer_example`). Each example is made from a puzzle that
:func:`solver.generation.constrained.make_constrained` draws with constraints of ``drawn``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True, slots=True)
class ConstraintLesson:
    slug: str
    name: Any  # lazy: translated when shown
    drawn: str  # the kind make_constrained draws (solver.generation.constrained.DRAWN)
    steps: tuple[str, ...]  # the step sentences it teaches (constraint:<variant>)
    peers: bool = False  # a whole-grid rule or region: its lesson is a placement's peers
    text: Any = ""


LESSONS: tuple[ConstraintLesson, ...] = (
    ConstraintLesson(
        "thermometer",
        _("Thermometer"),
        "thermometer",
        ("thermometer",),
        text=_(
            "Values rise from the bulb along a thermometer, each strictly more than the one "
            "before. A cell two places from the bulb is at least 3; a cell three places "
            "before the tip of a 9x9 thermometer is at most 6. A known value pushes the rest: "
            "after a 4 every cell must exceed 4, before it every cell is below it."
        ),
    ),
    ConstraintLesson(
        "arrow",
        _("Arrow"),
        "arrow",
        ("arrow",),
        text=_(
            "The values on an arrow's line add up to the number in its circle. The line's "
            "smallest and largest possible sums bound the circle, and the circle bounds each "
            "cell of the line: with a circle of at most 7 and two other cells of at least 1 "
            "each, no cell of the line can be more than 5."
        ),
    ),
    ConstraintLesson(
        "kropki_white",
        _("White Dot"),
        "kropki",
        ("kropki_white",),
        text=_(
            "A white dot between two cells says their values are consecutive: they differ by "
            "exactly 1. A candidate with neither neighbour value (one more or one less) left "
            "in the other cell cannot stay."
        ),
    ),
    ConstraintLesson(
        "kropki_black",
        _("Black Dot"),
        "kropki",
        ("kropki_black",),
        text=_(
            "A black dot between two cells says one value is double the other. On 9x9 only "
            "1, 2, 3, 4, 6 and 8 can sit on a black dot (5, 7 and 9 have no half or double "
            "in range), and each candidate needs its half or its double in the other cell."
        ),
    ),
    ConstraintLesson(
        "black_dots_negative",
        _("Every Black Dot Given"),
        "kropki_negative",
        ("black_dots_negative",),
        text=_(
            "When every black dot is drawn, two neighbours with no black dot between them "
            "cannot be a value and its double. A 4 placed next to an undotted cell takes 2 "
            "and 8 out of it."
        ),
    ),
    ConstraintLesson(
        "xv",
        _("XV"),
        "xv",
        ("xv",),
        text=_(
            "An X between two cells says they add up to 10, a V that they add up to 5. Each "
            "candidate needs its partner in the other cell: on a V only 1 to 4 can stay, and "
            "on an X a 5 would need a second 5 beside it in the same row or column, so it goes."
        ),
    ),
    ConstraintLesson(
        "xv_negative",
        _("Every X and V Given"),
        "xv_negative",
        ("xv_negative",),
        text=_(
            "When every X and V is drawn, two neighbours with no mark between them add up to "
            "neither 5 nor 10. A 7 in one cell takes 3 out of its unmarked neighbours, a 2 "
            "takes 3 and 8."
        ),
    ),
    ConstraintLesson(
        "nonconsecutive",
        _("Non-Consecutive"),
        "nonconsecutive",
        ("nonconsecutive",),
        text=_(
            "Cells that touch side by side never hold consecutive values. A placed 5 takes 4 "
            "and 6 out of its up to four neighbours. A cell down to 4 and 5 takes both out of "
            "its neighbours: a 4 beside it would leave it no value, and so would a 5."
        ),
    ),
    ConstraintLesson(
        "antiknight",
        _("Anti-Knight"),
        "antiknight",
        (),
        peers=True,
        text=_(
            "Two cells a chess knight's move apart never hold the same value. They are peers, "
            "like the cells of a row: each placed value also leaves up to eight cells a "
            "knight's move away. The example is a placement the engine makes and the "
            "candidates it clears that a row, column or box would not."
        ),
    ),
    ConstraintLesson(
        "antiking",
        _("Anti-King"),
        "antiking",
        (),
        peers=True,
        text=_(
            "Two cells a chess king's move apart (diagonal neighbours included) never hold "
            "the same value. Side neighbours share a row or column already; the diagonal "
            "ones across a box edge are new peers, and a placed value leaves them."
        ),
    ),
    ConstraintLesson(
        "extra_region",
        _("Extra Region"),
        "extra_region",
        (),
        peers=True,
        text=_(
            "The shaded cells form one more region: none of their values repeats, as in a "
            "box. A value placed in it leaves every other cell of the region, wherever it "
            "lies on the board."
        ),
    ),
    ConstraintLesson(
        "parity",
        _("Odd and Even Cells"),
        "parity",
        ("odd", "even"),
        text=_(
            "A circle holds an odd value, a square an even one: the other values leave the "
            "cell at once, and a row with its odd cells known has fewer places for the "
            "rest."
        ),
    ),
    ConstraintLesson(
        "little_killer",
        _("Little Killer"),
        "little_killer",
        ("little_killer",),
        text=_(
            "A number outside the grid with an arrow gives the sum of the diagonal it "
            "points along; a value may repeat on it in different boxes. The smallest and "
            "largest sums the other cells can make bound each cell: on a diagonal of three "
            "cells adding up to 7, no cell can be more than 5."
        ),
    ),
    ConstraintLesson(
        "sandwich",
        _("Sandwich"),
        "sandwich",
        ("sandwich",),
        text=_(
            "A number beside a row or column is the sum of the values between its 1 and its "
            "9. A sum of 0 puts them side by side; 35 means everything but the 1 and 9 lies "
            "between them. Where the 1 and 9 can sit decides which cells are inside, and a "
            "value that fits no such filling leaves its cell."
        ),
    ),
    ConstraintLesson(
        "palindrome",
        _("Palindrome Line"),
        "palindrome",
        ("palindrome",),
        text=_(
            "A palindrome line reads the same from both ends: the first cell equals the last, "
            "the second the one before last. Two mirrored cells keep only the candidates they "
            "share."
        ),
    ),
    ConstraintLesson(
        "renban",
        _("Renban Line"),
        "renban",
        ("renban",),
        text=_(
            "A renban line holds a run of consecutive values in any order, none repeated. A "
            "line of four cells with a 6 on it holds 3 to 6, 4 to 7, 5 to 8 or 6 to 9: none "
            "of its cells can be 1 or 2."
        ),
    ),
    ConstraintLesson(
        "whispers",
        _("German Whispers"),
        "whispers",
        ("whispers",),
        text=_(
            "Neighbours on a German whispers line differ by at least 5 (on 9x9). A 5 has no "
            "value 5 away, so it never sits on the line; a 4 needs a 9 beside it on the "
            "line and a 6 a 1; low and high values alternate along it."
        ),
    ),
    ConstraintLesson(
        "region_sum",
        _("Region-Sum Line"),
        "region_sum",
        ("region_sum",),
        text=_(
            "A region-sum line crosses box borders, and its cells in each box add up to the "
            "same total. A single cell of it alone in one box gives that total to every "
            "other box's part of the line."
        ),
    ),
    ConstraintLesson(
        "between",
        _("Between Line"),
        "between",
        ("between",),
        text=_(
            "The circles at a between line's two ends bound it: every cell on the line "
            "holds a value strictly between theirs. So the ends are neither equal nor "
            "consecutive, and a 1 or a 9 can sit on the line only at an end."
        ),
    ),
)
BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}
LEVEL = "easy"
"""The engine's level of the ``constraint`` technique (:data:`solver.logic.general.ORDER`)."""
GROUP = "constraints"
"""The ``variant`` a constraint lesson reports: the index's heading for them all."""


def constraint_lesson(slug: str) -> ConstraintLesson | None:
    return BY_SLUG.get(slug)


def constraint_lesson_of_step(step: dict[str, Any]) -> ConstraintLesson | None:
    """The lesson of a ``constraint`` step (a hint's), by the sentence it reads."""
    if step.get("technique") != "constraint":
        return None
    variant = (step.get("params") or {}).get("variant")
    return next((lesson for lesson in LESSONS if variant in lesson.steps), None)
