"""Race updates under load: from a racer's move to every socket of the race.

A scratch database holds RACES races of RACERS racers. The ASGI node (``make asgi``:
gunicorn, ``sudokusite.workers.AsgiWorker``, one process per core) serves their sockets,
and a client process opens one socket per racer (RACES x RACERS), then publishes progress
updates as a move on a race game does (``races.broadcast``: one PUBLISH on the Redis
Pub/Sub channel layer, the message encoded once) at a fixed total rate, and times
each update from its ``group_send`` to its arrival on every socket of its race. The
client shares the machine's cores with the server, PostgreSQL and Redis, so its own
scheduling counts in the latency. Needs DATABASE_URL (PostgreSQL) and REDIS_URL.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.stack import cpu_seconds, run_driver
from ops.stack import Process, free_port, listening, scratch_site, wait

TITLE = "## Race updates (ASGI node + Redis channel layer)"
RACES, RACERS = 100, 8
# Updates a second over all races: about one a racer every 8 s, then four times that.
RATES = (100, 400)
GOAL_MS = 50


def run(quick: bool = False) -> list[str]:
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        return [TITLE, "", "skipped: needs DATABASE_URL=postgres://... and REDIS_URL"]
    seconds = 5 if quick else 15
    rows = []
    site = scratch_site(database_url, "_racebench", CACHE_KEY_PREFIX="racebench")
    with site as env, tempfile.TemporaryDirectory(prefix="racebench-") as tmp_name:
        tmp, port = Path(tmp_name), free_port()
        data = tmp / "races.json"
        argv = [sys.executable, "-m", "gunicorn", "sudokusite.asgi:application"]
        argv += ["--worker-class", "sudokusite.workers.AsgiWorker", "--log-level", "warning"]
        node = Process("asgi", [*argv, "--bind", f"127.0.0.1:{port}"], env, tmp)
        try:
            run_driver(env, "bench.races", "prepare", str(data))
            node.start()
            wait(lambda: listening(port), 60, "the ASGI node")
            # The first run warms the node up (its workers' first sockets and publishes).
            for number, rate in enumerate((RATES[0], *RATES)):
                before = cpu_seconds(node.proc.pid, tree=True)  # type: ignore[union-attr]
                result = run_driver(
                    env, "bench.races", "drive", str(port), str(data), str(rate),
                    str(seconds if number else 3),
                    timeout=seconds + 300,
                )  # fmt: skip
                spent = cpu_seconds(node.proc.pid, tree=True) - before  # type: ignore[union-attr]
                result["server_cpu_us"] = 1e6 * spent / max(result["deliveries"], 1)
                rows += [(rate, result)] if number else []
        finally:
            node.stop()
    return [
        TITLE,
        "",
        f"{RACES} races of {RACERS} racers: {RACES * RACERS} sockets on one ASGI node "
        f"({os.cpu_count()} processes), {seconds} s per rate. Goal: p99 under {GOAL_MS} ms.",
        "",
        "| updates/s | deliveries | lost | p50 ms | p99 ms | max ms "
        "| node CPU µs/delivery | connect s |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        *(
            f"| {rate} | {r['deliveries']} | {r['lost']} | {r['p50']:.1f} | "
            f"**{r['p99']:.1f}** | {r['max']:.1f} | {r['server_cpu_us']:.0f} "
            f"| {r['connect_s']:.1f} |"
            for rate, r in rows
        ),
    ]


# --- In the scratch site's environment ---------------------------------------------------


def _prepare(data_path: str) -> None:
    """RACES races in their lobby, each with RACERS racers; their codes and ids."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from races.models import Race, Racer

    User = get_user_model()
    users = User.objects.bulk_create(
        [User(username=f"racer{i}", password="!") for i in range(RACES * RACERS)]
    )
    races = Race.objects.bulk_create(
        [Race(code=f"bench{i:04d}", host=users[i * RACERS]) for i in range(RACES)]
    )
    Racer.objects.bulk_create(
        [Racer(race=race, user=users[i * RACERS + j]) for i, race in enumerate(races)
         for j in range(RACERS)]
    )  # fmt: skip
    Path(data_path).write_text(json.dumps([[r.pk, r.code] for r in races]))
    print(json.dumps({"races": len(races)}))


async def _drive(port: int, races: list[list[Any]], rate: int, seconds: float) -> dict:
    import websockets
    from channels.layers import get_channel_layer

    from races.broadcast import EVENT, encode, group_name

    sent: dict[tuple[int, int], float] = {}
    latencies: list[float] = []

    async def listen(race_id: int, code: str, ready: asyncio.Event, opened: list) -> None:
        url = f"ws://127.0.0.1:{port}/ws/races/{code}/"
        async with websockets.connect(url, max_size=2**16, open_timeout=120) as socket:
            await socket.recv()  # the snapshot
            opened.append(1)
            if len(opened) == len(races) * RACERS:
                ready.set()
            async for text in socket:
                arrived = time.time()
                message = json.loads(text)
                if message.get("type") == "progress":
                    at = sent.get((race_id, message["progress"]))
                    if at is not None:
                        latencies.append(1000 * (arrived - at))

    ready, opened = asyncio.Event(), []
    started = time.monotonic()
    tasks = [
        asyncio.create_task(listen(race_id, code, ready, opened))
        for race_id, code in races
        for _ in range(RACERS)
    ]
    await asyncio.wait_for(ready.wait(), timeout=240)
    connect_s = time.monotonic() - started
    layer = get_channel_layer()
    interval, count = 1 / rate, int(rate * seconds)
    begin = time.monotonic()
    for n in range(count):
        delay = begin + n * interval - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        race_id = races[n % len(races)][0]
        seq = n // len(races) + 1
        message = {"type": "progress", "player": race_id, "progress": seq, "mistakes": 0}
        sent[(race_id, seq)] = time.time()
        event = {"type": EVENT, "text": encode(message), "due_at": None}
        await layer.group_send(group_name(race_id), event)
    expected = count * RACERS
    drain = time.monotonic() + 30  # the last updates in flight; later than this is lost
    while len(latencies) < expected and time.monotonic() < drain:
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies.sort()
    return {
        "deliveries": len(latencies),
        "lost": expected - len(latencies),
        "p50": statistics.median(latencies) if latencies else 0.0,
        "p99": latencies[int(0.99 * (len(latencies) - 1))] if latencies else 0.0,
        "max": latencies[-1] if latencies else 0.0,
        "connect_s": connect_s,
    }


def _drive_main(port: str, data_path: str, rate: str, seconds: str) -> None:
    import django

    django.setup()
    races = json.loads(Path(data_path).read_text())
    result = asyncio.run(_drive(int(port), races, int(rate), float(seconds)))
    print(json.dumps(result))


if __name__ == "__main__":
    if sys.argv[1:2] == ["prepare"]:
        _prepare(sys.argv[2])
    elif sys.argv[1:2] == ["drive"]:
        _drive_main(*sys.argv[2:6])
