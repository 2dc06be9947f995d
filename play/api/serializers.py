"""Game API serializers: input and output kept apart; the solution only once a game is over."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from puzzles.models import Difficulty
from puzzles.packs import PACK_SIZES
from sudokusite.fields import StrictCharField, StrictIntegerField, StrictUUIDField
from sudokusite.serializers import InputSerializer

from ..models import FINISHED, Game, MoveKind, Status
from ..selectors import PERIODS
from ..services import pending_hint

# --- Input -------------------------------------------------------------------------


class GameCreateInputSerializer(InputSerializer):
    difficulty = serializers.ChoiceField(choices=Difficulty.choices, required=False)
    size = serializers.ChoiceField(
        choices=PACK_SIZES,
        required=False,
        help_text="The grid's side: a size the bank holds puzzles of (a daily puzzle is "
        "made at 4, 6, 9 and 16).",
    )
    puzzle = StrictIntegerField(required=False, min_value=1)
    daily = serializers.BooleanField(required=False, default=False)
    grid = StrictCharField(
        required=False,
        max_length=10_000,
        trim_whitespace=False,
        help_text="A puzzle of your own in any format the solver parses; it must have "
        "exactly one solution.",
    )
    mistake_limit = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=99, default=None
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        chosen = [
            name
            for name, present in (
                ("difficulty", "difficulty" in attrs),
                ("puzzle", "puzzle" in attrs),
                ("daily", attrs.get("daily")),
                ("grid", "grid" in attrs),
            )
            if present
        ]
        if len(chosen) != 1:
            raise serializers.ValidationError(
                _("Send exactly one of difficulty (with size), puzzle, grid, or daily: true.")
            )
        if ("puzzle" in attrs or "grid" in attrs) and "size" in attrs:
            raise serializers.ValidationError({"size": [_("A puzzle has its own size.")]})
        return attrs


class MoveInputSerializer(InputSerializer):
    client_move_id = StrictUUIDField(
        help_text="A UUID the client makes for this move; a retry sends the same one."
    )
    cell = StrictIntegerField(min_value=0, max_value=624, help_text="0 to N*N-1, row by row.")
    value = StrictIntegerField(
        min_value=0, max_value=25, help_text="1 to N; 0 clears the cell (or its notes)."
    )
    kind = serializers.ChoiceField(
        choices=[MoveKind.VALUE, MoveKind.NOTE],
        default=MoveKind.VALUE,
        help_text="value: place or clear; note: toggle that note (0 clears the cell's notes).",
    )
    version = StrictIntegerField(
        required=False, min_value=1, help_text="The version the client saw; stale → 409."
    )


class VersionInputSerializer(InputSerializer):
    version = StrictIntegerField(
        required=False, min_value=1, help_text="The version the client saw; stale → 409."
    )


class HintInputSerializer(VersionInputSerializer):
    level = StrictIntegerField(
        min_value=1,
        max_value=3,
        help_text="1: where to look; 2: the technique and why; 3: apply it.",
    )


class GameListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Status.choices, required=False)


class LeaderboardQuerySerializer(serializers.Serializer):
    difficulty = serializers.ChoiceField(choices=Difficulty.choices)
    size = serializers.ChoiceField(choices=PACK_SIZES, required=False, default=9)
    period = serializers.ChoiceField(choices=PERIODS, required=False, default="all")


# --- Output --------------------------------------------------------------------------


class GamePuzzleSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    size = serializers.IntegerField()
    box_rows = serializers.IntegerField()
    box_cols = serializers.IntegerField()
    givens = serializers.CharField(
        allow_null=True, help_text="Row by row, '.' empty; null while the game is paused."
    )
    difficulty = serializers.CharField()


class HintSerializer(serializers.Serializer):
    level = serializers.IntegerField()
    message = serializers.CharField()
    units = serializers.ListField(child=serializers.IntegerField())
    unit_names = serializers.ListField(child=serializers.CharField())
    cells = serializers.ListField(child=serializers.IntegerField())
    cell_names = serializers.ListField(child=serializers.CharField())
    technique = serializers.CharField(required=False, help_text="From level 2.")
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
    elapsed_ms = serializers.SerializerMethodField()
    clock_running = serializers.SerializerMethodField()
    can_undo = serializers.SerializerMethodField()
    can_redo = serializers.SerializerMethodField()
    hint = serializers.SerializerMethodField()
    solution = serializers.SerializerMethodField()
    mistake_cells = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = (
            "id",
            "puzzle",
            "entries",
            "notes",
            "status",
            "elapsed_ms",
            "clock_running",
            "mistakes",
            "mistake_cells",
            "mistake_limit",
            "hints_used",
            "hint",
            "score",
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
            "status": str(game.status),
            "elapsed_ms": self.get_elapsed_ms(game),
            "clock_running": self.get_clock_running(game),
            "mistakes": game.mistakes,
            "mistake_cells": self.get_mistake_cells(game),
            "mistake_limit": game.mistake_limit,
            "hints_used": game.hints_used,
            "hint": self.get_hint(game),
            "score": game.score,
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
        serializers.CharField(allow_null=True, help_text="Only once the game is over.")
    )
    def get_solution(self, game: Game) -> str | None:
        return game.puzzle.solution if game.status in FINISHED else None


class MoveOutputSerializer(serializers.Serializer):
    correct = serializers.BooleanField(
        allow_null=True, help_text="For a placed value: does it match the solution? Else null."
    )
    conflicts = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Cells in the same row, column or box that hold the same value.",
    )
    completed = serializers.BooleanField()
    replayed = serializers.BooleanField(
        help_text="True when this client_move_id was seen before: nothing was applied again."
    )
    game = GameSerializer()


class HintOutputSerializer(serializers.Serializer):
    hint = HintSerializer()
    game = GameSerializer()


class RecentSolveSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    finished = serializers.DateTimeField()
    elapsed_ms = serializers.IntegerField()
    score = serializers.IntegerField()


class StatsGroupSerializer(serializers.Serializer):
    size = serializers.IntegerField()
    difficulty = serializers.CharField()
    played = serializers.IntegerField()
    completed = serializers.IntegerField()
    best_time_ms = serializers.IntegerField(allow_null=True)
    average_time_ms = serializers.IntegerField(allow_null=True)
    best_score = serializers.IntegerField(allow_null=True)
    current_streak = serializers.IntegerField(help_text="Days in a row with a completed game.")
    longest_streak = serializers.IntegerField()
    recent = RecentSolveSerializer(many=True, help_text="The latest solves, oldest first.")


class StatsSerializer(serializers.Serializer):
    played = serializers.IntegerField()
    completed = serializers.IntegerField()
    current_streak = serializers.IntegerField()
    longest_streak = serializers.IntegerField()
    groups = StatsGroupSerializer(many=True)


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    best_score = serializers.IntegerField()
    best_time_ms = serializers.IntegerField()
    completed = serializers.IntegerField()
