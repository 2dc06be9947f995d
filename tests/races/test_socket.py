"""The race socket: what it sends (every message checked against races/schemas.py), who
may connect, and what it does with bad input. With REDIS_URL set the messages go through
the Redis channel layer, else the in-memory one."""

from __future__ import annotations

import json
import threading
from functools import partial
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connections
from jsonschema import Draft202012Validator

from races.auth import SUBPROTOCOL
from races.schemas import SERVER_MESSAGES
from tests.play.factories import empty_cells, value_at, wrong_value_at
from tests.races.communicator import WebsocketCommunicator
from tests.races.helpers import move, player, race_create

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")
WAIT = 10  # seconds a message may take on a loaded machine (not a timed assertion)


def run(main: Any) -> Any:
    """Run the coroutine function ``main`` to its end in a thread of its own: this thread
    may already hold an event loop (Playwright's sync API leaves one in the browser tests'
    process), where asgiref's async_to_sync refuses to run."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = async_to_sync(main)()
        except BaseException as exc:  # re-raised in the test's thread
            outcome["error"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def _application() -> Any:
    from sudokusite.asgi import application

    return application


def check(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` if it matches its type's schema; the test fails otherwise."""
    schema = SERVER_MESSAGES[message["type"]]
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(message)]
    assert not errors, (message, errors)
    return message


class Socket:
    """A client of the race socket that checks every message it receives."""

    def __init__(
        self,
        code: str,
        *,
        token: str | None = None,
        headers: list | None = None,
        client: tuple[str, int] | None = None,
    ):
        protocols = [SUBPROTOCOL, f"token.{token}"] if token else [SUBPROTOCOL]
        self.communicator = WebsocketCommunicator(
            _application(),
            f"/ws/races/{code}/",
            headers=headers or [ORIGIN],
            subprotocols=protocols,
            client=client,
        )
        self.seen: list[dict[str, Any]] = []

    async def open(self) -> dict[str, Any]:
        connected, subprotocol = await self.communicator.connect(timeout=WAIT)
        assert connected, subprotocol
        assert subprotocol == SUBPROTOCOL  # the token is never echoed back
        return await self.next("snapshot")

    async def send(self, kind: str) -> None:
        await self.communicator.send_to(text_data=json.dumps({"type": kind}))

    async def next(self, kind: str, **match: Any) -> dict[str, Any]:
        """The next message of that type (and race status, if given), checking every
        message on the way."""
        while True:
            message = check(json.loads(await self.communicator.receive_from(timeout=WAIT)))
            self.seen.append(message)
            if message["type"] != kind:
                continue
            race = message.get("race", {})
            if all(race.get(k) == v for k, v in match.items()):
                return message

    async def close(self) -> None:
        await self.communicator.disconnect()


def test_a_whole_race_as_the_sockets_see_it(puzzle4, settings):
    settings.RACE_COUNTDOWN_SECONDS = 1
    host, guest = player(), player()
    code = race_create(host, size=4)["race"]["code"]
    puzzle = puzzle4

    async def race() -> None:
        watcher = Socket(code)
        snapshot = await watcher.open()
        assert snapshot["you"] == {"player": None, "racer": False, "host": False, "game": None}
        racer = Socket(code, token=guest.token)
        assert (await racer.open())["you"]["racer"] is False
        await racer.send("join")
        assert (await racer.next("snapshot"))["you"]["racer"] is True
        assert len((await watcher.next("race"))["race"]["racers"]) == 2

        owner = Socket(code, headers=[ORIGIN, (b"authorization", f"Token {host.token}".encode())])
        assert (await owner.open())["you"]["host"] is True
        await owner.send("start")
        countdown = await watcher.next("race", status="countdown")
        assert countdown["race"]["starts_in_ms"] <= 1000
        # The sockets' timers make the start happen: nobody has to ask.
        running = await watcher.next("race", status="running")
        assert running["race"]["cells"] == len(empty_cells(puzzle))
        await racer.send("snapshot")
        guest_game = (await racer.next("snapshot"))["you"]["game"]
        await owner.send("snapshot")
        host_game = (await owner.next("snapshot"))["you"]["game"]

        post = database_sync_to_async(move)
        first, second = empty_cells(puzzle)[:2]
        await post(guest, guest_game, first, value_at(puzzle, first))
        progress = await watcher.next("progress")
        assert progress == {
            "type": "progress",
            "player": guest.user.pk,
            "progress": 1,
            "mistakes": 0,
        }
        await post(guest, guest_game, second, wrong_value_at(puzzle, second))
        assert (await watcher.next("progress"))["mistakes"] == 1

        for cell in empty_cells(puzzle):
            await post(host, host_game, cell, value_at(puzzle, cell))
        placed = await watcher.next("race")
        host_row = next(r for r in placed["race"]["racers"] if r["player"] == host.user.pk)
        assert host_row["place"] == 1

        abandon = database_sync_to_async(guest.post)
        await abandon(f"/api/v1/games/{guest_game}/abandon/", {}, format="json")
        over = await watcher.next("race", status="finished")
        assert [r["outcome"] for r in over["race"]["racers"]] == ["completed", "gave_up"]
        assert all(r["replay"] for r in over["race"]["racers"])

        # Nothing any socket received names a cell or a value.
        for socket in (watcher, racer, owner):
            text = json.dumps(socket.seen)
            assert puzzle.solution not in text and '"cell"' not in text
            await socket.close()

    run(race)


def test_bad_messages_are_answered_with_errors_and_the_socket_stays_open(puzzle4):
    code = race_create(player(), size=4)["race"]["code"]

    async def talk() -> None:
        socket = Socket(code)
        await socket.open()
        frames = [
            {"text_data": "not json"},
            {"text_data": json.dumps({"type": "dance"})},
            {"text_data": json.dumps({"type": "ping", "extra": 1})},
            {"bytes_data": b"\x00\x01"},
            {"text_data": json.dumps({"type": "ping", "pad": "x" * 5000})},
            {"text_data": json.dumps({"type": "join"})},  # signed out
            # Under the size limit, deeper than json.loads' recursion can go.
            {"text_data": "[" * 1000},
            # Valid JSON one level deeper than the API's limit (64), brackets in a string
            # not counted.
            {"text_data": '{"type": "ping", "s": "[[[", "x": ' + "[" * 64 + "]" * 64 + "}"},
        ]
        codes = []
        for frame in frames:
            await socket.communicator.send_to(**frame)
            codes.append((await socket.next("error"))["error"]["code"])
        assert codes == [
            "malformed_message",
            "invalid_message",
            "invalid_message",
            "bad_message",
            "message_too_large",
            "not_authenticated",
            "message_too_deep",
            "message_too_deep",
        ]
        await socket.send("ping")
        assert (await socket.next("pong")) == {"type": "pong"}
        await socket.close()

    run(talk)


def test_a_socket_sending_too_fast_is_told_then_closed(puzzle4, settings):
    settings.RACE_SOCKET_RATE = 1
    code = race_create(player(), size=4)["race"]["code"]

    async def flood() -> None:
        socket = Socket(code)
        await socket.open()
        for _ in range(40):
            await socket.send("ping")
        kinds = []
        while True:
            output = await socket.communicator.receive_output(timeout=WAIT)
            if output["type"] == "websocket.close":
                assert output["code"] == 4429
                break
            kinds.append(check(json.loads(output["text"]))["type"])
        assert kinds[:2] == ["pong", "pong"]
        assert "error" in kinds

    run(flood)


def test_a_page_of_another_site_cannot_open_the_socket(puzzle4):
    code = race_create(player(), size=4)["race"]["code"]

    async def attempt() -> tuple[bool, Any]:
        socket = Socket(code, headers=[(b"origin", b"https://evil.example")])
        return await socket.communicator.connect(timeout=WAIT)

    connected, _ = run(attempt)
    assert connected is False


async def _close_code(socket: Socket) -> int:
    """The code the server closes the socket with, right after accepting it."""
    connected, _ = await socket.communicator.connect(timeout=WAIT)
    assert connected
    output = await socket.communicator.receive_output(timeout=WAIT)
    assert output["type"] == "websocket.close", output
    return output["code"]


def test_a_bad_token_closes_the_socket_with_4401(puzzle4):
    code = race_create(player(), size=4)["race"]["code"]
    socket = Socket(code, token="0" * 64)
    assert run(partial(_close_code, socket)) == 4401


def test_an_unknown_race_closes_the_socket_with_4404(db):
    assert run(partial(_close_code, Socket("nope"))) == 4404


def test_a_phone_without_an_origin_connects_with_its_token(puzzle4):
    host = player()
    code = race_create(host, size=4)["race"]["code"]

    async def attempt() -> dict[str, Any]:
        socket = Socket(code, token=host.token, headers=[])
        snapshot = await socket.open()
        await socket.close()
        return snapshot

    assert run(attempt)["you"]["host"] is True


def test_a_racer_who_comes_back_sees_the_race_as_it_stands(puzzle4):
    host, guest = player(), player()
    code = race_create(host, size=4)["race"]["code"]

    async def away_and_back() -> dict[str, Any]:
        socket = Socket(code, token=host.token)
        assert len((await socket.open())["race"]["racers"]) == 1
        await socket.close()
        # While the host is away, a player joins and the host's other device starts the race.
        await database_sync_to_async(guest.post)(f"/api/v1/races/{code}/join/")
        await database_sync_to_async(host.post)(f"/api/v1/races/{code}/start/")
        again = Socket(code, token=host.token)
        snapshot = await again.open()
        await again.close()
        return snapshot

    snapshot = run(away_and_back)
    assert snapshot["race"]["status"] == "countdown"
    assert [r["name"] for r in snapshot["race"]["racers"]] == [
        host.user.username,
        guest.user.username,
    ]
    assert snapshot["you"]["host"] is True
