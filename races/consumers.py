"""The race socket: a view over races.services (see races/auth.py for who is connecting).

It authenticates at the edge (the scope's user), parses each message into a command
(races.protocol), calls a service and sends what the service returns. Updates from the
race's group arrive already encoded (races.broadcast) and are forwarded as they are.
Bad input is answered with an ``error`` message and the socket stays open; a client
that keeps sending faster than the rate allows is disconnected (4429). A signed-in
socket's credential is checked again on every message and whenever the user's group says
one was revoked (races.auth): one that no longer holds closes the socket (4401). Sockets
are capped per account and per address (races.socket_caps): one over a cap closes (4409).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy

from sudokusite.errors import DomainError
from sudokusite.net import scope_client_ip
from sudokusite.publish import user_group

from . import services
from .auth import SUBPROTOCOL, credential_user
from .broadcast import encode, group_name
from .errors import RaceNotFound, SignInRequired
from .protocol import BadMessage, command_parse
from .selectors import race_get
from .socket_caps import RENEW_SECONDS, seat_keys, seats_give_back, seats_take

logger = logging.getLogger(__name__)

CLOSE_UNAUTHORISED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4409
CLOSE_TOO_FAST = 4429
# Messages over the rate, in a row, before the socket is closed.
_OVER_RATE_LIMIT = 20
TOO_FAST = gettext_lazy("Too many messages: slow down.")


class _Bucket:
    """A token bucket: ``rate`` messages a second, bursts of twice that."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self.capacity = 2 * rate
        self.tokens = float(self.capacity)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _language(scope: dict[str, Any]) -> str:
    """The reader's language: the language cookie, else Accept-Language, else English."""
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie and translation.check_for_language(cookie):
        return translation.get_supported_language_variant(cookie)
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            for code, _q in translation.trans_real.parse_accept_lang_header(value.decode("latin1")):
                try:
                    return translation.get_supported_language_variant(code)
                except LookupError:
                    continue
    return settings.LANGUAGE_CODE


def _in_language(language: str, service: Any, **kwargs: Any) -> Any:
    with translation.override(language):
        return service(**kwargs)


class RaceConsumer(AsyncWebsocketConsumer):
    race_id: int | None = None
    user_id: int | None = None
    seats: list[tuple[str, int]] = []
    _timer: asyncio.TimerHandle | None = None
    _renewal: asyncio.TimerHandle | None = None

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.user = self.scope.get("user")
        self.language = _language(self.scope)
        self.bucket = _Bucket(settings.RACE_SOCKET_RATE)
        self.over_rate = 0
        self.refused = False
        offered = self.scope.get("subprotocols") or []
        subprotocol = SUBPROTOCOL if SUBPROTOCOL in offered else None
        if self.scope.get("auth_failed"):
            await self._refuse(subprotocol, CLOSE_UNAUTHORISED)
            return
        if self._signed_in():
            self.user_id = self.user.pk
        # Seats first: a flood of sockets is turned away before it costs a database read.
        keys = seat_keys(user_id=self.user_id, address=scope_client_ip(self.scope))
        if await seats_take(keys, member=self.channel_name):
            await self._refuse(subprotocol, CLOSE_TOO_MANY)
            return
        self.seats = keys
        self._renew_later()
        try:
            race = await database_sync_to_async(race_get)(code=self.code)
        except RaceNotFound:
            await self._refuse(subprotocol, CLOSE_NOT_FOUND)
            return
        # Into the group before the snapshot is read, so no update falls between the two.
        self.race_id = race.pk
        await self.channel_layer.group_add(group_name(race.pk), self.channel_name)
        if self.user_id is not None:  # told when one of the user's credentials is revoked
            await self.channel_layer.group_add(user_group(self.user_id), self.channel_name)
        await self.accept(subprotocol)
        await self._send_snapshot()

    async def _refuse(self, subprotocol: str | None, code: int) -> None:
        """Accept, then close with ``code``: a handshake refused outright reaches the client
        as a bare HTTP 403, without saying why."""
        self.refused = True
        await self.accept(subprotocol)
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        for timer in (self._timer, self._renewal):
            if timer is not None:
                timer.cancel()
        if self.race_id is not None:
            await self.channel_layer.group_discard(group_name(self.race_id), self.channel_name)
        if self.user_id is not None and self.race_id is not None:
            await self.channel_layer.group_discard(user_group(self.user_id), self.channel_name)
        await seats_give_back(self.seats, member=self.channel_name)
        self.seats = []

    def _signed_in(self) -> bool:
        return self.user is not None and self.user.is_authenticated

    def _renew_later(self) -> None:
        """Renew the socket's seats before they lapse (a dead node's lapse instead)."""
        loop = asyncio.get_running_loop()
        self._renewal = loop.call_later(RENEW_SECONDS, lambda: loop.create_task(self._renew()))

    async def _renew(self) -> None:
        if self.seats:
            await seats_take(self.seats, member=self.channel_name)
            self._renew_later()

    async def _credential_holds(self) -> bool:
        """Whether a signed-in socket's token or session still holds (a spectator has
        none to lose); closes the socket with 4401 when it does not."""
        if self.user_id is None:
            return True
        user = await database_sync_to_async(credential_user)(self.scope)
        if user is None:
            self.refused = True
            await self.close(code=CLOSE_UNAUTHORISED)
            return False
        self.user = user
        return True

    async def credentials_changed(self, event: dict[str, Any]) -> None:
        """One of the user's credentials was revoked (sudokusite.publish): is it this one?"""
        if not self.refused:
            await self._credential_holds()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.refused:  # a frame that crossed the close
            return
        if not self.bucket.take():
            self.over_rate += 1
            if self.over_rate >= _OVER_RATE_LIMIT:
                await self.close(code=CLOSE_TOO_FAST)
                return
            with translation.override(self.language):
                await self._send_error("rate_limited", str(TOO_FAST))
            return
        self.over_rate = 0
        if not await self._credential_holds():
            return
        try:
            command = command_parse(text_data, max_bytes=settings.RACE_SOCKET_MAX_BYTES)
        except BadMessage as exc:
            await self._send_error(exc.code, exc.message)
            return
        try:
            if command.kind == "ping":
                await self.send(text_data=encode({"type": "pong"}))
            elif command.kind == "snapshot":
                await self._send_snapshot()
            else:
                await self._act(command.kind)
        except DomainError as exc:
            await self._send_error(exc.code, str(exc.message))

    async def _act(self, kind: str) -> None:
        """join, leave or start: a signed-in player's write. The change itself reaches
        everyone (this socket too) through the group."""
        if not self._signed_in():
            raise SignInRequired()
        service = {
            "join": services.race_join,
            "leave": services.race_leave,
            "start": services.race_start,
        }[kind]
        await self._call(service, code=self.code, user=self.user)
        if kind == "join":  # "you" changed: only this socket needs to know
            await self._send_snapshot()

    async def _call(self, service: Any, **kwargs: Any) -> Any:
        return await database_sync_to_async(_in_language)(self.language, service, **kwargs)

    async def _send_snapshot(self) -> None:
        message, due_at = await self._call(services.race_snapshot, code=self.code, user=self.user)
        await self.send(text_data=encode(message))
        self._schedule(due_at)

    async def _send_error(self, code: str, message: str) -> None:
        await self.send(
            text_data=encode({"type": "error", "error": {"code": code, "message": message}})
        )

    async def race_message(self, event: dict[str, Any]) -> None:
        """An update from the race's group (races.broadcast), already encoded."""
        await self.send(text_data=event["text"])
        if event.get("due_at") is not None:
            self._schedule(event["due_at"])

    def _schedule(self, due_at: float | None) -> None:
        """Ask for the start or the time limit when it falls due (it happens once, whoever
        asks first; Celery beat catches a race nobody watches)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if due_at is None:
            return
        delay = max(0.0, due_at - time.time()) + 0.05
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(delay, lambda: loop.create_task(self._advance()))

    async def _advance(self) -> None:
        self._timer = None
        try:
            await self._call(services.race_advance_by_id, race_id=self.race_id)
        except Exception:  # the next snapshot or the beat sweep tries again
            logger.warning("Could not advance race %s.", self.race_id, exc_info=True)
