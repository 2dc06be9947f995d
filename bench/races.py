"""A race move, from the racer's HTTP request to the last socket of its race.

A scratch database holds RACES running races of RACERS racers, each with its game. The
site runs as ``make serve`` lays it out: moves go to gunicorn's WSGI processes
(``gunicorn.conf.py``), the sockets to an ASGI node (``make asgi``: gunicorn managing
``sudokusite.workers.AsgiWorker``), Redis between them. A client process opens each
racer's socket (with the racer's token) and one spectator's per race, then sends the
racers' moves (each the next right value of the racer's game) as HTTP requests at a human
rate, on a schedule that does not wait for the server; each move is timed from when it
was due to its ``progress`` arriving on the last of the race's sockets, and its HTTP
answer on the way. In one process, the CPU of a move on a race game and on a plain game,
side by side. The client shares the machine's cores with the servers, PostgreSQL and
Redis, so its own scheduling counts in the latency. Needs DATABASE_URL (PostgreSQL) and
REDIS_URL.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bench.stack import cpu_seconds, run_driver
from ops.drill_load import ConnectionCount
from ops.stack import Process, free_port, scratch_site, wait

TITLE = "## Race moves (WSGI moves, ASGI sockets, Redis channel layer)"
RACES, RACERS = 100, 8
SPECTATORS = 1  # sockets per race besides its racers'
# One move a racer every 8 s on average: 100 moves a second over the 800 racers, the rate
# the figure was asked at. (A steady 9x9 player, about 200 writes in 15-20 minutes, makes
# one every 5 s: 160 a second here, a third more of the web node's CPU.)
MOVE_EVERY_S = 8.0
GOAL_MS = 50
CPU_MOVES = 1000  # per kind, in one process


def run(quick: bool = False) -> list[str]:
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        return [TITLE, "", "skipped: needs DATABASE_URL=postgres://... and REDIS_URL"]
    seconds = 8 if quick else 30
    rate = RACES * RACERS / MOVE_EVERY_S
    # Whole rounds: every racer makes as many moves in a run, so each knows its progress.
    rounds = [max(1, round(rate * s / (RACES * RACERS))) for s in (5 if quick else 10, seconds)]
    site = scratch_site(
        database_url,
        "_racebench",
        CACHE_KEY_PREFIX="racebench",
        RACE_COUNTDOWN_SECONDS="1",
        # One client address opens every socket; a bench game takes more writes than a
        # person's.
        RACE_SOCKETS_PER_ADDRESS="10000",
        GAME_MOVES_PER_CELL="1000",
    )
    with site as env, tempfile.TemporaryDirectory(prefix="racebench-") as tmp_name:
        tmp, web_port, ws_port = Path(tmp_name), free_port(), free_port()
        data = tmp / "races.json"
        log = ["--log-level", "warning"]
        web = Process("wsgi", [sys.executable, "-m", "gunicorn", "sudokusite.wsgi", *log,
                               "--bind", f"127.0.0.1:{web_port}"], env, tmp)  # fmt: skip
        asgi = [sys.executable, "-m", "gunicorn", "sudokusite.asgi:application", *log]
        asgi += ["--worker-class", "sudokusite.workers.AsgiWorker"]
        node = Process("asgi", [*asgi, "--bind", f"127.0.0.1:{ws_port}"], env, tmp)
        try:
            prepared = run_driver(env, "bench.races", "prepare", str(data), timeout=900)
            web.start()
            node.start()
            # The masters listen at once; their workers answer once they have loaded.
            wait(lambda: _healthy(web_port) and _healthy(ws_port), 120, "the servers")
            servers = (web.proc.pid, node.proc.pid)  # type: ignore[union-attr]
            results = []
            connections = ConnectionCount(env["DATABASE_URL"].rsplit("/", 1)[-1])
            connections.start()
            # The first run warms both servers up.
            for number, run_rounds in enumerate(rounds):
                before = [cpu_seconds(pid, tree=True) for pid in servers]
                run_seconds = run_rounds * RACES * RACERS / rate
                result = run_driver(
                    env, "bench.races", "drive", str(web_port), str(ws_port), str(data),
                    str(rate), str(run_rounds), str(sum(rounds[:number])),
                    timeout=run_seconds + 400,
                )  # fmt: skip
                spent = [
                    cpu_seconds(pid, tree=True) - b for pid, b in zip(servers, before, strict=True)
                ]
                result["web_ms"] = 1000 * spent[0] / max(result["answered"], 1)
                result["socket_us"] = 1e6 * spent[1] / max(result["deliveries"], 1)
                results.append(result)
            most = connections.stop()
        finally:
            web.stop()
            node.stop()
    r, cpu = results[-1], prepared["cpu"]
    seconds = rounds[-1] * RACES * RACERS / rate
    sockets = RACES * (RACERS + SPECTATORS)
    return [
        TITLE,
        "",
        f"{RACES} races of {RACERS} racers and {SPECTATORS} spectator: {sockets} sockets on "
        f"one ASGI node, moves to gunicorn ({os.cpu_count()} processes each); one move a "
        f"racer every {MOVE_EVERY_S:.0f} s ({rate:.0f} moves/s), {seconds:.0f} s. Each move "
        f"timed from when it was due to its update on the last socket of its race. "
        f"Goal: p99 under {GOAL_MS} ms.",
        "",
        "| moves | answered | failed | lost | HTTP p50 ms | HTTP p99 ms "
        "| to the last socket: p50 ms | p99 ms | max ms | web CPU ms/move "
        "| socket node CPU µs/delivery | connect s |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {r['moves']} | {r['answered']} | {r['failed']} | {r['lost']} | {r['http_p50']:.1f} "
        f"| {r['http_p99']:.1f} | {r['p50']:.1f} | **{r['p99']:.1f}** | {r['max']:.1f} "
        f"| {r['web_ms']:.2f} | {r['socket_us']:.0f} | {r['connect_s']:.1f} |",
        "",
        f"- from the move's HTTP answer to its last socket: p50 {r['after_p50']:.1f} ms, "
        f"p99 {r['after_p99']:.1f} ms",
        f"- PostgreSQL connections at once, both servers (most seen, sampled twice a "
        f"second): **{most}**",
        f"- CPU per move in one process (Django's WSGI handler, {CPU_MOVES:,} of each, "
        f"interleaved): **{cpu['race_ms']:.3f} ms on a race game, {cpu['plain_ms']:.3f} ms "
        f"on a plain game: {cpu['race_ms'] / cpu['plain_ms']:.2f} times**",
    ]


def _healthy(port: int) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


# --- In the scratch site's environment ---------------------------------------------------


def _racer_moves(game: Any) -> list[list[int]]:
    """(cell, value) of each right value the game still needs, in order; the last left out,
    so a bench game never completes."""
    puzzle = game.puzzle
    cells = [i for i, ch in enumerate(puzzle.givens) if ch == "."]
    return [[cell, int(puzzle.solution[cell])] for cell in cells[:-1]]


def _prepare(data_path: str) -> None:
    """RACES running races of RACERS racers (their tokens, games and moves to play) and
    the in-process CPU of a race move against a plain one."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from accounts.services import token_create
    from bench.moves import PUZZLE
    from play.models import Game
    from puzzles.models import Puzzle
    from races import services
    from races.models import Race
    from solver import format_line, parse, solve

    grid = parse(PUZZLE)
    givens, solved = format_line(grid), format_line(solve(grid))

    def relabelled(text: str, shift: int) -> str:
        return "".join(ch if ch == "." else str((int(ch) - 1 + shift) % 9 + 1) for ch in text)

    puzzles = [
        Puzzle.objects.create(
            size=9, box_rows=3, box_cols=3, givens=relabelled(givens, s), difficulty="easy",
            solution=relabelled(solved, s), score=1, clue_count=grid.clues,
            canonical_key=f"{s:064x}", source="imported",
        )
        for s in range(9)
    ]  # fmt: skip
    User = get_user_model()
    users, tokens = [], {}
    for i in range((RACES + 1) * RACERS):
        user = User(username=f"racer{i}")
        user.set_unusable_password()
        user.save()
        users.append(user)
        tokens[user.pk] = token_create(user=user)[1]
    codes = []
    for r in range(RACES + 1):  # the last one's first racer is measured in one process
        seats = users[r * RACERS : (r + 1) * RACERS]
        race = services.race_create(host=seats[0], size=9, difficulty="easy", time_limit_s=180 * 60)
        for user in seats[1:]:
            services.race_join(code=race.code, user=user)
        services.race_start(code=race.code, user=seats[0])
        codes.append(race.code)
    time.sleep(1.2)  # the countdown (RACE_COUNTDOWN_SECONDS=1)
    races = []
    for race in Race.objects.filter(code__in=codes).order_by("pk"):
        race = services.race_advance(race=race, now=timezone.now())
        games = Game.objects.filter(race_id=race.pk).select_related("puzzle").order_by("user_id")
        races.append({
            "id": race.pk, "code": race.code,
            "racers": [[g.user_id, tokens[g.user_id], g.pk, _racer_moves(g)] for g in games],
        })  # fmt: skip
    assert all(len(r["racers"]) == RACERS for r in races), "a race did not begin"
    measured = races.pop()
    Path(data_path).write_text(json.dumps(races))
    print(json.dumps({"races": len(races), "cpu": _move_cpu(measured["racers"][0], puzzles)}))


def _move_cpu(racer: list[Any], puzzles: list[Any]) -> dict[str, float]:
    """CPU per move through Django's WSGI handler, on the racer's race game and on a plain
    game of the same player, in alternating blocks (the same moves: each open cell in turn,
    values 0-9, so neither game completes)."""
    from django.test import Client

    from bench.moves import _wsgi_mover

    _user_id, token, race_game, moves = racer
    race_cells = [cell for cell, _value in moves]
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    puzzle = next(p for p in puzzles if p.pk != _game_puzzle(race_game))
    answer = client.post("/api/v1/games/", {"puzzle": puzzle.pk}, "application/json")
    assert answer.status_code == 201, answer.content
    plain_cells = [i for i, ch in enumerate(puzzle.givens) if ch == "."][:-1]
    race = _wsgi_mover(token, race_game, race_cells)
    plain = _wsgi_mover(token, answer.json()["id"], plain_cells)
    for i in range(200):  # warm up: imports, prepared statements, the Redis connection
        race(i)
        plain(i)
    spent = {"race": 0.0, "plain": 0.0}
    block = 100
    for start in range(0, CPU_MOVES, block):
        for name, mover in (("race", race), ("plain", plain)):
            cpu = time.process_time()
            for i in range(start, start + block):
                mover(i)
            spent[name] += time.process_time() - cpu
    # Seconds over 1,000 moves are milliseconds per move.
    scale = 1000 / CPU_MOVES
    return {"race_ms": spent["race"] * scale, "plain_ms": spent["plain"] * scale}


def _game_puzzle(game_id: int) -> int:
    from play.models import Game

    return Game.objects.values_list("puzzle_id", flat=True).get(pk=game_id)


class _Mover:
    """Keep-alive HTTP connections to the WSGI node, at most CONNECTIONS, opened as needed:
    a move waits for a free one (its wait counts: it is timed from when it was due)."""

    CONNECTIONS = 64

    def __init__(self, port: int) -> None:
        self.port, self.free = port, []  # type: ignore[var-annotated]
        self.slots = asyncio.Semaphore(self.CONNECTIONS)

    async def post(self, game_id: int, token: str, cell: int, value: int) -> int:
        """The answer's status; 0 for no answer (a connection error or a timeout)."""
        async with self.slots:
            try:
                return await self._post(game_id, token, cell, value)
            except (OSError, TimeoutError):
                return 0

    async def _post(self, game_id: int, token: str, cell: int, value: int) -> int:
        from bench.client import _Connection

        body = json.dumps({"client_move_id": str(uuid.uuid4()), "cell": cell, "value": value,
                           "kind": "value"}, separators=(",", ":"))  # fmt: skip
        request = (
            f"POST /api/v1/games/{game_id}/moves/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Token {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n{body}"
        ).encode()
        # A kept connection the server closed while idle (its keep-alive ran out) is
        # dropped, and a move it fails on is sent again on a new one (its client_move_id
        # makes it land once).
        while self.free and self.free[-1].transport.is_closing():
            self.free.pop().close()
        connection = self.free.pop() if self.free else None
        if connection is not None:
            try:
                status, keep = await connection.exchange(request)
            except (OSError, RuntimeError):
                connection.close()
                connection = None
        if connection is None:
            loop = asyncio.get_running_loop()
            _, connection = await loop.create_connection(_Connection, "127.0.0.1", self.port)
            try:
                status, keep = await connection.exchange(request)
            except (OSError, TimeoutError):
                connection.close()
                raise
        if keep:
            self.free.append(connection)
        else:
            connection.close()
        return status


async def _drive(
    web_port: int, ws_port: int, races: list[dict], rate: float, rounds: int, done: int
) -> dict[str, Any]:
    """``rounds`` moves of every racer at ``rate`` moves/s over all, after ``done`` each."""
    import websockets

    from races.auth import SUBPROTOCOL

    per_race = RACERS + SPECTATORS
    due: dict[tuple[int, int], float] = {}  # (player, progress) -> when the move was due
    answered: dict[tuple[int, int], float] = {}  # -> when its HTTP answer arrived
    arrived: dict[tuple[int, int], int] = {}
    latencies: list[float] = []
    fan_out: list[tuple[tuple[int, int], float]] = []  # the last socket's arrival, per move
    http: list[float] = []
    statuses: list[int] = []
    opened: list[int] = []
    ready = asyncio.Event()

    async def listen(code: str, token: str | None) -> None:
        protocols = [SUBPROTOCOL, f"token.{token}"] if token else [SUBPROTOCOL]
        url = f"ws://127.0.0.1:{ws_port}/ws/races/{code}/"
        async with websockets.connect(
            url,
            subprotocols=protocols,
            max_size=2**16,
            open_timeout=240,  # type: ignore[arg-type]
        ) as socket:
            await socket.recv()  # the snapshot
            opened.append(1)
            if len(opened) == len(races) * per_race:
                ready.set()
            async for text in socket:
                now = time.perf_counter()
                message = json.loads(text)
                if message.get("type") != "progress":
                    continue
                key = (message["player"], message["progress"])
                if key in due:
                    arrived[key] = arrived.get(key, 0) + 1
                    if arrived[key] == per_race:
                        latencies.append(1000 * (now - due[key]))
                        fan_out.append((key, now))

    started = time.monotonic()
    tasks = [
        asyncio.create_task(listen(race["code"], token))
        for race in races
        for token in [*(r[1] for r in race["racers"]), *([None] * SPECTATORS)]
    ]
    await asyncio.wait_for(ready.wait(), timeout=300)
    connect_s = time.monotonic() - started

    # Each racer's moves: the next right value of their game, the runs one after another.
    racers = [r for race in races for r in race["racers"]]
    mover, rng = _Mover(web_port), random.Random(done)
    count = rounds * len(racers)
    seconds = count / rate
    times = sorted(rng.uniform(0, seconds) for _ in range(count))
    began = time.perf_counter()

    async def one(n: int, at: float) -> None:
        user_id, token, game_id, moves = racers[n % len(racers)]
        step = done + n // len(racers)
        cell, value = moves[step]
        wait_s = began + at - time.perf_counter()
        if wait_s > 0:
            await asyncio.sleep(wait_s)
        key = (user_id, step + 1)
        due[key] = began + at
        status = await mover.post(game_id, token, cell, value)
        answered[key] = time.perf_counter()
        statuses.append(status)
        http.append(1000 * (time.perf_counter() - began - at))

    await asyncio.gather(*(one(n, at) for n, at in enumerate(times)))
    drain = time.monotonic() + 30  # the last updates in flight; later than this is lost
    while len(latencies) < count and time.monotonic() < drain:
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies.sort()
    http.sort()
    # From the move's HTTP answer to its last socket: the publish and the fan-out, less the
    # answer's own way back (the update can reach the sockets first: a negative time).
    after = sorted(1000 * (last - answered[key]) for key, last in fan_out if key in answered)

    def at(values: list[float], share: float) -> float:
        return values[min(int(share * len(values)), len(values) - 1)] if values else 0.0

    return {
        "moves": count,
        "answered": sum(1 for s in statuses if s == 200),
        "failed": sum(1 for s in statuses if s != 200),
        "lost": sum(1 for s in statuses if s == 200) - len(latencies),
        "deliveries": sum(arrived.values()),
        "p50": statistics.median(latencies) if latencies else 0.0,
        "p99": at(latencies, 0.99),
        "max": latencies[-1] if latencies else 0.0,
        "http_p50": at(http, 0.5),
        "http_p99": at(http, 0.99),
        "after_p50": at(after, 0.5),
        "after_p99": at(after, 0.99),
        "connect_s": connect_s,
    }


def _drive_main(web_port: str, ws_port: str, data_path: str, rate: str, rounds: str,
                done: str) -> None:  # fmt: skip
    import django

    django.setup()
    races = json.loads(Path(data_path).read_text())
    try:  # libuv's loop, where installed: less of the machine's CPU for the same work
        from uvloop import run as runner
    except ImportError:
        runner = asyncio.run
    result = runner(_drive(int(web_port), int(ws_port), races, float(rate), int(rounds), int(done)))
    print(json.dumps(result))


if __name__ == "__main__":
    if sys.argv[1:2] == ["prepare"]:
        _prepare(sys.argv[2])
    elif sys.argv[1:2] == ["drive"]:
        _drive_main(*sys.argv[2:8])
