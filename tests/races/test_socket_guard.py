"""Who keeps a race socket open: a credential revoked while its socket is open closes it
(4401) on every path that revokes one, and sockets are capped per account and per address
(4409), counted across nodes and lapsing when a node dies. With REDIS_URL set the counts
and the revocations go through Redis, else through this process's memory."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from knox.models import AuthToken

from accounts.factories import DEFAULT_PASSWORD
from races import socket_caps
from tests.races.helpers import player, race_create
from tests.races.test_socket import ORIGIN, WAIT, Socket, check, run

pytestmark = pytest.mark.django_db(transaction=True)


async def closed_with(socket: Socket) -> int:
    """The code the server closes an open socket with (messages before it are checked)."""
    while True:
        output = await socket.communicator.receive_output(timeout=WAIT)
        if output["type"] == "websocket.close":
            return output["code"]
        check(json.loads(output["text"]))


async def still_open(socket: Socket) -> bool:
    await socket.send("ping")
    return (await socket.next("pong")) == {"type": "pong"}


def post(client: Any, path: str, body: dict | None = None) -> Any:
    return database_sync_to_async(client.post)(path, body or {}, format="json")


def second_device(racer: Any) -> str:
    """Another API token of the same player (a second phone)."""
    from accounts.services import token_create

    return token_create(user=racer.user)[1]


def test_logout_closes_that_devices_sockets_and_no_other(puzzle4):
    racer = player()
    code = race_create(racer, size=4)["race"]["code"]
    other = second_device(racer)

    async def scenario() -> None:
        phone, tablet = Socket(code, token=racer.token), Socket(code, token=other)
        await phone.open()
        await tablet.open()
        assert (await post(racer, "/api/v1/auth/logout/")).status_code == 204
        assert await closed_with(phone) == 4401
        assert await still_open(tablet)
        await tablet.close()

    run(scenario)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/auth/logout-all/", {}),
        (
            "/api/v1/me/password/",
            {"old_password": DEFAULT_PASSWORD, "new_password": "a-new-long-passphrase-9"},
        ),
        ("/api/v1/me/delete/", {"password": DEFAULT_PASSWORD}),
    ],
    ids=["logout-everywhere", "password-change", "account-deletion"],
)
def test_revoking_every_token_closes_every_socket_of_the_account(puzzle4, path, body):
    host, racer = player(), player()
    code = race_create(host, size=4)["race"]["code"]
    other = second_device(racer)

    async def scenario() -> None:
        sockets = [Socket(code, token=racer.token), Socket(code, token=other)]
        hosts = Socket(code, token=host.token)
        for socket in [*sockets, hosts]:
            await socket.open()
        assert (await post(racer, path, body)).status_code in (200, 204)
        assert [await closed_with(s) for s in sockets] == [4401, 4401]
        assert await still_open(hosts)  # another player's socket is not touched
        await hosts.close()

    run(scenario)


def _signed_in_browser(user: Any) -> tuple[Client, list]:
    browser = Client()
    browser.force_login(user, backend="accounts.backends.CaseInsensitiveModelBackend")
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    return browser, [ORIGIN, (b"cookie", cookie)]


def test_signing_out_a_browser_closes_the_sockets_of_its_session(puzzle4):
    racer = player()
    code = race_create(racer, size=4)["race"]["code"]
    browser, headers = _signed_in_browser(racer.user)
    _other_browser, other_headers = _signed_in_browser(racer.user)

    async def scenario() -> None:
        page, other_page = Socket(code, headers=headers), Socket(code, headers=other_headers)
        assert (await page.open())["you"]["host"] is True
        assert (await other_page.open())["you"]["host"] is True
        response = await database_sync_to_async(browser.post)("/accounts/logout/")
        assert response.status_code == 302
        assert await closed_with(page) == 4401
        assert await still_open(other_page)
        await other_page.close()

    run(scenario)


def test_a_password_changed_in_one_browser_closes_the_other_browsers_sockets(puzzle4):
    racer = player()
    code = race_create(racer, size=4)["race"]["code"]
    browser, _headers = _signed_in_browser(racer.user)
    _other_browser, other_headers = _signed_in_browser(racer.user)
    new = "a-new-long-passphrase-9"
    form = {"old_password": DEFAULT_PASSWORD, "new_password1": new, "new_password2": new}

    async def scenario() -> None:
        other_page = Socket(code, headers=other_headers)
        await other_page.open()
        change = database_sync_to_async(browser.post)
        assert (await change("/accounts/password/change/", form)).status_code == 302
        assert await closed_with(other_page) == 4401

    run(scenario)


def test_a_revoked_token_cannot_act_even_if_the_notice_is_lost(puzzle4):
    """The safety net: the token is gone without a word to the sockets (a lost publish);
    the next message the socket sends is checked, and it closes before it acts."""
    host, racer = player(), player()
    code = race_create(host, size=4)["race"]["code"]

    async def scenario() -> None:
        socket = Socket(code, token=racer.token)
        await socket.open()
        await database_sync_to_async(AuthToken.objects.filter(user=racer.user).delete)()
        await socket.send("join")
        assert await closed_with(socket) == 4401

    run(scenario)
    racers = host.get(f"/api/v1/races/{code}/").json()["race"]["racers"]
    assert [r["player"] for r in racers] == [host.user.pk]


def test_an_account_over_its_socket_cap_is_closed_with_4409(puzzle4, settings):
    settings.RACE_SOCKETS_PER_USER = 2
    racer = player()
    code = race_create(racer, size=4)["race"]["code"]

    async def scenario() -> None:
        first, second = Socket(code, token=racer.token), Socket(code, token=racer.token)
        await first.open()
        await second.open()
        third = Socket(code, token=racer.token)
        connected, _ = await third.communicator.connect(timeout=WAIT)
        assert connected
        assert await closed_with(third) == 4409
        # A spectator from the same address is not this account's.
        await (watcher := Socket(code)).open()
        await first.close()
        await (again := Socket(code, token=racer.token)).open()
        for socket in (second, watcher, again):
            await socket.close()

    run(scenario)


def test_an_address_over_its_socket_cap_is_closed_with_4409(puzzle4, settings):
    settings.RACE_SOCKETS_PER_ADDRESS = 3
    code = race_create(player(), size=4)["race"]["code"]
    address = ("192.0.2.41", 50000)

    async def scenario() -> None:
        sockets = [Socket(code, client=address) for _ in range(3)]
        for socket in sockets:
            await socket.open()
        over = Socket(code, client=address)
        assert (await over.communicator.connect(timeout=WAIT))[0]
        assert await closed_with(over) == 4409
        await (elsewhere := Socket(code, client=("192.0.2.42", 50000))).open()
        for socket in [*sockets, elsewhere]:
            await socket.close()

    run(scenario)


def test_another_nodes_sockets_count_and_a_dead_nodes_lapse(puzzle4, settings, monkeypatch):
    """Seats another node took count here; when that node dies without giving them back,
    they lapse after their life (a second here, a minute in production)."""
    settings.RACE_SOCKETS_PER_ADDRESS = 2
    code = race_create(player(), size=4)["race"]["code"]
    address = ("192.0.2.43", 50000)
    keys = socket_caps.seat_keys(user_id=None, address=address[0])
    other_node = (
        socket_caps._RedisSeats(settings.REDIS_URL)
        if settings.REDIS_URL
        else socket_caps._seats()  # one process: the in-memory layer's only node
    )

    async def scenario() -> None:
        for member in ("dead-node!a", "dead-node!b"):
            assert await other_node.take(keys, member, 1) == 0
        refused = Socket(code, client=address)
        assert (await refused.communicator.connect(timeout=WAIT))[0]
        assert await closed_with(refused) == 4409
        await asyncio.sleep(1.5)
        await (socket := Socket(code, client=address)).open()
        await socket.close()

    run(scenario)
