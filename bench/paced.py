"""Paced players for the move bench: clients that pause between an answer and their next move.

wrk's own way of pausing (a Lua ``delay()``) skews its latencies: against a server that
timed every request under 40 ms, wrk reported a p99 near one second at 50 moves/s, while a
plain client on the same server and load saw nothing over 200 ms. So the paced run of
bench/moves.py uses these clients instead: one asyncio loop, a keep-alive connection per
client, each move timed from the first byte sent to the last byte of the answer. Each
client starts at a random point within its first pause (players do not all move in the
same millisecond) and then pauses, after every answer, between half and one and a half
times the mean, so the clients do not move in step.

``python -m bench.paced PORT GAMES_FILE CLIENTS THINK_MS SECONDS RUN`` prints one JSON
object: rps, p50, p99 (ms), requests, non2xx, socket_errors, the keys bench/moves.py reads
from wrk. GAMES_FILE has a line per game, ``<id> <token> <open cells, comma-separated>``.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

Game = tuple[str, str, list[int]]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    non2xx: int = 0
    socket_errors: int = 0


def _request(game: Game, move_id: str, rng: random.Random) -> bytes:
    game_id, token, cells = game
    body = json.dumps(
        {"client_move_id": move_id, "cell": rng.choice(cells), "value": rng.randint(0, 9),
         "kind": "value"}
    ).encode()  # fmt: skip
    head = (
        f"POST /api/v1/games/{game_id}/moves/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Token {token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """Read one response: (status, whether the server keeps the connection open)."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers = dict(line.split(":", 1) for line in head[1:] if ":" in line)
    headers = {name.strip().lower(): value.strip().lower() for name, value in headers.items()}
    await reader.readexactly(int(headers.get("content-length", "0")))
    return status, headers.get("connection") != "close"


async def _player(
    index: int, port: int, games: list[Game], think_ms: float, stop_at: float, run: int,
    tally: Tally,
) -> None:  # fmt: skip
    rng = random.Random(run * 1000 + index)
    await asyncio.sleep(rng.uniform(0, think_ms) / 1000)
    connection = None
    counter = 0
    while time.monotonic() < stop_at:
        counter += 1
        game = games[(index * 7919 + counter) % len(games)]
        move_id = f"{run:08x}-{index:04x}-4000-8000-{counter:012x}"
        try:
            if connection is None:
                connection = await asyncio.open_connection("127.0.0.1", port)
            reader, writer = connection
            started = time.perf_counter()
            writer.write(_request(game, move_id, rng))
            status, keep = await _answer(reader)
            tally.latencies.append(time.perf_counter() - started)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            tally.socket_errors += 1
            status, keep = 0, False
        if status and status != 200:
            tally.non2xx += 1
        if not keep and connection is not None:
            connection[1].close()
            connection = None
        await asyncio.sleep(rng.uniform(think_ms / 2, think_ms * 3 / 2) / 1000)
    if connection is not None:
        connection[1].close()


async def play(
    port: int, games: list[Game], clients: int, think_ms: float, seconds: float, run: int
) -> dict[str, float]:
    """Run ``clients`` paced players for ``seconds``; wrk's figures, measured correctly."""
    tally = Tally()
    began = time.monotonic()
    stop_at = began + seconds
    await asyncio.gather(
        *(_player(i, port, games, think_ms, stop_at, run, tally) for i in range(clients))
    )
    elapsed = time.monotonic() - began
    ordered = sorted(tally.latencies)

    def percentile(share: float) -> float:
        if not ordered:
            return float("nan")
        return 1000 * ordered[min(int(len(ordered) * share), len(ordered) - 1)]

    return {
        "rps": len(ordered) / elapsed,
        "p50": percentile(0.50),
        "p99": percentile(0.99),
        "requests": float(len(ordered)),
        "non2xx": float(tally.non2xx),
        "socket_errors": float(tally.socket_errors),
    }


def load_games(path: str) -> list[Game]:
    games = []
    for line in Path(path).read_text().splitlines():
        game_id, token, cells = line.split()
        games.append((game_id, token, [int(cell) for cell in cells.split(",")]))
    return games


if __name__ == "__main__":
    port, path, clients, think_ms, seconds, run = sys.argv[1:7]
    result = asyncio.run(
        play(int(port), load_games(path), int(clients), float(think_ms), float(seconds), int(run))
    )
    print(json.dumps(result))
