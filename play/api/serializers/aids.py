"""The player's solving aids: highlights and peer-note clearing."""

from __future__ import annotations

from rest_framework import serializers

from sudokusite.fields import StrictBooleanField
from sudokusite.serializers import InputSerializer


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
