"""A game as its player sees it, alone or in their list: no solution until it is over."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from puzzles.api.serializers import CONSTRAINT_KINDS_HELP, LABEL_HELP, ConstraintSerializer
from puzzles.models import Variant
from puzzles.variants import rules_payload
from ratings.selectors import game_rating

from ...disclosure import game_solution_visible
from ...hints import pending_hint
from ...models import FINISHED, Game, Status
from .scores import GameRatingSerializer, UnrankedReasonSerializer, unranked_reason


class GameListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Status.choices, required=False)


class CageSerializer(serializers.Serializer):
    cells = serializers.ListField(
        child=serializers.IntegerField(), help_text="Cell indexes (0 to N*N-1, row by row)."
    )
    sum = serializers.IntegerField(
        allow_null=True, help_text="What its values add up to (null: no sum, no repeats only)."
    )


class PuzzleRulesSerializer(serializers.Serializer):
    """The rules a client draws and checks clashes by; later rules add fields beside."""

    variant = serializers.ChoiceField(choices=Variant.choices)
    regions = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="One region number (0 to N-1) per cell, row by row: the boxes, or Jigsaw's "
        "irregular shapes. Each region holds every value once.",
    )
    diagonals = serializers.BooleanField(
        help_text="True when both main diagonals hold every value once (Diagonal)."
    )
    cages = CageSerializer(
        many=True,
        help_text="Killer cages: no value repeats in a cage and its values add up to its "
        "sum. Empty when none.",
    )
    constraints = ConstraintSerializer(
        many=True,
        required=False,
        help_text="Thermometers, arrows, dots, lines, outside clues and whole-grid rules; "
        "present only when the puzzle has some.",
    )


class GamePuzzleSerializer(PuzzleRulesSerializer):
    id = serializers.IntegerField()
    size = serializers.IntegerField()
    box_rows = serializers.IntegerField()
    box_cols = serializers.IntegerField()
    givens = serializers.CharField(
        allow_null=True, help_text="Row by row, '.' empty; null while the game is paused."
    )
    difficulty = serializers.CharField()
    constraint_kinds = serializers.ListField(
        child=serializers.CharField(), help_text=CONSTRAINT_KINDS_HELP
    )
    label = serializers.CharField(help_text=LABEL_HELP)


class HintSerializer(serializers.Serializer):
    level = serializers.IntegerField()
    message = serializers.CharField()
    units = serializers.ListField(child=serializers.IntegerField())
    unit_names = serializers.ListField(child=serializers.CharField())
    cells = serializers.ListField(child=serializers.IntegerField())
    cell_names = serializers.ListField(child=serializers.CharField())
    technique = serializers.CharField(required=False, help_text="From level 2.")
    lesson_url = serializers.CharField(
        required=False, allow_null=True, help_text="From level 2: the technique's lesson page."
    )
    name = serializers.CharField(required=False, help_text="From level 2.")
    placements = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="Level 3: applied."
    )
    eliminations = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="Level 3: applied."
    )


_DATETIME = serializers.DateTimeField()


class GameSerializer(serializers.ModelSerializer):
    """A game as its player sees it: no board while paused, no solution until it is over."""

    puzzle = serializers.SerializerMethodField()
    entries = serializers.SerializerMethodField()
    notes = serializers.SerializerMethodField()
    corners = serializers.SerializerMethodField()
    colours = serializers.SerializerMethodField()
    elapsed_ms = serializers.SerializerMethodField()
    clock_running = serializers.SerializerMethodField()
    can_undo = serializers.SerializerMethodField()
    can_redo = serializers.SerializerMethodField()
    hint = serializers.SerializerMethodField()
    solution = serializers.SerializerMethodField()
    mistake_cells = serializers.SerializerMethodField()
    rating = serializers.SerializerMethodField()
    counts = serializers.SerializerMethodField()
    unranked_reason = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = (
            "id",
            "puzzle",
            "entries",
            "notes",
            "corners",
            "colours",
            "status",
            "elapsed_ms",
            "clock_running",
            "mistakes",
            "mistake_cells",
            "mistake_limit",
            "hints_used",
            "hint",
            "score",
            "rating",
            "counts",
            "unranked_reason",
            "version",
            "can_undo",
            "can_redo",
            "solution",
            "created",
            "updated",
            "finished",
        )
        read_only_fields = fields
        extra_kwargs = {
            "hints_used": {
                "help_text": "Hint stages paid for, not hints: one hint taken to level 3 "
                "counts 3. The score loses 5% per stage."
            },
        }

    def to_representation(self, game: Game) -> dict[str, Any]:
        """The fields above, in order, built directly.

        DRF's generic path makes a ModelSerializer build its fields afresh for every game
        it shows (a tenth of a move's CPU time); the answer is the same (tested).
        """
        return {
            "id": game.pk,
            "puzzle": self.get_puzzle(game),
            "entries": self.get_entries(game),
            "notes": self.get_notes(game),
            "corners": self.get_corners(game),
            "colours": self.get_colours(game),
            "status": str(game.status),
            "elapsed_ms": self.get_elapsed_ms(game),
            "clock_running": self.get_clock_running(game),
            "mistakes": game.mistakes,
            "mistake_cells": self.get_mistake_cells(game),
            "mistake_limit": game.mistake_limit,
            "hints_used": game.hints_used,
            "hint": self.get_hint(game),
            "score": game.score,
            "rating": game_rating(game),
            "counts": self.get_counts(game),
            "unranked_reason": unranked_reason(game),
            "version": game.version,
            "can_undo": self.get_can_undo(game),
            "can_redo": self.get_can_redo(game),
            "solution": self.get_solution(game),
            "created": _DATETIME.to_representation(game.created),
            "updated": _DATETIME.to_representation(game.updated),
            "finished": _DATETIME.to_representation(game.finished),
        }

    def _hidden(self, game: Game) -> bool:
        return game.status == Status.PAUSED

    @extend_schema_field(GamePuzzleSerializer)
    def get_puzzle(self, game: Game) -> dict[str, Any]:
        p = game.puzzle
        return {
            "id": p.pk,
            "size": p.size,
            "box_rows": p.box_rows,
            "box_cols": p.box_cols,
            "givens": None if self._hidden(game) else p.givens,
            "difficulty": p.difficulty,
            "constraint_kinds": p.constraint_kinds,
            "label": p.label,
            **rules_payload(p),
        }

    @extend_schema_field(
        serializers.CharField(
            allow_null=True, help_text="The board row by row, '.' empty; null while paused."
        )
    )
    def get_entries(self, game: Game) -> str | None:
        return None if self._hidden(game) else game.entries

    @extend_schema_field(
        serializers.DictField(
            child=serializers.ListField(child=serializers.IntegerField()),
            allow_null=True,
            help_text='Cell (as a string) → values noted, e.g. {"12": [3, 7]}; null while paused.',
        )
    )
    def get_notes(self, game: Game) -> dict[str, list[int]] | None:
        return None if self._hidden(game) else game.notes

    @extend_schema_field(
        serializers.DictField(
            child=serializers.ListField(child=serializers.IntegerField()),
            allow_null=True,
            help_text="Cell (as a string) → corner marks, as notes; null while paused.",
        )
    )
    def get_corners(self, game: Game) -> dict[str, list[int]] | None:
        return None if self._hidden(game) else game.corners

    @extend_schema_field(
        serializers.DictField(
            child=serializers.ListField(child=serializers.IntegerField()),
            allow_null=True,
            help_text="Cell (as a string) → colours 1 to 9 (the page's palette); null "
            "while paused.",
        )
    )
    def get_colours(self, game: Game) -> dict[str, list[int]] | None:
        return None if self._hidden(game) else game.colours

    @extend_schema_field(OpenApiTypes.INT)
    def get_elapsed_ms(self, game: Game) -> int:
        return game.elapsed_at(timezone.now())

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_clock_running(self, game: Game) -> bool:
        return game.running_since is not None

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_can_undo(self, game: Game) -> bool:
        return game.status == Status.IN_PROGRESS and game.undo_depth > 0

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_can_redo(self, game: Game) -> bool:
        return game.status == Status.IN_PROGRESS and game.redo_depth > 0

    @extend_schema_field(HintSerializer(allow_null=True))
    def get_hint(self, game: Game) -> dict[str, Any] | None:
        if game.status != Status.IN_PROGRESS:
            return None
        return pending_hint(game)

    @extend_schema_field(
        serializers.ListField(
            child=serializers.IntegerField(),
            allow_null=True,
            help_text="Cells whose value the server judged wrong (each was already answered "
            "correct: false when placed); null while paused.",
        )
    )
    def get_mistake_cells(self, game: Game) -> list[int] | None:
        if self._hidden(game):
            return None
        solution = game.puzzle.solution
        return [c for c, ch in enumerate(game.entries) if ch != "." and ch != solution[c]]

    @extend_schema_field(
        GameRatingSerializer(
            allow_null=True,
            help_text="The puzzle's rating and, after a ranked finish, both sides' change; "
            "null in a move's answer while the game goes on (GET the game for it).",
        )
    )
    def get_rating(self, game: Game) -> dict[str, Any] | None:
        return game_rating(game)

    @extend_schema_field(
        serializers.BooleanField(
            allow_null=True,
            help_text="Whether the finished game counts for the boards and ratings "
            "(docs/integrity.md); null while it is unfinished.",
        )
    )
    def get_counts(self, game: Game) -> bool | None:
        return game.counts if game.is_finished else None

    @extend_schema_field(
        UnrankedReasonSerializer(
            allow_null=True,
            help_text="Why a finished game does not count; null while it is unfinished "
            "and when it counts.",
        )
    )
    def get_unranked_reason(self, game: Game) -> dict[str, str] | None:
        return unranked_reason(game)

    @extend_schema_field(
        serializers.CharField(
            allow_null=True,
            help_text="Once the game is completed; after a give-up, once the daily or "
            "leaderboard period of the puzzle is over (see docs/integrity.md).",
        )
    )
    def get_solution(self, game: Game) -> str | None:
        return game.puzzle.solution if game_solution_visible(game) else None


class GameListSerializer(GameSerializer):
    """A game in the list: a finished one links to its replay."""

    replay_url = serializers.SerializerMethodField()

    class Meta(GameSerializer.Meta):
        fields = (*GameSerializer.Meta.fields, "replay_url")
        read_only_fields = fields

    def to_representation(self, game: Game) -> dict[str, Any]:
        return {**super().to_representation(game), "replay_url": self.get_replay_url(game)}

    @extend_schema_field(
        serializers.CharField(allow_null=True, help_text="The replay page, once it is over.")
    )
    def get_replay_url(self, game: Game) -> str | None:
        return reverse("replays:replay", args=[game.pk]) if game.status in FINISHED else None
