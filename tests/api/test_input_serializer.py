"""InputSerializer.validated: the same answers as is_valid(raise_exception=True), from one
shared instance per class."""

from __future__ import annotations

import uuid

import pytest
from rest_framework import serializers

from play.api.serializers.moves import HintInputSerializer, MoveInputSerializer


def _is_valid(cls, data):
    checked = cls(data=data)
    try:
        checked.is_valid(raise_exception=True)
    except serializers.ValidationError as exc:
        return "error", exc.detail
    return "ok", dict(checked.validated_data)


def _validated(cls, data):
    try:
        return "ok", dict(cls.validated(data))
    except serializers.ValidationError as exc:
        return "error", exc.detail


MOVE_ID = str(uuid.uuid4())


@pytest.mark.parametrize(
    "data",
    [
        {"client_move_id": MOVE_ID, "cell": 4, "value": 7},
        {"client_move_id": MOVE_ID, "cell": 4, "value": 0, "kind": "note", "version": 3},
        {"client_move_id": MOVE_ID, "cell": 4, "value": 7, "score": 99},
        {"client_move_id": "not-a-uuid", "cell": True, "value": 3.5},
        {"cell": 4},
        {},
        [],
        "text",
        None,
    ],
)
def test_it_answers_as_is_valid_does(data):
    assert _validated(MoveInputSerializer, data) == _is_valid(MoveInputSerializer, data)


def test_one_instance_serves_every_body_without_carrying_one_into_the_next():
    first = MoveInputSerializer.validated({"client_move_id": MOVE_ID, "cell": 1, "value": 2})
    with pytest.raises(serializers.ValidationError):
        MoveInputSerializer.validated({"client_move_id": MOVE_ID, "cell": -1, "value": 2})
    second = MoveInputSerializer.validated(
        {"client_move_id": MOVE_ID, "cell": 5, "value": 0, "kind": "note"}
    )
    assert (first["cell"], first["kind"]) == (1, "value")
    assert (second["cell"], second["kind"]) == (5, "note")
    assert HintInputSerializer.validated({"level": 2}) == {"level": 2}
