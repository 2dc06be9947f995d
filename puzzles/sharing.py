"""A puzzle as it travels: its f-puzzles object and the links that open it elsewhere.

SudokuPad opens ``https://sudokupad.app/fpuzzles<data>`` and f-puzzles opens
``https://www.f-puzzles.com/?load=<data>``, where ``<data>`` is the f-puzzles JSON
compressed with lz-string's ``compressToBase64`` (``solver.formats.fpuzzles``). The solution rides
along only when the caller says it may (``play.disclosure.export_solution_visible``): a
link cannot be taken back once it is shared.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from puzzles.models import Puzzle, Variant
from puzzles.variants import rules_of
from solver.formats.fpuzzles import fpuzzles_link, share_link, to_fpuzzles


def puzzle_export(*, puzzle: Puzzle, with_solution: bool) -> dict[str, Any]:
    """The f-puzzles object of ``puzzle`` and its SudokuPad and f-puzzles links."""
    variant = str(dict(Variant.choices).get(puzzle.variant, puzzle.variant))
    title = _("%(variant)s sudoku #%(id)s") % {"variant": variant, "id": puzzle.pk}
    data = to_fpuzzles(
        rules_of(puzzle),
        puzzle.grid(),
        solution=puzzle.solution_grid() if with_solution else None,
        title=title,
    )
    return {
        "puzzle": puzzle.pk,
        "variant": puzzle.variant,
        "size": puzzle.size,
        "solution_included": with_solution,
        "fpuzzles": data,
        "sudokupad_url": share_link(data),
        "fpuzzles_url": fpuzzles_link(data),
    }
