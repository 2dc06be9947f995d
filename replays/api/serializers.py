"""Replay API serializers: the query and share inputs, and the replay as one payload."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from play.disclosure import game_disclosure
from play.models import Game
from puzzles.variants import rules_payload
from sudokusite.fields import StrictIntegerField
from sudokusite.serializers import InputSerializer

from ..selectors import analysis_of, analysis_skipped, share_of
from ..timeline import Position

SPEEDS = (1, 4, 16)


class ReplayQuerySerializer(serializers.Serializer):
    speed = serializers.ChoiceField(
        choices=SPEEDS, required=False, help_text="Playback speed the page starts at."
    )
    position = StrictIntegerField(
        required=False,
        min_value=0,
        help_text="An event's seq: the answer adds the board and notes right after it.",
    )


class ShareInputSerializer(InputSerializer):
    show_username = serializers.BooleanField(required=False, default=False)


class ShareSerializer(serializers.Serializer):
    shared = serializers.BooleanField()
    url = serializers.CharField(allow_null=True, help_text="The public link, /r/<token>/.")
    show_username = serializers.BooleanField()


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField(
        help_text="value, note, hint (applied), hint_reveal, undo, redo, auto_notes, "
        "restart, pause, resume or abandon."
    )
    cell = serializers.IntegerField(allow_null=True)
    value = serializers.IntegerField()
    correct = serializers.BooleanField(allow_null=True)
    changes = serializers.DictField(
        help_text="entries [[cell, before, after]]; notes, corners (corner marks) and "
        "colours likewise."
    )
    elapsed_ms = serializers.IntegerField(help_text="Game time after it, paused time excluded.")
    wall_ms = serializers.IntegerField(help_text="Wall time since the game started.")


def _analysis_status(analysis: Any) -> str:
    return "pending" if analysis is None else "ready"


class AnalysisSerializer(serializers.Serializer):
    status = serializers.CharField(
        help_text="pending until the analysis is stored, then ready (under the puzzle's "
        "rules: a variant's techniques for a variant puzzle); held (data null) "
        "on a shared replay while the puzzle's solution is held (play/disclosure.py); skipped "
        "(data null) when the player ended more games than ANALYSES_PER_HOUR."
    )
    data = serializers.DictField(allow_null=True, help_text="placements and summary.")


class ReplaySerializer(serializers.Serializer):
    """The documented shape of ``replay_payload``."""

    game = serializers.DictField()
    puzzle = serializers.DictField(
        help_text="givens and solution, row by row, '.' empty; solution null while it is "
        "held (a give-up of a daily or leaderboard puzzle, until its period ends)."
    )
    player = serializers.CharField(allow_null=True)
    events = EventSerializer(many=True)
    analysis = AnalysisSerializer()
    share = ShareSerializer(required=False, help_text="The owner's only.")
    speed = serializers.IntegerField()
    position = serializers.DictField(required=False)


EVENT_KEYS = tuple(EventSerializer().fields)


def _event(event: dict[str, Any], *, correctness: bool) -> dict[str, Any]:
    out = {k: event[k] for k in EVENT_KEYS}
    if not correctness:
        out["correct"] = None
    return out


def share_payload(game: Game) -> dict[str, Any]:
    share = share_of(game)
    if share is None:
        return {"shared": False, "url": None, "show_username": False}
    return {
        "shared": True,
        "url": reverse("replays:shared", args=[share.token]),
        "show_username": share.show_username,
    }


def replay_payload(
    game: Game,
    events: list[dict[str, Any]],
    *,
    owner: bool,
    speed: int = 1,
    position: int | None = None,
) -> dict[str, Any]:
    """Everything the replay page needs; only ever built for a finished game. What it
    shows of the solution is play.disclosure's to decide (``owner``: the game's player)."""
    assert game.is_finished, "a replay holds the solution: finished games only"
    puzzle = game.puzzle
    shown = game_disclosure(game, player=owner)
    analysis = analysis_of(game) if shown.correctness else None
    analysis_status = _analysis_status(analysis)
    if analysis_skipped(analysis):
        analysis, analysis_status = None, "skipped"
    if not shown.correctness:
        analysis_status = "held"
    share = share_of(game)
    player = None
    if game.user is not None and (owner or (share is not None and share.show_username)):
        player = game.user.get_username()
    out: dict[str, Any] = {
        "game": {
            "id": game.pk if owner else None,
            "status": str(game.status),
            "elapsed_ms": game.elapsed_ms,
            "mistakes": game.mistakes,
            "hints_used": game.hints_used,
            "score": game.score,
            "created": serializers.DateTimeField().to_representation(game.created),
            "finished": serializers.DateTimeField().to_representation(game.finished),
        },
        "puzzle": {
            "id": puzzle.pk,
            "size": puzzle.size,
            "box_rows": puzzle.box_rows,
            "box_cols": puzzle.box_cols,
            "difficulty": puzzle.difficulty,
            "givens": puzzle.givens,
            "solution": puzzle.solution if shown.solution else None,
            "constraint_kinds": puzzle.constraint_kinds,
            "label": puzzle.label,
            **rules_payload(puzzle),
        },
        "player": player,
        "events": [_event(e, correctness=shown.correctness) for e in events],
        "analysis": {"status": analysis_status, "data": analysis},
        "speed": speed,
    }
    if owner:
        out["share"] = share_payload(game)
    if position is not None:
        board = Position.start(puzzle.givens)
        for e in events:
            if e["seq"] > position:
                break
            board.apply(e["changes"])
        out["position"] = {
            "seq": position,
            "entries": board.line,
            "notes": board.notes,
            "corners": board.corners,
            "colours": board.colours,
        }
    return out
