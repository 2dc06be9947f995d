"""Starting a game: the one input that says which puzzle to play, and how."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from puzzles.api.serializers import NOT_A_VARIANT, daily_size_check
from puzzles.models import CONSTRAINED_DAILY_SIZE, Difficulty, Variant
from puzzles.packs import PACK_SIZES
from sudokusite.fields import StrictCharField, StrictIntegerField
from sudokusite.serializers import InputSerializer


class GameCreateInputSerializer(InputSerializer):
    difficulty = serializers.ChoiceField(choices=Difficulty.choices, required=False)
    level = serializers.ChoiceField(
        choices=[*Difficulty.values, "mine"],
        required=False,
        help_text='A grader level (as difficulty), or "mine": an unplayed puzzle of the '
        "variant and size rated near your rating of them (signed-in players only).",
    )
    size = serializers.ChoiceField(
        choices=PACK_SIZES,
        required=False,
        help_text="The grid's side: a size the bank holds puzzles of (a daily puzzle is "
        "made at 4, 6, 9 and 16).",
    )
    puzzle = StrictIntegerField(required=False, min_value=1)
    daily = serializers.BooleanField(required=False, default=False)
    constrained = serializers.BooleanField(
        required=False,
        default=False,
        help_text="With daily: the daily puzzle with constraints (9x9, never rated) instead "
        "of a variant's.",
    )
    grid = StrictCharField(
        required=False,
        max_length=10_000,
        trim_whitespace=False,
        visible=False,  # not a label: the solver's parser judges it
        help_text="A puzzle of your own in any format the solver parses; it must have "
        "exactly one solution.",
    )
    fpuzzles = serializers.JSONField(
        required=False,
        help_text="A puzzle shared from f-puzzles or SudokuPad: its JSON object (size, grid "
        "with given values and regions, diagonal+ and diagonal-, killercage or cage), its "
        "JSON text, its lz-string compressToBase64 text, or a whole SudokuPad or f-puzzles "
        "link. It must have exactly one solution; it is your own puzzle, like a typed-in grid.",
    )
    variant = serializers.ChoiceField(
        choices=Variant.choices,
        required=False,
        error_messages={"invalid_choice": NOT_A_VARIANT},
        help_text="With difficulty or level: the rules of the puzzle to pick (classic by "
        "default). With daily: that variant's daily puzzle (diagonal, jigsaw and killer at "
        "sizes 6 and 9). With technique: the variant it is practised on (a Killer "
        "technique's game is a Killer puzzle whether or not this is sent).",
    )
    mistake_limit = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=99, default=None
    )
    technique = StrictCharField(
        required=False,
        max_length=40,
        help_text="A practice game: a puzzle you have not played that needs this technique "
        "(a slug from /api/v1/techniques/), 9x9 unless size says otherwise.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("constrained"):
            _constrained_daily_check(attrs)
        if attrs.get("level", "mine") != "mine" and "difficulty" not in attrs:
            attrs["difficulty"] = attrs.pop("level")  # a grader level: as difficulty
        chosen = [
            name
            for name, present in (
                ("difficulty", "difficulty" in attrs),
                ("level", "level" in attrs),
                ("technique", "technique" in attrs),
                ("puzzle", "puzzle" in attrs),
                ("daily", attrs.get("daily")),
                ("grid", "grid" in attrs),
                ("fpuzzles", "fpuzzles" in attrs),
            )
            if present
        ]
        if len(chosen) != 1:
            raise serializers.ValidationError(
                _(
                    "Send exactly one of difficulty or level (with size), technique (with "
                    "size), puzzle, grid, fpuzzles, or daily: true."
                )
            )
        if ("puzzle" in attrs or "grid" in attrs or "fpuzzles" in attrs) and "size" in attrs:
            raise serializers.ValidationError({"size": [_("A puzzle has its own size.")]})
        # A practice game checks the variant against its technique.
        picks = "difficulty" in attrs or "level" in attrs or "technique" in attrs
        variant = attrs.get("variant", Variant.CLASSIC)
        if attrs.get("daily") and not attrs.get("constrained"):
            daily_size_check(variant=variant, size=attrs.get("size", 9))
        elif variant != Variant.CLASSIC and not picks:
            raise serializers.ValidationError(
                {
                    "variant": [
                        _(
                            "A variant is chosen with a difficulty or level (and a size), or "
                            "with daily: true."
                        )
                    ]
                }
            )
        return attrs


def _constrained_daily_check(attrs: dict[str, Any]) -> None:
    """A 400 naming the field when ``constrained`` comes without daily, or with a size or
    variant of its own: the daily puzzle with constraints is one 9x9 of the day."""
    if not attrs.get("daily"):
        raise serializers.ValidationError(
            {
                "constrained": [
                    _("constrained goes with daily: true (the daily puzzle with constraints).")
                ]
            }
        )
    if attrs.get("size", CONSTRAINED_DAILY_SIZE) != CONSTRAINED_DAILY_SIZE:
        raise serializers.ValidationError(
            {"size": [_("The daily puzzle with constraints is a 9×9.")]}
        )
    if "variant" in attrs:
        raise serializers.ValidationError(
            {
                "variant": [
                    _("The daily puzzle with constraints has its own rules: send no variant.")
                ]
            }
        )
