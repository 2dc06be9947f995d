"""Serializers of the puzzle bank API. The player-facing ones never name the solution."""

from __future__ import annotations

from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from puzzles.bank import BANK_SIZES
from puzzles.daily import daily_sizes
from puzzles.models import Difficulty, Puzzle, PuzzlePack, Symmetry, Variant
from puzzles.packs import PACK_MAX_COUNT, PACK_SIZES
from puzzles.variants import rules_payload
from solver.rules.constraints import KINDS
from sudokusite.fields import StrictCharField, StrictIntegerField
from sudokusite.serializers import InputSerializer

_SIZES = ", ".join(str(size) for size in PACK_SIZES)
_LEVELS = ", ".join(Difficulty.values)
_NOT_TEXT = {"not_text": "A string is required."}

CONSTRAINT_KINDS_HELP = (
    "The type of each kind of constraint the puzzle has (thermometer, arrow...), each once, "
    "in the order they first appear; empty when none. A puzzle with any is never drawn by "
    "a level game, the daily puzzle or practice, and its games are not rated or ranked, "
    "whatever its variant."
)
LABEL_HELP = (
    "What the site calls the puzzle, in the caller's language: its rules (the variant "
    "unless classic, then the kinds of constraint, at most three names: 'Anti-Knight, "
    "Kropki +2'), its level and size: 'Hard 9×9', 'Killer, Arrow · Expert 9×9'."
)

PUZZLE_FIELDS = [
    "id",
    "size",
    "box_rows",
    "box_cols",
    "difficulty",
    "score",
    "givens",
    "clue_count",
    "symmetry",
]


class ConstraintSerializer(serializers.Serializer):
    """One constraint beyond houses and cages; ``type`` says which fields it has
    (docs/api.md lists one shape per type). Cells are indexes 0 to N*N-1, row by row."""

    type = serializers.ChoiceField(
        choices=list(KINDS),
        help_text="thermometer, palindrome, renban, whispers, region_sum, between, "
        "extra_region: cells (a line in order, a thermometer from its bulb). arrow: circle, "
        "line. kropki: colour (white: values differ by value; black: one is value times the "
        "other), cells (two neighbours), value. xv: cells, sum (10 or 5). odd, even: cell. "
        "little_killer: clue [row, column] outside the grid, direction (DR, DL, UR, UL), "
        "sum, cells. sandwich: line (row or column), index, sum. antiknight, antiking, "
        "nonconsecutive (orthogonal neighbours not consecutive, but across a white dot), "
        "black_dots_negative, xv_negative (every black dot / every X and V is given): no "
        "fields.",
    )
    cells = serializers.ListField(child=serializers.IntegerField(), required=False)
    cell = serializers.IntegerField(required=False)
    circle = serializers.ListField(child=serializers.IntegerField(), required=False)
    line = serializers.JSONField(required=False, help_text="arrow: cells; sandwich: row|column")
    colour = serializers.ChoiceField(choices=["white", "black"], required=False)
    value = serializers.IntegerField(required=False)
    sum = serializers.IntegerField(required=False)
    clue = serializers.ListField(child=serializers.IntegerField(), required=False)
    direction = serializers.ChoiceField(choices=["DR", "DL", "UR", "UL"], required=False)
    index = serializers.IntegerField(required=False)
    difference = serializers.IntegerField(required=False, help_text="whispers; default (N+1)//2")


class PuzzleSerializer(serializers.ModelSerializer):
    """A puzzle as players see it: the givens and rules, never the solution."""

    variant = serializers.CharField(read_only=True)
    regions = serializers.SerializerMethodField()
    diagonals = serializers.SerializerMethodField()
    cages = serializers.SerializerMethodField()
    constraints = serializers.SerializerMethodField()
    constraint_kinds = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text=CONSTRAINT_KINDS_HELP,
    )
    label = serializers.CharField(read_only=True, help_text=LABEL_HELP)

    class Meta:
        model = Puzzle
        fields = [
            *PUZZLE_FIELDS,
            "variant",
            "regions",
            "diagonals",
            "cages",
            "constraints",
            "constraint_kinds",
            "label",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_regions(self, puzzle: Puzzle) -> list[int]:
        """One region number per cell, row by row (the boxes, or Jigsaw's shapes)."""
        return rules_payload(puzzle)["regions"]

    @extend_schema_field(serializers.BooleanField())
    def get_diagonals(self, puzzle: Puzzle) -> bool:
        return bool(puzzle.rules.get("diagonals", False))

    @extend_schema_field(
        serializers.ListField(child=serializers.DictField(), help_text='[{"cells", "sum"}]')
    )
    def get_cages(self, puzzle: Puzzle) -> list[dict[str, Any]]:
        return list(puzzle.rules.get("cages", []))

    @extend_schema_field(
        ConstraintSerializer(
            many=True,
            help_text="Thermometers, arrows, dots, lines, outside clues and whole-grid "
            "rules, one shape per type as in a game's puzzle; empty when none.",
        )
    )
    def get_constraints(self, puzzle: Puzzle) -> list[dict[str, Any]]:
        if not puzzle.rules or not puzzle.rules.get("constraints"):
            return []
        return list(rules_payload(puzzle).get("constraints", []))


class DailyPuzzleSerializer(PuzzleSerializer):
    date = serializers.DateField(read_only=True)
    scheduled_level = serializers.CharField(
        read_only=True,
        help_text="The level the daily schedule names for this day (GET "
        "/api/v1/puzzles/daily/schedule/, or /daily/constrained/schedule/ for the daily "
        "puzzle with constraints); difficulty is the puzzle's own measured level, the same "
        "unless no puzzle of the scheduled level could be had.",
    )
    constrained = serializers.BooleanField(
        read_only=True,
        help_text="The daily puzzle with constraints (one a day, 9x9, beside the variants' "
        'dailies; start it with {"daily": true, "constrained": true}).',
    )
    rated = serializers.SerializerMethodField(
        help_text="Whether a signed-in player's first game of it can count for the boards "
        "and ratings: false for the daily puzzle with constraints, whose games are never "
        "rated or ranked."
    )

    class Meta(PuzzleSerializer.Meta):
        fields = [*PuzzleSerializer.Meta.fields, "date", "scheduled_level", "constrained", "rated"]
        read_only_fields = fields

    def get_rated(self, puzzle: Puzzle) -> bool:
        return not puzzle.constrained


class ConstraintDailyScheduleSerializer(serializers.Serializer):
    date = serializers.DateField()
    kind = serializers.CharField(help_text="The constraint type (thermometer, arrow...).")
    name = serializers.CharField(help_text="Its name, in the caller's language.")
    level = serializers.CharField(help_text="The level the day's puzzle is made at.")


class DailyScheduleSerializer(serializers.Serializer):
    variant = serializers.CharField()
    size = serializers.IntegerField()
    levels = serializers.DictField(
        child=serializers.CharField(), help_text="monday ... sunday: the daily's level."
    )


class PuzzleQuerySerializer(serializers.Serializer):
    """Filters of GET /puzzles/."""

    size = serializers.ChoiceField(choices=PACK_SIZES, required=False)
    difficulty = serializers.ChoiceField(choices=Difficulty.choices, required=False)
    pack = StrictIntegerField(required=False, min_value=1, help_text="A pack id.")


def _not_a_variant() -> str:
    return _('"{input}" is not a variant; use one of %(variants)s.') % {
        "variants": ", ".join(Variant.values)
    }


NOT_A_VARIANT = lazy(_not_a_variant, str)()
"""A bad ``variant``'s message (DRF fills in ``{input}``), in the reader's language."""


def variant_field(**kwargs: Any) -> serializers.ChoiceField:
    """A ``variant`` input (classic by default) whose error names the variants offered."""
    return serializers.ChoiceField(
        choices=Variant.choices,
        required=False,
        default=Variant.CLASSIC,
        error_messages={"invalid_choice": NOT_A_VARIANT},
        **kwargs,
    )


def daily_size_check(*, variant: str, size: int) -> None:
    """A 400 on ``size`` when ``variant`` has no daily puzzle of that size."""
    sizes = daily_sizes(variant)
    if size not in sizes:
        raise serializers.ValidationError(
            {
                "size": [
                    _("A %(variant)s daily puzzle is made at sizes %(sizes)s only.")
                    % {
                        "variant": Variant(variant).label,
                        "sizes": ", ".join(str(n) for n in sizes),
                    }
                ]
            }
        )


class DailyQuerySerializer(serializers.Serializer):
    size = serializers.ChoiceField(choices=BANK_SIZES, required=False, default=9)
    variant = variant_field(
        help_text="The variant's daily puzzle (classic by default): classic at 4, 6, 9 and "
        "16; diagonal, jigsaw and killer at 6 and 9."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        daily_size_check(variant=attrs["variant"], size=attrs["size"])
        return attrs


class DailiesQuerySerializer(serializers.Serializer):
    size = serializers.ChoiceField(
        choices=BANK_SIZES, required=False, help_text="Only the daily puzzles of this size."
    )


class PackSerializer(serializers.ModelSerializer):
    made = serializers.IntegerField(read_only=True, help_text="Puzzles made so far.")
    progress = serializers.SerializerMethodField(help_text="Percent done, 0 to 100.")
    requested_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = PuzzlePack
        fields = [
            "id",
            "name",
            "size",
            "box_rows",
            "box_cols",
            "difficulty",
            "symmetry",
            "variant",
            "technique",
            "count",
            "made",
            "progress",
            "status",
            "error",
            "seed",
            "chunk_size",
            "requested_by",
            "created",
            "started",
            "finished",
        ]
        read_only_fields = fields

    def get_progress(self, pack: PuzzlePack) -> float:
        made = getattr(pack, "made", None)
        if made is None:
            made = pack.entries.count()
        return round(100 * made / pack.count, 1) if pack.count else 0.0


class PackCreateSerializer(InputSerializer):
    """A pack request. The schema lists the sizes, levels and count range; whether a size
    is made at a level is checked by the service (400 ``invalid_difficulty``)."""

    name = StrictCharField(max_length=100, error_messages=_NOT_TEXT)
    size = serializers.ChoiceField(
        choices=PACK_SIZES,
        error_messages={"invalid_choice": f"{{input}} is not offered; use one of {_SIZES}."},
    )
    difficulty = serializers.ChoiceField(
        choices=Difficulty.choices,
        error_messages={"invalid_choice": f"{{input}} is not a level; use one of {_LEVELS}."},
    )
    count = StrictIntegerField(
        min_value=1,
        max_value=PACK_MAX_COUNT,
        error_messages={
            "min_value": f"Ask for 1 to {PACK_MAX_COUNT:,} puzzles.",
            "max_value": f"Ask for 1 to {PACK_MAX_COUNT:,} puzzles.",
        },
    )
    symmetry = serializers.ChoiceField(
        choices=Symmetry.choices, required=False, default=Symmetry.NONE
    )
    variant = serializers.ChoiceField(
        choices=Variant.choices,
        required=False,
        default=Variant.CLASSIC,
        help_text="Diagonal, Jigsaw or Killer puzzles (4, 6, 8 or 9; easy to hard, Killer "
        "expert too).",
    )
    technique = StrictCharField(
        max_length=40,
        required=False,
        allow_blank=True,
        default="",
        error_messages=_NOT_TEXT,
        help_text="A practice pack: every puzzle needs this technique (its slug).",
    )
    seed = StrictCharField(
        max_length=64,
        error_messages=_NOT_TEXT,
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text="Same seed, same puzzles (default, or empty: random).",
    )


class ExportQuerySerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=["txt", "sdm", "csv", "json"], default="txt")


class PuzzleExportSerializer(serializers.Serializer):
    """A puzzle as it travels: its f-puzzles object and the links that open it."""

    puzzle = serializers.IntegerField()
    variant = serializers.CharField()
    size = serializers.IntegerField()
    solution_included = serializers.BooleanField(
        help_text="True only when your finished game shows the solution and the puzzle is "
        "no daily or leaderboard puzzle in play (a link travels on)."
    )
    fpuzzles = serializers.DictField(
        help_text="The f-puzzles object (size, grid with givens and regions, diagonal+ and "
        "diagonal-, killercage, title; solution when solution_included)."
    )
    sudokupad_url = serializers.URLField(
        help_text="https://sudokupad.app/fpuzzles<lz-string compressToBase64 of the JSON>"
    )
    fpuzzles_url = serializers.URLField(
        help_text="https://www.f-puzzles.com/?load=<lz-string compressToBase64 of the JSON>"
    )
