"""Game API serializers: input and output kept apart; the solution only once a game is over."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from integrity.gate import MESSAGES
from puzzles.api.serializers import (
    CONSTRAINT_KINDS_HELP,
    LABEL_HELP,
    NOT_A_VARIANT,
    ConstraintSerializer,
    daily_size_check,
)
from puzzles.models import Difficulty, Variant
from puzzles.packs import PACK_SIZES
from puzzles.variants import rules_payload
from ratings.selectors import game_rating
from sudokusite.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictUUIDField,
)
from sudokusite.serializers import InputSerializer

from ..clock import gap_ms
from ..disclosure import game_solution_visible
from ..hints import pending_hint
from ..models import FINISHED, Game, MoveKind, Status
from ..selectors import PERIODS

# --- Input -------------------------------------------------------------------------


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
        if attrs.get("daily"):
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


class MoveInputSerializer(InputSerializer):
    client_move_id = StrictUUIDField(
        help_text="A UUID the client makes for this move; a retry sends the same one."
    )
    cell = StrictIntegerField(min_value=0, max_value=624, help_text="0 to N*N-1, row by row.")
    value = StrictIntegerField(
        min_value=0, max_value=25, help_text="1 to N; 0 clears the cell (or its notes)."
    )
    kind = serializers.ChoiceField(
        choices=[MoveKind.VALUE, MoveKind.NOTE, MoveKind.CORNER, MoveKind.COLOUR],
        default=MoveKind.VALUE,
        help_text="value: place or clear; note: toggle that (centre) note; corner: toggle "
        "that corner mark (0 clears the cell's notes, or its corner marks); colour: toggle "
        "colour 1 to 9 of any cell, a given too (0 clears its colours).",
    )
    clear_peer_notes = StrictBooleanField(
        default=True,
        help_text="A value move only: take the placed value out of its peers' notes "
        "(true unless the player turned that aid off).",
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
    board = serializers.ChoiceField(
        choices=["score", "rating"],
        required=False,
        default="score",
        help_text="score: best scores at a level (needs difficulty); rating: established "
        "Glicko-2 ratings at a variant and size.",
    )
    difficulty = serializers.ChoiceField(choices=Difficulty.choices, required=False)
    size = serializers.ChoiceField(choices=PACK_SIZES, required=False, default=9)
    variant = serializers.ChoiceField(
        choices=Variant.choices,
        required=False,
        default=Variant.CLASSIC,
        help_text="The variant's board only (classic by default): its puzzles' best scores, "
        "or its ratings.",
    )
    period = serializers.ChoiceField(choices=PERIODS, required=False, default="all")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["board"] == "score" and "difficulty" not in attrs:
            raise serializers.ValidationError({"difficulty": [_("This field is required.")]})
        return attrs


# --- Output --------------------------------------------------------------------------


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


class RatingChangeSerializer(serializers.Serializer):
    outcome = serializers.FloatField(help_text="The game's result for the player, 0 to 1.")
    player_before = serializers.IntegerField()
    player_after = serializers.IntegerField()
    player_delta = serializers.IntegerField()
    puzzle_before = serializers.IntegerField()
    puzzle_after = serializers.IntegerField()
    puzzle_delta = serializers.IntegerField()
    reversed = serializers.BooleanField(
        help_text="Taken back, both sides, by a hold on the player (docs/integrity.md)."
    )


class GameRatingSerializer(serializers.Serializer):
    puzzle = serializers.IntegerField(allow_null=True, help_text="The puzzle's rating.")
    puzzle_deviation = serializers.IntegerField(allow_null=True)
    change = RatingChangeSerializer(
        allow_null=True, help_text="Both sides' change, after a ranked finish (else null)."
    )


class UnrankedReasonSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=sorted(MESSAGES),
        help_text="Stable: guest, typed_in, practice_only, constrained, replayed_puzzle, "
        "race_not_played, "
        "player_held, flagged, too_fast_to_review, provisional.",
    )
    message = serializers.CharField(help_text="One line for the player, in their language.")


def unranked_reason(game: Game) -> dict[str, str] | None:
    """Why a finished game does not count, from what the gate stored (no query)."""
    if game.counts is not False or game.standing not in MESSAGES:
        return None
    return {"code": game.standing, "message": str(MESSAGES[game.standing])}


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


class MoveOutputSerializer(serializers.Serializer):
    correct = serializers.BooleanField(
        allow_null=True, help_text="For a placed value: does it match the solution? Else null."
    )
    conflicts = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Cells that share a house (row, column, region, diagonal) or a cage with "
        "it and hold the same value.",
    )
    completed = serializers.BooleanField()
    replayed = serializers.BooleanField(
        help_text="True when this client_move_id was seen before: nothing was applied again."
    )
    game = GameSerializer()


class HeartbeatSerializer(serializers.Serializer):
    """What a heartbeat answers: the clock and enough to tell whether the game changed."""

    status = serializers.ChoiceField(choices=Status.choices)
    version = serializers.IntegerField(
        help_text="Another version than the one you hold: the game changed elsewhere."
    )
    elapsed_ms = serializers.IntegerField(help_text="The clock now, by the server's rule.")
    clock_running = serializers.BooleanField()
    clock_gap_ms = serializers.IntegerField(
        help_text="The most a stretch between two signs of life adds to the clock; send a "
        "heartbeat well within it (the game page sends one every third of it)."
    )

    def to_representation(self, game: Game) -> dict[str, Any]:
        return {
            "status": str(game.status),
            "version": game.version,
            "elapsed_ms": game.elapsed_at(timezone.now()),
            "clock_running": game.running_since is not None,
            "clock_gap_ms": gap_ms(),
        }


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


class RatingPointSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    at = serializers.DateTimeField()
    rating = serializers.IntegerField(help_text="The rating after this game.")
    deviation = serializers.IntegerField()


class PlayerRatingSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(
        choices=Variant.choices, help_text="A rating is per variant and size."
    )
    size = serializers.IntegerField()
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField(help_text="As of the last rated game.")
    games = serializers.IntegerField(help_text="Rated games at this variant and size.")
    provisional = serializers.BooleanField(
        help_text="Not yet on the rating board (too few games or too wide a deviation)."
    )
    history = RatingPointSerializer(many=True, help_text="The latest rated games, oldest first.")
    start = serializers.IntegerField(help_text="The rating before the oldest game of history.")


class PracticeProgressSerializer(serializers.Serializer):
    technique = serializers.CharField()
    solved = serializers.IntegerField(help_text="Practice games of it completed.")
    solved_without_hint = serializers.IntegerField()


class PlayerStandingSerializer(serializers.Serializer):
    provisional = serializers.BooleanField(
        help_text="A new player: your games count for boards and ratings once the review "
        "has judged `needed_games` of them long enough to judge (docs/integrity.md)."
    )
    waiting_games = serializers.IntegerField(
        help_text="Your finished games waiting for that (they count then, in order)."
    )
    needed_games = serializers.IntegerField()


class StatsSerializer(serializers.Serializer):
    standing = PlayerStandingSerializer(required=False)
    played = serializers.IntegerField()
    completed = serializers.IntegerField()
    current_streak = serializers.IntegerField()
    longest_streak = serializers.IntegerField()
    groups = StatsGroupSerializer(many=True)
    ratings = PlayerRatingSerializer(
        many=True, help_text="Your rating per variant and size played ranked, classic first."
    )
    practice = PracticeProgressSerializer(many=True, required=False)


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    best_score = serializers.IntegerField(required=False, help_text="Score boards.")
    best_time_ms = serializers.IntegerField(required=False, help_text="Score boards.")
    completed = serializers.IntegerField(required=False, help_text="Score boards.")
    rating = serializers.IntegerField(required=False, help_text="The rating board.")
    deviation = serializers.IntegerField(required=False, help_text="The rating board.")
    games = serializers.IntegerField(required=False, help_text="The rating board.")


class AidSettingsSerializer(serializers.Serializer):
    highlight_same = serializers.BooleanField(help_text="Cells holding the selected value.")
    highlight_peers = serializers.BooleanField(
        help_text="The selected cell's row, column and box (its houses, in a variant)."
    )
    clear_peer_notes = serializers.BooleanField(
        help_text="Placing a value takes it out of its peers' notes (the page sends it "
        "with each move as the move's clear_peer_notes)."
    )


class AidSettingsInputSerializer(InputSerializer):
    """Any of the aids, each true or false; those left out stay as they are."""

    highlight_same = StrictBooleanField(required=False)
    highlight_peers = StrictBooleanField(required=False)
    clear_peer_notes = StrictBooleanField(required=False)
