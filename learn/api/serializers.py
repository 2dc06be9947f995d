from __future__ import annotations

from rest_framework import serializers


class TechniqueSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    level = serializers.CharField()
    sizes = serializers.ListField(
        child=serializers.IntegerField(), help_text="Board sizes it is practised on."
    )
    variant = serializers.CharField(
        help_text="The variant it is practised on: classic, or the variant whose rules it "
        "reads (killer for cage combinations, the 45 rule and cage-house interactions); "
        "constraints for a constraint's lesson (thermometer, arrow...), which has no practice."
    )
    explanation = serializers.CharField()
    lesson_url = serializers.CharField()


class FrequencySerializer(serializers.Serializer):
    size = serializers.IntegerField()
    level = serializers.CharField()
    puzzles = serializers.IntegerField(help_text="Puzzles of this size and level in the bank.")
    using = serializers.IntegerField(help_text="How many of them use the technique.")
    share = serializers.FloatField()


class TechniqueDetailSerializer(TechniqueSerializer):
    example = serializers.JSONField(
        allow_null=True,
        help_text="A real engine step: the puzzle (givens), the position before the step "
        "(values and candidates per cell) and the step (units, cells, placements, "
        "eliminations, sentence). A variant technique's example also has the puzzle's "
        "rules as a game's puzzle has them: variant, regions, diagonals and cages; a "
        "constraint lesson's its constraints too.",
    )
    frequency = FrequencySerializer(many=True)
