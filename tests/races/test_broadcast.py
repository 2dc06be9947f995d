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


@pytest.mark.redis
def test_the_publisher_reaches_subscribers_and_outlives_a_dropped_connection(settings):
    import redis
    from channels_redis.pubsub import RedisPubSubChannelLayer

    layer = RedisPubSubChannelLayer(hosts=[settings.REDIS_URL], prefix="test-publish")
    publisher = publish._Publisher(settings.REDIS_URL, layer, "test-publish")
    watcher = redis.Redis.from_url(settings.REDIS_URL).pubsub()
    watcher.subscribe(publish.group_channel("test-publish", "race-1"))
    assert watcher.get_message(timeout=5)["type"] == "subscribe"

    def received() -> dict:
        message = watcher.get_message(timeout=5)
        assert message is not None and message["type"] == "message"
        return layer.deserialize(message["data"])

    publisher.publish("race-1", {"type": "race.message", "text": "one"})
    assert received()["text"] == "one"
    # Redis drops the publisher's connection (a restart, a timeout): an update may be lost
    # with it, and the next is sent again on a new connection.
    admin = redis.Redis.from_url(settings.REDIS_URL)
    mine = [c for c in admin.client_list() if c["name"] == "test-publish:publisher"]
    assert len(mine) == 1 and "cmd=publish" in f"cmd={mine[0]['cmd']}"
    admin.client_kill_filter(_id=mine[0]["id"])
    for text in ("two", "three"):
        publisher.publish("race-1", {"type": "race.message", "text": text})
    texts = []
    while "three" not in texts:
        texts.append(received()["text"])
    assert texts in (["two", "three"], ["three"])
    watcher.close()
