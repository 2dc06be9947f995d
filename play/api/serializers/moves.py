"""Moves, hints and heartbeats on a game: what each sends and what it answers."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework import serializers

from sudokusite.fields import StrictBooleanField, StrictIntegerField, StrictUUIDField
from sudokusite.serializers import InputSerializer

from ...clock import gap_ms
from ...models import Game, MoveKind, Status
from .games import GameSerializer, HintSerializer


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
