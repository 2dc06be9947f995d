"""Chaos with live play: ``make chaos``. Faults while players play and a pack is made,
then the invariants; exit 1 when one breaks. What it does and checks: docs/operations.md.

A scratch database (``CHAOS_DATABASE_URL``, default ``.../chaos``, created afresh), a Redis
of its own without persistence (``CHAOS_REDIS_PORT``, default 6390), gunicorn, two Celery
workers and beat, all local.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import shlex
import shutil
import signal
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psutil
import redis

from ops.stack import (
    DRILL_SETTINGS,
    Process,
    free_port,
    migrate,
    recreate_database,
    scratch_database,
    site_environment,
    wait,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/chaos"
DEFAULT_REDIS_PORT, REDIS_DB = 6390, 7
PACK = {"name": "chaos", "size": 9, "difficulty": "medium", "count": 200}
SECOND_PACK = {"name": "chaos after redis", "size": 9, "difficulty": "easy", "count": 10}
GAME_SIZES = (4, 4, 6, 9)  # small boards finish often: many completions to check
PLAYERS, TWO_DEVICE_PLAYERS = 6, 2  # the first two play each game from two devices
THINK_SECONDS = 0.03  # between moves; a second device plays thirty times slower
# Short limits so the faults play out within the run: the hard limit bounds a chunk, the
# visibility timeout brings back a dead worker's message, and the resume sweep sends what
# Redis forgot once a pack has been quiet for STALL seconds.
TASK_SOFT_LIMIT, TASK_LIMIT, VISIBILITY, STALL = 20, 30, 20, 35
RUN_DEADLINE = 220  # seconds from the pack request to both packs done
REQUEST_GIVE_UP = 90  # seconds a device keeps retrying one request


def _redis_up(port: int) -> bool:
    try:
        return bool(redis.Redis(port=port, db=REDIS_DB, socket_timeout=1).ping())
    except redis.RedisError:
        return False


def http_call(port: int, method: str, path: str, token: str = "", body: Any = None) -> tuple:
    """One request on a fresh connection: (status, JSON body or None); OSError when none."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    headers = {"Connection": "close", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = conn.getresponse()
        raw = response.read()
    except http.client.HTTPException as exc:
        raise OSError(type(exc).__name__) from exc
    finally:
        conn.close()
    try:
        return response.status, json.loads(raw) if raw else None
    except ValueError:
        return response.status, None


class Chaos:
    """A run's shared state: the web port, the phase, what the devices saw."""

    def __init__(self, port: int) -> None:
        self.port, self.phase, self.started = port, "warm-up", time.monotonic()
        self.stopping, self.lock = threading.Event(), threading.Lock()
        self.errors: list[dict[str, str]] = []  # phase, request, error, outcome
        # client_move_id -> [(game, kind, cell, value, replayed, completed)] for every 200.
        self.ok_moves: dict[str, list[tuple]] = defaultdict(list)

    def record(self, request: str, error: str) -> dict[str, str]:
        item = {"phase": self.phase, "request": request, "error": error, "outcome": "unresolved"}
        with self.lock:
            self.errors.append(item)
        return item

    def call(self, method: str, path: str, token: str, body: Any = None) -> tuple | None:
        """Send until an answer below 500 comes (the same request: a move keeps its
        client_move_id and version). None if it never came."""
        words = [word for word in path.split("/") if word and not word.isdigit()]
        label, pending, attempt = f"{method} {words[-1]}", [], 0
        give_up = time.monotonic() + REQUEST_GIVE_UP
        while True:
            try:
                status, payload = http_call(self.port, method, path, token, body)
            except OSError as exc:
                pending.append(self.record(label, f"connection error ({exc})"))
            else:
                if status < 500:
                    for item in pending:
                        item["outcome"] = f"retried: {status}"
                    return status, payload
                pending.append(self.record(label, f"HTTP {status}"))
            attempt += 1
            if time.monotonic() > give_up:
                for item in pending:
                    item["outcome"] = f"gave up after {attempt} tries"
                return None
            time.sleep(min(0.05 * 2**attempt, 1.0))


class Device(threading.Thread):
    """One phone of a player. Device 0 starts the player's games; device 1 follows them."""

    def __init__(self, chaos: Chaos, player: dict, index: int, seed: int) -> None:
        super().__init__(daemon=True)
        self.chaos, self.player, self.index = chaos, player, index
        self.token, self.rng = player["tokens"][index], random.Random(seed)
        self.game: dict[str, Any] | None = None
        self.solutions: dict[int, str] = {}
        self.failure = ""

    def run(self) -> None:
        try:
            while not self.chaos.stopping.is_set():
                if self._have_game():
                    self._play_one()
                time.sleep(THINK_SECONDS * (30 if self.index else 1))
        except Exception as exc:  # a bug in the harness must fail the run, not hang it
            self.failure = f"{type(exc).__name__}: {exc}"
            self.chaos.stopping.set()

    def _have_game(self) -> bool:
        game_id, game = self.player["game"], self.game
        if game is not None and game["id"] == game_id and game["status"] == "in_progress":
            return True
        if self.index == 0:
            size = self.rng.choice(GAME_SIZES)
            body = {"difficulty": "easy", "size": size}
            answer = self.chaos.call("POST", "/api/v1/games/", self.token, body)
            if answer is not None and answer[0] != 201:
                self.chaos.record("POST games", f"unexpected HTTP {answer[0]}: {answer[1]}")
            if answer is None or answer[0] != 201:
                return False
            self.game = answer[1]
            self.player["game"] = answer[1]["id"]
            return True
        if game_id is None:
            return False
        answer = self.chaos.call("GET", f"/api/v1/games/{game_id}/", self.token)
        if answer is None or answer[0] != 200:
            return False
        self.game = answer[1]
        return answer[1]["status"] == "in_progress"

    def _choose(self) -> tuple[str, int, int] | None:
        """A right value, now and then a mistake or a note; a wrong entry is fixed first."""
        from solver import SYMBOLS, format_line, parse, solve

        assert self.game is not None
        puzzle, entries = self.game["puzzle"], self.game["entries"]
        if puzzle["id"] not in self.solutions:
            grid = parse(puzzle["givens"], box_rows=puzzle["box_rows"], box_cols=puzzle["box_cols"])
            self.solutions[puzzle["id"]] = format_line(solve(grid))
        solution = self.solutions[puzzle["id"]]
        open_cells = [c for c, ch in enumerate(puzzle["givens"]) if ch == "."]
        wrong = [c for c in open_cells if entries[c] not in (".", solution[c])]
        empty = [c for c in open_cells if entries[c] == "."]
        if not wrong and not empty:
            return None
        cell = self.rng.choice(wrong or empty)
        right, roll = SYMBOLS.index(solution[cell]) + 1, self.rng.random()
        if wrong or roll >= 0.2:
            return "value", cell, right
        if roll < 0.1:
            return "note", cell, self.rng.randint(1, puzzle["size"])
        return "value", cell, right % puzzle["size"] + 1  # a mistake, fixed later

    def _play_one(self) -> None:
        assert self.game is not None
        choice = self._choose()
        if choice is None:
            self.game["status"] = "unknown"  # refetch: the other device may have finished it
            return
        kind, cell, value = choice
        before, move_id, game_id = self.game["entries"][cell], str(uuid.uuid4()), self.game["id"]
        while True:
            body = {
                "client_move_id": move_id,
                "cell": cell,
                "value": value,
                "kind": kind,
                "version": self.game["version"],
            }
            answer = self.chaos.call("POST", f"/api/v1/games/{game_id}/moves/", self.token, body)
            if answer is None:
                return  # recorded as given up: a failure of the run
            status, payload = answer
            if status == 200:
                with self.chaos.lock:
                    self.chaos.ok_moves[move_id].append(
                        (game_id, kind, cell, value, payload["replayed"], payload["completed"])
                    )
                self.game = payload["game"]
                return
            code = (payload or {}).get("error", {}).get("code", "")
            item = self.chaos.record("POST moves", f"HTTP {status} {code}")
            if status == 409 and code == "stale_version":
                self.game = payload["error"]["game"]
                if self.game["status"] == "in_progress" and self.game["entries"][cell] == before:
                    item["outcome"] = "refetched: the move still applies, sent again"
                    continue
                item["outcome"] = "refetched: the other device changed that cell"
                return
            if status == 409 and code in ("game_finished", "cell_has_value"):
                item["outcome"] = "refetched: the other device finished the game or the cell"
                self.game["status"] = "unknown"
                return
            item["outcome"] = "unexpected answer"  # a failure of the run
            return


def _prepare(staff_password: str) -> list[dict]:
    """Players with a token per device, a staff user, a few puzzles of each game size."""
    from django.contrib.auth import get_user_model

    from accounts.services import token_create
    from puzzles.bank import puzzle_get_or_create_from_grid
    from puzzles.models import Source
    from solver.generation.classic import generate

    for size in sorted(set(GAME_SIZES)):
        for i in range(4):
            made = generate(size, level="easy", seed=f"chaos:{size}:{i}")
            puzzle_get_or_create_from_grid(grid=made.puzzle, source=Source.GENERATED)
    users = get_user_model()
    staff = users(username="chaos-staff", is_staff=True, is_superuser=True)
    staff.set_password(staff_password)
    staff.save()
    players = []
    for i in range(PLAYERS):
        user = users(username=f"chaos-player-{i}")
        user.set_unusable_password()
        user.save()
        devices = 2 if i < TWO_DEVICE_PLAYERS else 1
        players.append(
            {"tokens": [token_create(user=user)[1] for _ in range(devices)], "game": None}
        )
    return players


def _pack(pack_id: int) -> tuple[str, int]:
    """(status, puzzles made) of a pack."""
    from puzzles.models import PackEntry, PuzzlePack

    status = PuzzlePack.objects.get(pk=pack_id).status
    return status, PackEntry.objects.filter(pack_id=pack_id).count()


def _children(process: Process) -> set[int]:
    if process.proc is None or not process.alive():
        return set()
    return {child.pid for child in psutil.Process(process.proc.pid).children()}


def _running_chunk_pids(pack_id: int) -> set[int]:
    from puzzles.models import ChunkStatus, PackChunk

    claimed = PackChunk.objects.filter(pack_id=pack_id, status=ChunkStatus.RUNNING)
    return {int(c.rsplit(":", 1)[1]) for c in claimed.values_list("claimed_by", flat=True) if c}


def run(report_path: Path | None) -> int:
    database_url = os.environ.get("CHAOS_DATABASE_URL", DEFAULT_DATABASE_URL)
    url, db_name, maintenance = scratch_database(database_url)
    if urlsplit(url).scheme not in {"postgres", "postgresql"} or "chaos" not in db_name:
        print(
            "chaos: CHAOS_DATABASE_URL must be postgres://... with 'chaos' in the database "
            "name (it is dropped and created afresh)",
            file=sys.stderr,
        )
        return 2
    began, python, lines = time.monotonic(), sys.executable, []
    redis_port = free_port(int(os.environ.get("CHAOS_REDIS_PORT", DEFAULT_REDIS_PORT)))
    tmp = Path(tempfile.mkdtemp(prefix="chaos-"))
    env = site_environment(
        url,
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/{REDIS_DB}",
        LOG_LEVEL="INFO",
        CACHE_KEY_PREFIX="chaos",
        CELERY_DATA_DIR=str(tmp / "celery"),
        CELERY_TASK_SOFT_TIME_LIMIT=str(TASK_SOFT_LIMIT),
        CELERY_TASK_TIME_LIMIT=str(TASK_LIMIT),
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY),
        CELERY_RESTORE_INTERVAL="2",
        PACK_STALL_SECONDS=str(STALL),
        **DRILL_SETTINGS,
    )
    os.environ.update(env)

    def say(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    server = f"redis-server --port {redis_port} --bind 127.0.0.1 --save '' --appendonly no"
    broker = Process("redis", shlex.split(f"{server} --dir {tmp}"), env, tmp)
    web_port = free_port()
    gunicorn = f"-m gunicorn sudokusite.wsgi --log-level warning --bind 127.0.0.1:{web_port}"
    web = Process("web", [python, *shlex.split(gunicorn)], env, tmp)
    celery = [python, "-m", "celery", "-A", "sudokusite"]
    worker = "worker -l INFO --concurrency 1 --without-gossip --without-mingle --hostname"
    workers = [
        Process(f"worker{i}", [*celery, *shlex.split(f"{worker} chaos{i}@%h")], env, tmp)
        for i in (1, 2)
    ]
    beat = Process("beat", [*celery, "beat", "-l", "INFO", "-s", str(tmp / "beat")], env, tmp)
    processes, devices, chaos = [broker, web, *workers, beat], [], Chaos(web_port)

    def web_up() -> bool:
        try:
            return http_call(web_port, "GET", "/api/v1/games/")[0] == 401
        except OSError:
            return False

    def ready(worker: Process) -> bool:
        return worker.alive() and " ready." in worker.output(since_start=True)

    def sign_in() -> str:
        body = {"username": "chaos-staff", "password": staff_password}
        answer = chaos.call("POST", "/api/v1/auth/token/", "", body)
        if answer is None or answer[0] != 200:
            raise RuntimeError(f"sign-in failed: {answer}")
        return answer[1]["token"]

    def ask_pack(spec: dict) -> int:
        answer = chaos.call("POST", "/api/v1/packs/", sign_in(), spec)
        if answer is None or answer[0] != 202:
            raise RuntimeError(f"the pack request answered {answer}")
        return answer[1]["id"]

    def fault(phase: str, text: str) -> None:
        chaos.phase = phase
        say(f"- t={time.monotonic() - chaos.started:5.1f}s {text}; made: {_pack(pack_id)[1]}")

    try:
        say(
            f"# Chaos run {time.strftime('%Y-%m-%d %H:%M:%S')}\n\nDatabase {db_name}, Redis on "
            f"port {redis_port}, gunicorn on port {web_port}, 2 workers, beat; logs in {tmp}."
        )
        recreate_database(maintenance, db_name)
        migrate(env)
        broker.start()
        wait(lambda: _redis_up(redis_port), 20, "Redis")
        import django

        django.setup()
        staff_password = secrets.token_urlsafe(16)
        players = _prepare(staff_password)
        for proc in (web, *workers, beat):
            proc.start()
        wait(web_up, 60, "gunicorn")
        wait(lambda: all(map(ready, workers)), 60, "the workers")
        pack_id = ask_pack(PACK)
        chaos.started = time.monotonic()
        devices = [
            Device(chaos, p, i, seed)
            for seed, (p, i) in enumerate((p, i) for p in players for i in range(len(p["tokens"])))
        ]
        for device in devices:
            device.start()
        say(
            f"{len(devices)} devices of {len(players)} players play while a pack of "
            f"{PACK['count']} is made.\n\n## Faults\n"
        )
        # 1. Restart Redis while chunks wait in its queue: it keeps nothing, so they are lost
        # and only the resume sweep brings them back; then a second pack through the web.
        wait(lambda: _pack(pack_id)[1] >= 10, RUN_DEADLINE, "10 puzzles")
        lost = redis.Redis(port=redis_port, db=REDIS_DB).llen("celery")
        broker.stop()
        fault("Redis restart", f"Redis stopped: the {lost} chunk messages queued in it are lost")
        time.sleep(2)
        broker.start()
        wait(lambda: _redis_up(redis_port), 20, "Redis")
        second_id = ask_pack(SECOND_PACK)
        fault("Redis restart", "Redis started again, empty; a second pack asked for: 202")
        time.sleep(2)
        # 2. SIGKILL gunicorn with requests in flight, then start it again.
        web.kill(signal.SIGKILL)
        fault("web SIGKILL", "SIGKILL gunicorn (master and workers)")
        time.sleep(1)
        web.start()
        wait(web_up, 60, "gunicorn to come back")
        fault("steady", "gunicorn started again")
        # 3. Once the sweep has sent the lost chunks again, SIGKILL a worker holding one.
        victim = workers[0]
        wait(
            lambda: bool(_running_chunk_pids(pack_id) & _children(victim)),
            STALL * 3 + 60,
            "worker1 to hold a chunk again",
        )
        victim.kill(signal.SIGKILL)
        fault("worker SIGKILL", "SIGKILL worker1 (main process and pool) while it held a chunk")
        time.sleep(2)
        victim.start()
        wait(lambda: ready(victim), 60, "worker1 to come back")
        fault("steady", "worker1 started again")
        deadline = time.monotonic() + RUN_DEADLINE
        finished = ("done", "failed", "cancelled")
        wait(
            lambda: (
                all(_pack(p)[0] in finished for p in (pack_id, second_id))
                or time.monotonic() > deadline
                or chaos.stopping.is_set()
            ),
            RUN_DEADLINE + 10,
            "the packs",
        )
        fault("steady", f"packs: {_pack(pack_id)}, {_pack(second_id)}")
        time.sleep(2)
        chaos.stopping.set()
        for device in devices:
            device.join(timeout=REQUEST_GIVE_UP + 20)
        for proc in (beat, *workers, web):
            proc.stop()
        failures = _check(chaos, devices, {pack_id: PACK, second_id: SECOND_PACK}, say)
    except Exception as exc:
        say(f"\nRUN FAILED: {type(exc).__name__}: {exc}")
        for proc in processes:
            say(f"\n--- {proc.name} log (end) ---\n{proc.output()[-2000:]}")
        failures = ["the run"]
    say(
        f"\nResult: {'FAIL' if failures else 'PASS'} ({len(failures)} broken), "
        f"{time.monotonic() - began:.0f} s in all."
    )
    chaos.stopping.set()
    for proc in processes:
        proc.stop()
    from django.db import connections

    connections.close_all()
    if os.environ.get("CHAOS_KEEP_DATABASE") != "1":
        recreate_database(maintenance, db_name, drop_only=True)
    if report_path is not None:
        report_path.write_text("\n".join(lines) + "\n")
    if not failures:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


def _check(chaos: Chaos, devices: list[Device], packs: dict[int, dict], say: Any) -> list[str]:
    from play.models import Game, Move, Status
    from puzzles.models import PackEntry, PuzzlePack
    from solver import count_solutions

    failures: list[str] = []

    def check(ok: bool, text: str) -> None:
        say(f"- {'PASS' if ok else 'FAIL'}: {text}")
        if not ok:
            failures.append(text)

    say("\n## Invariants\n")
    for device in devices:
        if device.failure:
            check(False, f"device {device.name} crashed: {device.failure}")
    for pack_id, spec in packs.items():
        pack = PuzzlePack.objects.get(pk=pack_id)
        entries = list(PackEntry.objects.filter(pack=pack).select_related("puzzle"))
        count, keys = spec["count"], {e.puzzle.canonical_key for e in entries}
        unique = sum(count_solutions(e.puzzle.grid(), limit=2) == 1 for e in entries)
        levels = Counter(e.puzzle.difficulty for e in entries)
        check(
            pack.status == "done"
            and sorted(e.position for e in entries) == list(range(count))
            and len({e.puzzle_id for e in entries}) == len(keys) == unique == count
            and levels == Counter({spec["difficulty"]: count}),
            f"pack {pack.name!r} is {pack.status} with {len(entries)} puzzles at their positions, "
            f"{len(keys)} distinct, {unique} with one solution, levels {dict(levels)}",
        )

    ok_ids = list(chaos.ok_moves)
    logged = Move.objects.filter(client_move_id__in=ok_ids)
    times = Counter(str(m) for m in logged.values_list("client_move_id", flat=True))
    stored = {
        str(r[0]): r[1:]
        for r in logged.values_list("client_move_id", "game_id", "kind", "cell", "value")
    }
    wrong = [
        m
        for m, answers in chaos.ok_moves.items()
        if times[m] != 1 or any(stored.get(m) != a[:4] for a in answers)
    ]
    check(
        not wrong,
        f"{len(ok_ids)} moves answered 200 are each in the move log once, as "
        f"sent ({len(wrong)} not)",
    )

    completing = Counter(
        Move.objects.filter(response__completed=True).values_list("game_id", flat=True)
    )
    completed = Game.objects.filter(status=Status.COMPLETED)
    seen = Counter(
        a[0] for answers in chaos.ok_moves.values() for a in answers if a[5] and not a[4]
    )
    broken = (
        sum(n > 1 for n in completing.values())
        + sum(n > 1 for n in seen.values())
        + completed.exclude(pk__in=list(completing)).count()
        + completed.filter(score__isnull=True).count()
        + Game.objects.exclude(status=Status.COMPLETED).filter(score__isnull=False).count()
    )
    check(
        not broken,
        f"{completed.count()} of {Game.objects.count()} games completed, each "
        f"by one move with one score ({broken} exceptions)",
    )

    bad = [e for e in chaos.errors if not e["outcome"].startswith(("retried", "refetched"))]
    check(
        not bad,
        f"{len(chaos.errors)} client errors, each retried to success or made moot "
        f"by the other device ({len(bad)} not: {bad[:3]})",
    )
    say("\n| phase | request | error | outcome | count |\n|---|---|---|---|---:|")
    kinds = Counter(tuple(e.values()) for e in chaos.errors)
    for (phase, request, error, outcome), n in sorted(kinds.items()):
        say(f"| {phase} | {request} | {error} | {outcome} | {n} |")
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", type=Path, help="also write the report to this file")
    return run(parser.parse_args(argv).report)


if __name__ == "__main__":
    sys.exit(main())
