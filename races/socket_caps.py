"""How many race sockets one account and one address hold open, across every node.

Each open socket holds a seat under its account (when signed in) and under its client
address: a member of a Redis sorted set whose score is when the seat lapses. A socket
renews its seats every ``RENEW_SECONDS`` and gives them back when it closes; the seats of
a node that died (SIGKILL, power) are never given back, and lapse after ``SEAT_SECONDS``,
so a crash cannot lock an account out. Counting and taking a seat is one Lua script, so
two nodes opening sockets at once cannot both take the last seat; the time is Redis' own,
so the nodes' clocks need not agree.

Without Redis (``make run``: one process) the seats are kept in this process's memory
with the same rules.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

SEAT_SECONDS = 60
RENEW_SECONDS = 20

# KEYS: the seat sets; ARGV: the member, the seat's life in seconds, then each key's cap.
# Returns 0 with the seats taken, or the 1-based index of the first key that is full.
_TAKE = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', t)
  if not redis.call('ZSCORE', key, ARGV[1])
     and redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then
    return i
  end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, t + tonumber(ARGV[2]), ARGV[1])
  redis.call('EXPIRE', key, ARGV[2])
end
return 0
"""


def seat_keys(*, user_id: int | None, address: str | None) -> list[tuple[str, int]]:
    """(key, cap) for each seat a socket takes: its account's, its address's."""
    prefix = f"{settings.CACHE_KEY_PREFIX}:race-sockets"
    keys = []
    if user_id is not None:
        keys.append((f"{prefix}:user:{user_id}", settings.RACE_SOCKETS_PER_USER))
    if address:
        keys.append((f"{prefix}:address:{address}", settings.RACE_SOCKETS_PER_ADDRESS))
    return keys


class _MemorySeats:
    """The seats of one process (no Redis): the same rules, on the monotonic clock."""

    def __init__(self) -> None:
        self.sets: dict[str, dict[str, float]] = {}

    async def take(self, keys: list[tuple[str, int]], member: str, seconds: float) -> int:
        now = time.monotonic()
        for index, (key, cap) in enumerate(keys, start=1):
            seats = self.sets.setdefault(key, {})
            for other in [m for m, until in seats.items() if until <= now]:
                del seats[other]
            if member not in seats and len(seats) >= cap:
                return index
        for key, _cap in keys:
            self.sets[key][member] = now + seconds
        return 0

    async def give_back(self, keys: list[str], member: str) -> None:
        for key in keys:
            self.sets.get(key, {}).pop(member, None)


class _RedisSeats:
    """The seats of every node, in Redis (one client per event loop: redis' asyncio
    client belongs to the loop that made it)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.clients: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()

    def _client(self) -> Any:
        loop = asyncio.get_running_loop()
        client = self.clients.get(loop)
        if client is None:
            from redis.asyncio import Redis

            client = Redis.from_url(self.url)
            client.take_script = client.register_script(_TAKE)
            self.clients[loop] = client
        return client

    async def take(self, keys: list[tuple[str, int]], member: str, seconds: float) -> int:
        client = self._client()
        caps = [cap for _key, cap in keys]
        return int(
            await client.take_script(keys=[k for k, _cap in keys], args=[member, seconds, *caps])
        )

    async def give_back(self, keys: list[str], member: str) -> None:
        async with self._client().pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(key, member)
            await pipe.execute()


_store: _MemorySeats | _RedisSeats | None = None


def _seats() -> _MemorySeats | _RedisSeats:
    global _store
    if _store is None:
        _store = _RedisSeats(settings.REDIS_URL) if settings.REDIS_URL else _MemorySeats()
    return _store


async def seats_take(keys: list[tuple[str, int]], *, member: str) -> int:
    """Take (or renew) the socket's seats: 0, or the 1-based index of the first full key.
    An unreachable Redis lets the socket in (it has no channel layer then either, so
    nothing to hold it for; the log says so)."""
    if not keys:
        return 0
    try:
        return await _seats().take(keys, member, SEAT_SECONDS)
    except Exception:
        logger.warning("Could not count race sockets; letting one in.", exc_info=True)
        return 0


async def seats_give_back(keys: list[tuple[str, int]], *, member: str) -> None:
    if not keys:
        return
    try:
        await _seats().give_back([k for k, _cap in keys], member)
    except Exception:  # the seats lapse by themselves
        logger.warning("Could not give back race socket seats.", exc_info=True)
