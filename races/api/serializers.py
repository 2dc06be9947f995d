"""The race endpoints' bodies. The race itself is ``races.selectors.race_state``, the same
object the socket sends (races/schemas.py); these serializers describe it for the schema."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from puzzles.models import Difficulty, Variant
from puzzles.packs import PACK_SIZES
from sudokusite.fields import StrictIntegerField
from sudokusite.serializers import InputSerializer

from ..models import Outcome, RaceStatus


class RaceCreateInputSerializer(InputSerializer):
    size = serializers.ChoiceField(choices=PACK_SIZES, required=False, default=9)
    difficulty = serializers.ChoiceField(choices=Difficulty.choices, required=False)
    daily = serializers.BooleanField(required=False, default=False)
    variant = serializers.ChoiceField(
        choices=Variant.choices,
        required=False,
        default="classic",
        help_text="The rules every racer's game is played under, as a game takes them; the "
        "difficulty must be one the variant is made at for the size.",
    )
    time_limit_minutes = StrictIntegerField(required=False, min_value=1, max_value=180, default=20)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("daily") == ("difficulty" in attrs):
            raise serializers.ValidationError(_("Send either a difficulty or daily: true."))
        return attrs


class RacerSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The racer's user id.")
    name = serializers.CharField()
    progress = serializers.IntegerField(help_text="Cells filled right so far (never which).")
    mistakes = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=Outcome.choices)
    place = serializers.IntegerField(allow_null=True)
    time_ms = serializers.IntegerField(allow_null=True)
    replay = serializers.CharField(allow_null=True, help_text="The shared replay, once over.")


class RaceSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="The race's key in its link /races/<code>/.")
    status = serializers.ChoiceField(choices=RaceStatus.choices)
    size = serializers.IntegerField()
    difficulty = serializers.CharField(help_text="Empty for a daily race.")
    daily = serializers.BooleanField()
    variant = serializers.CharField()
    host = serializers.CharField()
    capacity = serializers.IntegerField()
    time_limit_s = serializers.IntegerField()
    starts_in_ms = serializers.IntegerField(allow_null=True)
    ends_in_ms = serializers.IntegerField(allow_null=True)
    cells = serializers.IntegerField(allow_null=True)
    racers = RacerSerializer(many=True)


class YouSerializer(serializers.Serializer):
    player = serializers.IntegerField(allow_null=True)
    racer = serializers.BooleanField()
    host = serializers.BooleanField()
    game = serializers.IntegerField(
        allow_null=True, help_text="Your game of the race, once it has started."
    )


class RaceViewSerializer(serializers.Serializer):
    race = RaceSerializer()
    you = YouSerializer()
