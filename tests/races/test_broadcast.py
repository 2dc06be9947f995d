"""The broadcast after a race game's move: one publish, and never the move's failure."""

from __future__ import annotations

import pytest

from sudokusite import publish
from tests.play.factories import empty_cells, value_at
from tests.races.helpers import after_start, move, player, race_create


def test_the_direct_publish_uses_the_pubsub_layers_own_group_channel():
    from channels_redis.pubsub import RedisPubSubLoopLayer

    layer = RedisPubSubLoopLayer(hosts=["redis://127.0.0.1:6379/0"], prefix="site:channels")
    assert layer._get_group_channel_name("race-7") == publish.group_channel(
        "site:channels", "race-7"
    )


@pytest.mark.django_db
def test_a_race_move_still_lands_when_the_channel_layer_is_down(puzzle4, monkeypatch):
    host = player()
    code = race_create(host)["race"]["code"]
    host.post(f"/api/v1/races/{code}/start/")

    def down(*args, **kwargs):
        raise ConnectionError("the channel layer is down")

    monkeypatch.setattr(publish, "_publisher", down)
    monkeypatch.setattr(publish, "get_channel_layer", down)
    cell = empty_cells(puzzle4)[0]
    with after_start(code):
        game = host.get(f"/api/v1/races/{code}/").json()["you"]["game"]
        response = move(host, game, cell, value_at(puzzle4, cell))
    assert response.status_code == 200
    assert response.json()["correct"] is True
