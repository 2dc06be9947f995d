"""The move bench's HTTP client: moves back to back, or offered at a fixed rate as wrk2
offers them (a schedule that does not wait for the server, each move timed from when it was
due: no coordinated omission).

``python -m bench.client PORT GAMES_FILE CLIENTS RATE SECONDS RUN`` prints one JSON object:
rps, p50 and p99 in ms, requests, non2xx, socket_errors, offered and client_cpu_ms. At RATE
0 each client sends its next move when the last is answered, timed from its sending.
GAMES_FILE has a line per game: ``<id> <token> <open cells, comma-separated>``.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from math import nan
from pathlib import Path

Game = tuple[str, str, list[int]]

# A move not answered in this long counts as a socket error (and its connection is dropped).
ANSWER_TIMEOUT = 10.0


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    non2xx: int = 0
    socket_errors: int = 0
    last_answer: float = 0.0


Plan = tuple[random.Random, list[float] | None]


def schedule(clients: int, rate: float, seconds: float, run: int) -> list[Plan]:
    """Each client's random source and the times (seconds from the start) its moves are due,
    gaps between half and one and a half times ``clients / rate``; no times at rate 0."""
    plans: list[Plan] = []
    for index in range(clients):
        rng = random.Random(run * 1000 + index)
        if not rate:
            plans.append((rng, None))
            continue
        interval = clients / rate
        due, times = rng.uniform(0, interval), []
        while due < seconds:
            times.append(due)
            due += rng.uniform(interval / 2, interval * 3 / 2)
        plans.append((rng, times))
    return plans


def _request(game: Game, move_id: str, rng: random.Random) -> bytes:
    game_id, token, cells = game
    body = (
        f'{{"client_move_id":"{move_id}","cell":{rng.choice(cells)},'
        f'"value":{rng.randint(0, 9)},"kind":"value"}}'
    )
    return (
        f"POST /api/v1/games/{game_id}/moves/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Token {token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n{body}"
    ).encode()


class _Connection(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection: a request out, then its status and whether the
    server keeps the connection open. A protocol: asyncio's streams cost several times the
    CPU per move, CPU the server under test shares."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer, self.waiter = bytearray(), None  # type: ignore[var-annotated]

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0 or self.waiter is None or self.waiter.done():
            return
        head = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
        headers = dict(line.split(":", 1) for line in head[1:] if ":" in line)
        headers = {name.strip().lower(): value.strip().lower() for name, value in headers.items()}
        size = end + 4 + int(headers.get("content-length", "0"))
        if len(self.buffer) < size:
            return
        del self.buffer[:size]
        self.waiter.set_result((int(head[0].split()[1]), headers.get("connection") != "close"))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionResetError("the server closed the connection"))

    async def exchange(self, request: bytes) -> tuple[int, bool]:
        loop = asyncio.get_running_loop()
        waiter = self.waiter = loop.create_future()
        timer = loop.call_later(
            ANSWER_TIMEOUT, lambda: waiter.done() or waiter.set_exception(TimeoutError())
        )
        assert self.transport is not None
        self.transport.write(request)
        try:
            return await waiter
        finally:
            timer.cancel()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


def _due(times: list[float] | None, began: float, seconds: float) -> Iterator[float]:
    """When each move is due: on the schedule, or (back to back) when it can be sent."""
    if times is not None:
        yield from (began + offset for offset in times)
        return
    while (now := time.perf_counter()) < began + seconds:
        yield now


async def _client(
    index: int, port: int, games: list[Game], plan: Plan, began: float, seconds: float,
    run: int, tally: Tally,
) -> None:  # fmt: skip
    rng, times = plan
    loop = asyncio.get_running_loop()
    connection: _Connection | None = None
    for counter, due in enumerate(_due(times, began, seconds), start=1):
        wait = due - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        game = games[(index * 7919 + counter) % len(games)]
        move_id = f"{run:08x}-{index:04x}-4000-8000-{counter:012x}"
        try:
            if connection is None:
                _, connection = await loop.create_connection(_Connection, "127.0.0.1", port)
            status, keep = await connection.exchange(_request(game, move_id, rng))
            answered = time.perf_counter()
            tally.latencies.append(answered - due)
            tally.last_answer = max(tally.last_answer, answered)
        except (OSError, ValueError, TimeoutError):
            tally.socket_errors += 1
            status, keep = 0, False
        if status and status != 200:
            tally.non2xx += 1
        if not keep and connection is not None:
            connection.close()
            connection = None
    if connection is not None:
        connection.close()


async def play(
    port: int, games: list[Game], clients: int, rate: float, seconds: float, run: int
) -> dict[str, float]:
    """Offer ``rate`` moves/s (0: back to back) from ``clients`` connections for
    ``seconds``; the rate answered and the latency counted from when each move was due."""
    plans, tally = schedule(clients, rate, seconds, run), Tally()
    cpu, began = time.process_time(), time.perf_counter()
    await asyncio.gather(
        *(_client(i, port, games, p, began, seconds, run, tally) for i, p in enumerate(plans))
    )
    cpu, done = time.process_time() - cpu, sorted(tally.latencies)
    at = lambda share: 1000 * done[min(int(len(done) * share), len(done) - 1)] if done else nan  # noqa: E731
    return {
        "rps": len(done) / ((tally.last_answer or time.perf_counter()) - began),
        "p50": at(0.50),
        "p99": at(0.99),
        "requests": float(len(done)),
        "non2xx": float(tally.non2xx),
        "socket_errors": float(tally.socket_errors),
        "offered": float(sum(len(t or ()) for _, t in plans) if rate else len(done)),
        "client_cpu_ms": 1000 * cpu / len(done) if done else nan,
    }


def main(argv: list[str]) -> None:
    port, path, clients, rate, seconds, run = argv[:6]
    rows = [line.split() for line in Path(path).read_text().splitlines()]
    games = [(game, token, [int(c) for c in cells.split(",")]) for game, token, cells in rows]
    try:  # libuv's loop, where installed: less of the machine's CPU for the same moves
        from uvloop import run as runner
    except ImportError:
        runner = asyncio.run
    print(
        json.dumps(
            runner(play(int(port), games, int(clients), float(rate), float(seconds), int(run)))
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
