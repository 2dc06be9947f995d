"""Input and output shapes of the solver endpoints."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from sudokusite.fields import StrictCharField, StrictIntegerField
from sudokusite.serializers import InputSerializer

MAX_GRID_CHARS = 10_000
"""The longest grid text read: room for a 25x25 grid written with spaces and rules."""

MAX_NOTES = 625


class GridTextField(StrictCharField):
    """A grid as text, in any format the solver parses; a JSON string only."""

    default_error_messages = {
        "not_text": _('Send the grid as a string, e.g. "53..7....6..195...".'),
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_GRID_CHARS)
        kwargs.setdefault("trim_whitespace", False)
        kwargs.setdefault("visible", False)  # not a label: the solver's parser judges it
        super().__init__(**kwargs)


def _box_field() -> StrictIntegerField:
    # Boxes are at least 2x2 and at most 25 cells: no side is longer than 12.
    return StrictIntegerField(
        required=False,
        min_value=2,
        max_value=12,
        help_text="Give box_rows and box_cols together, or neither (then the squarest "
        "shape for the grid's size).",
    )


_GRID_HELP = (
    'One puzzle: one line ("." or "0" for empty), rows on several lines, '
    "a pretty grid with | and - rules, or numbers separated by spaces. 4x4 to 25x25."
)


class SolverAnalyseInputSerializer(InputSerializer):
    grid = GridTextField(required=False, help_text=_GRID_HELP + " Or send fpuzzles instead.")
    fpuzzles = serializers.JSONField(
        required=False,
        help_text="A puzzle shared from f-puzzles or SudokuPad, instead of grid: its JSON "
        "object (size, grid, diagonal+/diagonal-, killercage or cage), its JSON text, its "
        "lz-string compressToBase64 text, or a whole SudokuPad or f-puzzles link. The answer "
        "adds its variant, regions, diagonals and cages, and import_notes.",
    )
    box_rows = _box_field()
    box_cols = _box_field()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "grid" not in attrs and "fpuzzles" not in attrs:
            raise serializers.ValidationError({"grid": [gettext("This field is required.")]})
        if "grid" in attrs and "fpuzzles" in attrs:
            raise serializers.ValidationError(gettext("Send exactly one of grid or fpuzzles."))
        return attrs


class NotesField(serializers.DictField):
    """``{"r1c2": "39"}`` or ``{"1": [3, 9]}``: checked against the grid by the service."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.JSONField(), **kwargs)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value = super().to_internal_value(data)
        if len(value) > MAX_NOTES:
            raise serializers.ValidationError(
                gettext("At most %(count)s cells of notes.") % {"count": MAX_NOTES}
            )
        return value


class SolverHintInputSerializer(SolverAnalyseInputSerializer):
    grid = GridTextField(help_text=_GRID_HELP)
    fpuzzles = None  # type: ignore[assignment]
    entries = GridTextField(
        required=False,
        help_text="The whole board as the player has it, givens included, in the grid's "
        "format and shape. Omit for just the givens.",
    )
    notes = NotesField(
        required=False,
        help_text='The player\'s candidates by cell: a cell name ("r1c2") or index ("1") '
        'mapped to a string of symbols ("39") or a list of numbers ([3, 9]).',
    )


class SolverConflictSerializer(serializers.Serializer):
    cells = serializers.ListField(child=serializers.IntegerField(), help_text="Two cell indexes.")
    cell_names = serializers.ListField(child=serializers.CharField())
    unit = serializers.IntegerField(help_text="Rows 0..N-1, columns N..2N-1, boxes 2N..3N-1.")
    unit_name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["row", "column", "box"])
    value = serializers.IntegerField()


class SolverPairSerializer(serializers.Serializer):
    cell = serializers.IntegerField()
    cell_name = serializers.CharField()
    value = serializers.IntegerField()


class SolverStepSerializer(serializers.Serializer):
    technique = serializers.CharField(help_text="Slug, e.g. hidden_single, x_wing.")
    name = serializers.CharField(help_text="In the language of Accept-Language.")
    sentence = serializers.CharField(help_text="In the language of Accept-Language.")
    units = serializers.ListField(child=serializers.IntegerField())
    unit_names = serializers.ListField(child=serializers.CharField())
    cells = serializers.ListField(child=serializers.IntegerField())
    cell_names = serializers.ListField(child=serializers.CharField())
    placements = SolverPairSerializer(many=True)
    eliminations = SolverPairSerializer(many=True)
    size = serializers.IntegerField(help_text="The grid's size, for reading params.")
    params = serializers.DictField(
        child=serializers.JSONField(),
        help_text="The structured form the sentence is rendered from, the same in every "
        "language: cell and unit indexes, values, and a variant slug. Keys name what they "
        "hold: cell/…_cell, cells/…_cells, path (cells), unit/…_unit, units/…_units, "
        "value/…_value, values/…_values, options (values), chain and entries ([cell, value] "
        "pairs), count.",
    )


class SolverAnalysisSerializer(serializers.Serializer):
    grid = serializers.CharField(help_text="The parsed grid in the one-line format.")
    size = serializers.IntegerField()
    box_rows = serializers.IntegerField()
    box_cols = serializers.IntegerField()
    clues = serializers.IntegerField()
    conflicts = SolverConflictSerializer(many=True)
    solutions = serializers.IntegerField(help_text="0, 1, or 2 meaning two or more.")
    solution = serializers.CharField(
        allow_null=True, help_text="The solution when there is exactly one."
    )
    level = serializers.CharField(allow_null=True, help_text="When the solution is unique.")
    score = serializers.IntegerField(allow_null=True)
    hardest = serializers.CharField(allow_null=True, help_text="Slug of the hardest technique.")
    techniques = serializers.DictField(
        child=serializers.IntegerField(), allow_null=True, help_text="Uses per technique."
    )
    solved_by_logic = serializers.BooleanField(
        allow_null=True, help_text="False when the logic engine could not finish."
    )
    grade_complete = serializers.BooleanField(
        allow_null=True,
        help_text="False when grading by trial and error did not fit in the work budget: "
        "level is still master, score is null.",
    )
    steps = SolverStepSerializer(many=True, help_text="The logic engine's steps, when unique.")
    steps_total = serializers.IntegerField()
    steps_truncated = serializers.BooleanField()
    step_limit = serializers.IntegerField()
    variant = serializers.CharField(
        required=False,
        help_text="For fpuzzles: classic, diagonal, jigsaw or killer. Variant puzzles are "
        "counted and solved; level, score and steps are null/empty until the engine grades "
        "variants.",
    )
    regions = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="For fpuzzles."
    )
    diagonals = serializers.BooleanField(required=False, help_text="For fpuzzles.")
    cages = serializers.ListField(
        child=serializers.DictField(), required=False, help_text='For fpuzzles: [{"cells", "sum"}].'
    )
    constraints = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="For fpuzzles: its constraints, one shape per type (as a game's puzzle).",
    )
    import_notes = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="For fpuzzles: what was read but left out, such as a cage that only "
        "carries a title or rules text.",
    )


class SolverHintSerializer(serializers.Serializer):
    solved = serializers.BooleanField(help_text="True when the board is complete and correct.")
    step = SolverStepSerializer(allow_null=True)


class SetterCheckInputSerializer(SolverAnalyseInputSerializer):
    grid = GridTextField(
        required=False,
        help_text=_GRID_HELP + " With fpuzzles too: the givens, replacing the f-puzzles "
        "puzzle's own (its rules and constraints kept).",
    )
    fpuzzles = serializers.JSONField(
        required=False,
        help_text="A puzzle shared from f-puzzles or SudokuPad (its JSON object or text, "
        "its compressed text, or a whole link), with any constraints the solver reads.",
    )
    solve = serializers.BooleanField(
        required=False,
        default=False,
        help_text="True to have the solution of a unique puzzle in the answer; otherwise "
        "solution is null.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("fpuzzles") is None:
            attrs.pop("fpuzzles", None)
        if "grid" not in attrs and "fpuzzles" not in attrs:
            raise serializers.ValidationError(
                {"grid": [gettext("Send grid, fpuzzles, or both (fpuzzles with new givens).")]}
            )
        return attrs


class SetterDifferenceSerializer(serializers.Serializer):
    cells = serializers.ListField(
        child=serializers.IntegerField(), help_text="The cells where two solutions differ."
    )
    cell_names = serializers.ListField(child=serializers.CharField())
    first = serializers.ListField(
        child=serializers.IntegerField(), help_text="One solution's values in those cells."
    )
    second = serializers.ListField(
        child=serializers.IntegerField(), help_text="The other's values in those cells."
    )


class SetterStallSerializer(serializers.Serializer):
    grid = serializers.CharField(
        help_text="The board where the logic stops: the givens and what the steps placed, one line."
    )
    placed = serializers.IntegerField(help_text="Values the steps placed before stopping.")
    empty = serializers.IntegerField(help_text="Cells still empty there.")


class SetterExportSerializer(serializers.Serializer):
    fpuzzles = serializers.DictField(
        help_text="The f-puzzles object (size, grid with givens and regions, diagonals, "
        "killercage and each constraint's own key); never a solution."
    )
    sudokupad_url = serializers.URLField(
        help_text="https://sudokupad.app/fpuzzles<lz-string compressToBase64 of the JSON>"
    )
    fpuzzles_url = serializers.URLField(
        help_text="https://www.f-puzzles.com/?load=<lz-string compressToBase64 of the JSON>"
    )
    solve_url = serializers.CharField(
        help_text="This site's Solve page with the puzzle loaded (/solve/?puzzle=<the same "
        "compressed text>), to check it or play it as a game."
    )


class SetterCheckSerializer(serializers.Serializer):
    grid = serializers.CharField(help_text="The givens checked, one line.")
    size = serializers.IntegerField()
    box_rows = serializers.IntegerField()
    box_cols = serializers.IntegerField()
    clues = serializers.IntegerField()
    variant = serializers.CharField()
    regions = serializers.ListField(child=serializers.IntegerField())
    diagonals = serializers.BooleanField()
    cages = serializers.ListField(child=serializers.DictField(), help_text='[{"cells", "sum"}]')
    constraints = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Present when the puzzle has some: one shape per type, as a game's puzzle.",
    )
    import_notes = serializers.ListField(
        child=serializers.CharField(), help_text="What an f-puzzles source had that was left out."
    )
    conflicts = SolverConflictSerializer(
        many=True, help_text="Clashing givens of a puzzle without variant rules."
    )
    contradiction = serializers.CharField(
        allow_null=True, help_text="Why the givens break the rules (then solutions is 0)."
    )
    solutions = serializers.IntegerField(help_text="0, 1, or 2 meaning two or more.")
    difference = SetterDifferenceSerializer(
        allow_null=True, help_text="With two or more solutions: where two of them differ."
    )
    level = serializers.CharField(
        allow_null=True, help_text="When unique: the level; master when the logic stalls."
    )
    hardest = serializers.CharField(allow_null=True, help_text="Slug of the hardest technique.")
    hardest_name = serializers.CharField(
        allow_null=True, help_text="Its name, in the language of Accept-Language."
    )
    solved_by_logic = serializers.BooleanField(allow_null=True)
    stall = SetterStallSerializer(
        allow_null=True, help_text="When unique and the logic stops short of the solution."
    )
    solution = serializers.CharField(
        allow_null=True, help_text="Only when unique and solve was true."
    )
    export = SetterExportSerializer(
        allow_null=True,
        help_text="The puzzle as it travels, once its givens break no rule (whatever its "
        "count; null above 16x16): f-puzzles JSON and the links that open it.",
    )
