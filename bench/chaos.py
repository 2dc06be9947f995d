"""Chaos with live play: faults while players play and a pack is made, then the invariants.

Everything is real and local: a scratch PostgreSQL database (``CHAOS_DATABASE_URL``,
default ``postgres://postgres@127.0.0.1:5432/chaos``, dropped and created afresh), a
Redis server of our own (``redis-server --save "" --appendonly no`` on
``CHAOS_REDIS_PORT``, default 6390, so restarting it never touches anyone else's Redis,
and it keeps nothing on disk: a restart loses every queued message), gunicorn on a free
localhost port, two Celery workers (one process each) and Celery beat.

While simulated players play over HTTP (several devices, each with its own token; two
players play one game from two devices, so writes race and 409 stale_version happens),
and a pack of 200 9x9 medium puzzles is made (about a tenth of a second a puzzle here,
so the pack is still being made when each fault hits), the run:

1. restarts Redis while most of the pack's chunks wait in its queue (lost with it), then
   signs in and asks for a second, small pack through the web process (which must
   reconnect to Redis for both);
2. SIGKILLs gunicorn (master and workers, requests in flight) and starts it again;
3. once the resume sweep has sent the lost chunks again, SIGKILLs a worker (main process
   and pool) while it holds a chunk, and starts it again.

Every move carries a client_move_id; on a connection error or a 5xx the device sends
the same request again (same id, same version), on 409 stale_version it takes the game
from the answer and sends the move again if it still applies. Afterwards it checks:

- each pack is done with exactly its count of distinct puzzles, each with one solution
  (``count_solutions(limit=2) == 1``);
- every move a device got a 200 for is in the move log exactly once (by client_move_id),
  as the move it sent;
- no game completed twice: at most one completing move per game, a score exactly on
  the completed games;
- every error a device saw was retried to success (or, for a 409, the other device's
  write made the move moot): no work lost.

It prints a report (``--report PATH`` writes it to a file too) and exits 1 when an
invariant fails. Run it with ``make chaos`` (about three minutes).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/chaos"
DEFAULT_REDIS_PORT = 6390
REDIS_DB = 7

PACK = {"name": "chaos", "size": 9, "difficulty": "medium", "count": 200}
SECOND_PACK = {"name": "chaos after redis", "size": 9, "difficulty": "easy", "count": 10}
GAME_SIZES = (4, 4, 6, 9)  # small boards finish often: many completions to check
PLAYERS = 6
TWO_DEVICE_PLAYERS = 2  # the first two players play each game from two devices
THINK_SECONDS = 0.03  # between moves; a second device plays thirty times slower

# Short limits so the faults' consequences play out within the run: the hard time limit
# bounds a chunk, the visibility timeout brings back a dead worker's message, and the
# resume sweep sends what Redis forgot once a pack has been quiet for PACK_STALL_SECONDS.
TASK_SOFT_LIMIT, TASK_LIMIT, VISIBILITY, STALL = 20, 30, 20, 35
RUN_DEADLINE = 220  # seconds from the pack request to both packs done
REQUEST_GIVE_UP = 90  # seconds a device keeps retrying one request


# --- Processes ---------------------------------------------------------------------------


class Process:
    """A child process in its own session (so a signal reaches all of its children)."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], logs: Path) -> None:
        self.name, self.argv, self.env = name, argv, env
        self.log_path = logs / f"{name}.log"
        self.proc: subprocess.Popen | None = None
        self.log_offset = 0

    def start(self) -> None:
        self.log_offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        log = self.log_path.open("a")
        self.proc = subprocess.Popen(
            self.argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        log.close()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.alive():
            assert self.proc is not None
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                return
            self.proc.wait()

    def stop(self) -> None:
        if not self.alive():
            return
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()

    def children(self) -> set[int]:
        if not self.alive():
            return set()
        assert self.proc is not None
        found = set()
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == self.proc.pid:
                found.add(int(stat.parent.name))
        return found

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def output_since_start(self) -> str:
        if not self.log_path.exists():
            return ""
        with self.log_path.open("rb") as log:
            log.seek(self.log_offset)
            return log.read().decode(errors="replace")


def _free_port(preferred: int | None = None) -> int:
    for port in ([preferred] if preferred else []) + [0]:
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers do
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError("no free port")


def _wait(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"gave up waiting for {what}")
        time.sleep(0.1)


def _redis_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


# --- HTTP --------------------------------------------------------------------------------


class TransportError(Exception):
    """No HTTP answer: refused, reset, timed out."""


def http_call(
    port: int, method: str, path: str, *, token: str | None = None, body: Any = None
) -> tuple[int, Any]:
    """One request on a fresh connection: (status, JSON body or None)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    headers = {"Connection": "close"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
    except (OSError, http.client.HTTPException) as exc:
        raise TransportError(type(exc).__name__) from exc
    finally:
        conn.close()
    try:
        payload = json.loads(raw) if raw else None
    except ValueError:
        payload = None
    return response.status, payload


# --- Players -----------------------------------------------------------------------------


@dataclass
class ClientError:
    at: float
    phase: str
    device: str
    request: str
    error: str
    client_move_id: str = ""
    outcome: str = "unresolved"


@dataclass
class Player:
    name: str
    tokens: list[str]
    game_id: int | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class Chaos:
    """Shared state of a run: the web port, the current phase, what the devices saw."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.phase = "warm-up"
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.errors: list[ClientError] = []
        # client_move_id -> (game, kind, cell, value, replayed, completed), for every 200.
        self.ok_moves: dict[str, list[tuple[int, str, int, int, bool, bool]]] = defaultdict(list)
        self.requests = Counter()
        self.started = time.monotonic()

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def record(
        self, device: str, request: str, error: str, client_move_id: str = ""
    ) -> ClientError:
        item = ClientError(self.elapsed(), self.phase, device, request, error, client_move_id)
        with self.lock:
            self.errors.append(item)
        return item

    def call(
        self,
        device: str,
        label: str,
        method: str,
        path: str,
        *,
        token: str,
        body: Any = None,
        client_move_id: str = "",
    ) -> tuple[int, Any] | None:
        """Send until an answer below 500 comes (the same request each time: a move keeps
        its client_move_id and version). None if it never came."""
        pending: list[ClientError] = []
        give_up = time.monotonic() + REQUEST_GIVE_UP
        attempt = 0
        while True:
            with self.lock:
                self.requests[label] += 1
            try:
                status, payload = http_call(self.port, method, path, token=token, body=body)
            except TransportError as exc:
                pending.append(
                    self.record(device, label, f"connection error ({exc})", client_move_id)
                )
            else:
                if status < 500:
                    for item in pending:
                        item.outcome = f"retried: {status} after {attempt + 1} tries"
                    return status, payload
                pending.append(self.record(device, label, f"HTTP {status}", client_move_id))
            attempt += 1
            if time.monotonic() > give_up:
                for item in pending:
                    item.outcome = f"gave up after {attempt} tries"
                return None
            time.sleep(min(0.05 * 2**attempt, 1.0))


def _symbol_value(ch: str) -> int:
    from solver import SYMBOLS

    return 0 if ch == "." else SYMBOLS.index(ch) + 1


class Device(threading.Thread):
    """One phone or browser of a player, playing the player's current game."""

    def __init__(self, chaos: Chaos, player: Player, index: int, seed: int) -> None:
        super().__init__(name=f"{player.name}/{index}", daemon=True)
        self.chaos, self.player, self.index = chaos, player, index
        self.token = player.tokens[index]
        self.rng = random.Random(seed)
        self.game: dict[str, Any] | None = None
        self.solutions: dict[int, str] = {}
        self.failure: str = ""

    # The leader device starts the games; the other follows the player's current game.
    def run(self) -> None:
        try:
            while not self.chaos.stopping.is_set():
                if not self._have_game():
                    time.sleep(0.05)
                    continue
                self._play_one()
                time.sleep(THINK_SECONDS * (30 if self.index else 1))
        except Exception as exc:  # a bug in the harness must fail the run, not hang it
            self.failure = f"{type(exc).__name__}: {exc}"
            self.chaos.stopping.set()

    def _have_game(self) -> bool:
        game_id = self.player.game_id
        if (
            self.game is not None
            and self.game["id"] == game_id
            and self.game["status"] == "in_progress"
        ):
            return True
        if self.index == 0 and (game_id is None or (self.game and self.game["id"] == game_id)):
            return self._start_game()
        if game_id is None:
            return False
        answer = self.chaos.call(
            self.name, "GET game", "GET", f"/api/v1/games/{game_id}/", token=self.token
        )
        if answer is None or answer[0] != 200:
            return False
        self.game = answer[1]
        return self.game["status"] == "in_progress"

    def _start_game(self) -> bool:
        size = self.rng.choice(GAME_SIZES)
        answer = self.chaos.call(
            self.name, "POST game", "POST", "/api/v1/games/", token=self.token,
            body={"difficulty": "easy", "size": size},
        )  # fmt: skip
        if answer is None or answer[0] != 201:
            if answer is not None:
                self.chaos.record(
                    self.name, "POST game", f"unexpected HTTP {answer[0]}: {answer[1]}"
                )
            return False
        self.game = answer[1]
        self.player.game_id = self.game["id"]
        return True

    def _solution(self) -> str:
        assert self.game is not None
        puzzle = self.game["puzzle"]
        if puzzle["id"] not in self.solutions:
            from solver import format_line, parse, solve

            grid = parse(puzzle["givens"], box_rows=puzzle["box_rows"], box_cols=puzzle["box_cols"])
            self.solutions[puzzle["id"]] = format_line(solve(grid))
        return self.solutions[puzzle["id"]]

    def _choose(self) -> tuple[str, int, int] | None:
        assert self.game is not None
        entries, givens = self.game["entries"], self.game["puzzle"]["givens"]
        solution = self._solution()
        open_cells = [c for c, ch in enumerate(givens) if ch == "."]
        wrong = [c for c in open_cells if entries[c] not in (".", solution[c])]
        empty = [c for c in open_cells if entries[c] == "."]
        if wrong:
            cell = self.rng.choice(wrong)
            return "value", cell, _symbol_value(solution[cell])
        if not empty:
            return None
        cell = self.rng.choice(empty)
        size = self.game["puzzle"]["size"]
        roll = self.rng.random()
        if roll < 0.10:
            return "note", cell, self.rng.randint(1, size)
        if roll < 0.20:
            right = _symbol_value(solution[cell])
            return "value", cell, right % size + 1  # a mistake, fixed on a later move
        return "value", cell, _symbol_value(solution[cell])

    def _play_one(self) -> None:
        assert self.game is not None
        choice = self._choose()
        if choice is None:
            self.game["status"] = "unknown"  # refetch: the other device may have finished it
            return
        kind, cell, value = choice
        before = self.game["entries"][cell]
        move_id = str(uuid.uuid4())
        game_id = self.game["id"]
        while True:
            body = {
                "client_move_id": move_id, "cell": cell, "value": value, "kind": kind,
                "version": self.game["version"],
            }  # fmt: skip
            answer = self.chaos.call(
                self.name, "POST move", "POST", f"/api/v1/games/{game_id}/moves/",
                token=self.token, body=body, client_move_id=move_id,
            )  # fmt: skip
            if answer is None:
                return  # already recorded as given up: a failure of the run
            status, payload = answer
            if status == 200:
                with self.chaos.lock:
                    self.chaos.ok_moves[move_id].append(
                        (game_id, kind, cell, value, payload["replayed"], payload["completed"])
                    )
                self.game = payload["game"]
                return
            code = (payload or {}).get("error", {}).get("code", "")
            item = self.chaos.record(self.name, "POST move", f"HTTP {status} {code}", move_id)
            if status == 409 and code == "stale_version":
                self.game = payload["error"]["game"]
                if self.game["status"] == "in_progress" and self.game["entries"][cell] == before:
                    item.outcome = "refetched the game; the move still applied: sent again"
                    self._resolve_later(item, move_id)
                    continue
                item.outcome = "refetched the game; the other device changed that cell: not sent"
                return
            if status == 409 and code in ("game_finished", "cell_has_value"):
                item.outcome = "refetched: the other device finished the game or filled the cell"
                self.game["status"] = "unknown"
                return
            item.outcome = "unexpected answer"  # a failure of the run
            return

    def _resolve_later(self, item: ClientError, move_id: str) -> None:
        """Mark the stale-version error resolved once the same move id gets its 200."""
        self.chaos.pending_resends.append((item, move_id))


# --- The run -----------------------------------------------------------------------------


def _database_urls(url: str) -> tuple[str, str, str]:
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    maintenance = urlunsplit(parts._replace(path="/postgres", scheme="postgresql"))
    return url, maintenance, name


def _recreate_database(maintenance: str, name: str, *, drop_only: bool = False) -> None:
    import psycopg

    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


def _environment(database_url: str, redis_port: int, tmp: Path) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "PACK_"))},
        "DJANGO_SETTINGS_MODULE": "sudokusite.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/{REDIS_DB}",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "SECURE_HSTS_SECONDS": "0",
        "LOG_LEVEL": "INFO",
        "CACHE_KEY_PREFIX": "chaos",
        "CELERY_DATA_DIR": str(tmp / "celery"),
        "CELERY_TASK_SOFT_TIME_LIMIT": str(TASK_SOFT_LIMIT),
        "CELERY_TASK_TIME_LIMIT": str(TASK_LIMIT),
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY),
        "CELERY_RESTORE_INTERVAL": "2",
        "PACK_STALL_SECONDS": str(STALL),
        # The periodic top-up would queue packs of every size and level: not our subject.
        "PUZZLE_BANK_MINIMUM": "0",
        "PUZZLE_BANK_TARGET": "1",
        "PYTHONPATH": str(ROOT),
        "PYTHONWARNINGS": "ignore::UserWarning",
    }


def _prepare(staff_password: str) -> list[Player]:
    """Players with a token per device, a staff user, a few puzzles of each game size."""
    from django.contrib.auth import get_user_model

    from accounts.services import token_create
    from puzzles.bank import puzzle_get_or_create_from_grid
    from puzzles.models import Source
    from solver.generate import generate

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
        players.append(Player(user.username, [token_create(user=user)[1] for _ in range(devices)]))
    return players


def run(report_path: Path | None) -> int:
    database_url = os.environ.get("CHAOS_DATABASE_URL", DEFAULT_DATABASE_URL)
    if urlsplit(database_url).scheme not in {"postgres", "postgresql"}:
        print("chaos: CHAOS_DATABASE_URL must be postgres://...", file=sys.stderr)
        return 2
    url, maintenance, db_name = _database_urls(database_url)
    if "chaos" not in db_name:
        print(f"chaos: the database {db_name!r} is dropped and created afresh: its name "
              "must contain 'chaos'.", file=sys.stderr)  # fmt: skip
        return 2
    began = time.monotonic()
    redis_port = _free_port(int(os.environ.get("CHAOS_REDIS_PORT", DEFAULT_REDIS_PORT)))
    tmp = Path(tempfile.mkdtemp(prefix="chaos-"))
    env = _environment(url, redis_port, tmp)
    os.environ.update(env)
    python = sys.executable
    lines: list[str] = []

    def say(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    redis = Process(
        "redis",
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp)],
        env, tmp,
    )  # fmt: skip
    web_port = _free_port()
    web = Process("web", _gunicorn_argv(python, web_port), env, tmp)
    worker_argv = [
        python, "-m", "celery", "-A", "sudokusite", "worker", "--loglevel", "INFO",
        "--pool", "prefork", "--concurrency", "1", "--without-gossip", "--without-mingle",
    ]  # fmt: skip
    workers = [
        Process(f"worker{i}", [*worker_argv, "--hostname", f"chaos{i}@%h"], env, tmp)
        for i in (1, 2)
    ]
    beat = Process(
        "beat",
        [python, "-m", "celery", "-A", "sudokusite", "beat", "--loglevel", "INFO",
         "--schedule", str(tmp / "beat-schedule")],
        env, tmp,
    )  # fmt: skip
    processes = [redis, web, *workers, beat]
    devices: list[Device] = []
    chaos = Chaos(web_port)
    chaos.pending_resends = []  # type: ignore[attr-defined]
    faults: list[str] = []
    try:
        say(f"# Chaos run {time.strftime('%Y-%m-%d %H:%M:%S')}")
        say("")
        say(f"Database {db_name} (created afresh), own Redis on port {redis_port} (no "
            f"persistence), gunicorn on port {web_port}, 2 Celery workers (1 process each), "
            f"beat; logs in {tmp} (kept if the run fails).")  # fmt: skip
        _recreate_database(maintenance, db_name)
        subprocess.run([python, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                       env=env, check=True)  # fmt: skip
        redis.start()
        _wait(lambda: _redis_ping(redis_port), 20, "Redis")

        import django

        django.setup()
        staff_password = secrets.token_urlsafe(16)
        players = _prepare(staff_password)
        for proc in (web, *workers, beat):
            proc.start()
        _wait(lambda: _web_up(web_port), 60, "gunicorn")
        _wait(lambda: all(_worker_ready(w) for w in workers), 60, "the workers")

        staff_token = _login(chaos, staff_password)
        status, pack = chaos.call("staff", "POST pack", "POST", "/api/v1/packs/",
                                  token=staff_token, body=PACK) or (0, None)  # fmt: skip
        if status != 202:
            raise RuntimeError(f"the pack request answered {status}: {pack}")
        pack_id = pack["id"]
        chaos.started = time.monotonic()
        say(f"Pack {PACK['name']!r}: {PACK['count']} {PACK['size']}x{PACK['size']} "
            f"{PACK['difficulty']} puzzles, asked for through the API.")  # fmt: skip
        seed = 1
        for player in players:
            for index in range(len(player.tokens)):
                devices.append(Device(chaos, player, index, seed))
                seed += 1
        for device in devices:
            device.start()
        say(f"{len(devices)} devices of {len(players)} players playing "
            f"({TWO_DEVICE_PLAYERS} players on two devices at once).")  # fmt: skip
        say("")
        say("## Faults")
        say("")

        def fault(text: str) -> None:
            faults.append(text)
            say(f"- t={chaos.elapsed():5.1f}s {text}")

        deadline = time.monotonic() + RUN_DEADLINE
        # 1. Restart Redis while most chunks wait in its queue: it keeps nothing, so their
        # messages are lost; only the resume sweep can bring them back.
        _wait(lambda: _made(pack_id) >= 10, RUN_DEADLINE, "10 puzzles")
        chaos.phase = "Redis restart"
        lost = _redis_queue_length(redis_port)
        redis.stop()
        fault(f"Redis stopped: the {lost} chunk message(s) queued in it are lost; "
              f"{_made(pack_id)} puzzles made")  # fmt: skip
        time.sleep(2)
        redis.start()
        _wait(lambda: _redis_ping(redis_port), 20, "Redis to come back")
        fault("Redis started again, empty")
        staff_token = _login(chaos, staff_password)
        fault("signed in through the web process (its throttle counters live in Redis): 200")
        status, second = chaos.call("staff", "POST pack", "POST", "/api/v1/packs/",
                                    token=staff_token, body=SECOND_PACK) or (0, None)  # fmt: skip
        if status != 202:
            raise RuntimeError(f"the second pack request answered {status}: {second}")
        second_spec = f"{SECOND_PACK['count']} {SECOND_PACK['size']}x{SECOND_PACK['size']}"
        fault(f"asked for a second pack through the web process ({second_spec} "
              f"{SECOND_PACK['difficulty']}): 202")  # fmt: skip
        time.sleep(2)
        chaos.phase = "steady"

        # 2. SIGKILL gunicorn with requests in flight, then start it again.
        chaos.phase = "web SIGKILL"
        web.kill(signal.SIGKILL)
        fault(f"SIGKILL gunicorn (master and workers); {_made(pack_id)} puzzles made")
        time.sleep(1)
        web.start()
        _wait(lambda: _web_up(web_port), 60, "gunicorn to come back")
        fault("gunicorn started again")
        time.sleep(2)
        chaos.phase = "steady"

        # 3. Once the sweep has sent the lost chunks again, SIGKILL a worker while it
        # holds one, then start it again: Redis now has its unacknowledged message.
        victim = workers[0]
        _wait(lambda: bool(_running_chunk_pids(pack_id) & victim.children()),
              STALL * 3 + 60, "worker1 to hold a chunk again")  # fmt: skip
        fault(f"the pack moves again: {_made(pack_id)} puzzles made")
        held = _running_chunks(pack_id, victim.children())
        chaos.phase = "worker SIGKILL"
        victim.kill(signal.SIGKILL)
        fault(f"SIGKILL worker1 (main process and pool) while it held chunk(s) {held}; "
              f"{_made(pack_id)} puzzles made")  # fmt: skip
        time.sleep(2)
        victim.start()
        _wait(lambda: _worker_ready(victim), 60, "worker1 to come back")
        fault("worker1 started again")
        time.sleep(2)
        chaos.phase = "steady"

        _wait(
            lambda: (_pack_finished(pack_id) and _pack_finished(second["id"]))
            or time.monotonic() > deadline
            or chaos.stopping.is_set(),
            RUN_DEADLINE + 10, "the packs",
        )  # fmt: skip
        fault(f"packs finished: {_pack_line(pack_id)}; {_pack_line(second['id'])}")
        time.sleep(2)
    except Exception as exc:
        say(f"\nRUN FAILED: {type(exc).__name__}: {exc}")
        for proc in processes:
            tail = proc.output()[-2000:]
            if tail:
                say(f"\n--- {proc.name} log (end) ---\n{tail}")
        return _finish(chaos, processes, maintenance, db_name, lines, report_path, tmp, 1)
    chaos.stopping.set()
    for device in devices:
        device.join(timeout=REQUEST_GIVE_UP + 20)
    for proc in (beat, *workers, web):
        proc.stop()
    failures = _check(chaos, devices, [pack_id, second["id"]], [PACK, SECOND_PACK], workers,
                      beat, say)  # fmt: skip
    say("")
    say(f"Result: {'FAIL' if failures else 'PASS'} ({len(failures)} invariant(s) broken), "
        f"{time.monotonic() - began:.0f} s in all.")  # fmt: skip
    return _finish(chaos, processes, maintenance, db_name, lines, report_path, tmp,
                   1 if failures else 0)  # fmt: skip


def _finish(chaos, processes, maintenance, db_name, lines, report_path, tmp, code) -> int:
    chaos.stopping.set()
    for proc in processes:
        proc.stop()
    from django.db import connections

    connections.close_all()
    if os.environ.get("CHAOS_KEEP_DATABASE") != "1":
        _recreate_database(maintenance, db_name, drop_only=True)
    if report_path is not None:
        report_path.write_text("\n".join(lines) + "\n")
    if code == 0:
        shutil.rmtree(tmp, ignore_errors=True)
    return code


def _gunicorn_argv(python: str, port: int) -> list[str]:
    """As in production: gunicorn.conf.py sets the workers and threads."""
    return [
        python, "-m", "gunicorn", "sudokusite.wsgi", "--bind", f"127.0.0.1:{port}",
        "--log-level", "warning",
    ]  # fmt: skip


def _web_up(port: int) -> bool:
    try:
        status, _ = http_call(port, "GET", "/api/v1/games/")
    except TransportError:
        return False
    return status == 401  # answered, by the application


def _worker_ready(worker: Process) -> bool:
    return worker.alive() and " ready." in worker.output_since_start()


def _login(chaos: Chaos, password: str) -> str:
    answer = chaos.call("staff", "POST token", "POST", "/api/v1/auth/token/", token="",
                        body={"username": "chaos-staff", "password": password})  # fmt: skip
    if answer is None or answer[0] != 200:
        raise RuntimeError(f"sign-in failed: {answer}")
    return answer[1]["token"]


def _redis_queue_length(port: int) -> int:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(f"SELECT {REDIS_DB}\r\nLLEN celery\r\n".encode())
            time.sleep(0.1)
            reply = s.recv(256).decode().split("\r\n")
        return int(reply[1].lstrip(":"))
    except (OSError, ValueError, IndexError):
        return -1


def _made(pack_id: int) -> int:
    from puzzles.models import PackEntry

    return PackEntry.objects.filter(pack_id=pack_id).count()


def _pack_finished(pack_id: int) -> bool:
    from puzzles.models import PuzzlePack

    return PuzzlePack.objects.get(pk=pack_id).status in PuzzlePack.FINISHED


def _pack_line(pack_id: int) -> str:
    from puzzles.models import PuzzlePack

    pack = PuzzlePack.objects.get(pk=pack_id)
    return f"{pack.name!r} {pack.status} with {_made(pack_id)}/{pack.count}"


def _running_chunks(pack_id: int, pids: set[int]) -> list[int]:
    from puzzles.models import ChunkStatus, PackChunk

    rows = PackChunk.objects.filter(pack_id=pack_id, status=ChunkStatus.RUNNING)
    return [c.number for c in rows if c.claimed_by and int(c.claimed_by.rsplit(":", 1)[1]) in pids]


def _running_chunk_pids(pack_id: int) -> set[int]:
    from puzzles.models import ChunkStatus, PackChunk

    claimed = PackChunk.objects.filter(pack_id=pack_id, status=ChunkStatus.RUNNING).values_list(
        "claimed_by", flat=True
    )
    return {int(c.rsplit(":", 1)[1]) for c in claimed if c}


# --- The invariants ----------------------------------------------------------------------


def _check(chaos, devices, pack_ids, specs, workers, beat, say) -> list[str]:
    from play.models import Game, Move, Status
    from puzzles.models import PackChunk, PackEntry, PuzzlePack
    from solver import count_solutions

    failures: list[str] = []

    def check(ok: bool, text: str) -> None:
        say(f"- {'PASS' if ok else 'FAIL'}: {text}")
        if not ok:
            failures.append(text)

    for device in devices:
        if device.failure:
            check(False, f"device {device.name} crashed: {device.failure}")
    for item, move_id in chaos.pending_resends:
        if chaos.ok_moves.get(move_id):
            item.outcome = "refetched the game; sent again with the same id: 200"
        else:
            item.outcome = (
                "refetched the game; sent again, then the other device's write made it moot"
            )

    say("")
    say("## Invariants")
    say("")
    for pack_id, spec in zip(pack_ids, specs, strict=True):
        pack = PuzzlePack.objects.get(pk=pack_id)
        entries = list(PackEntry.objects.filter(pack=pack).select_related("puzzle"))
        positions = sorted(e.position for e in entries)
        distinct = len({e.puzzle_id for e in entries})
        keys = len({e.puzzle.canonical_key for e in entries})
        unique = sum(1 for e in entries if count_solutions(e.puzzle.grid(), limit=2) == 1)
        levels = Counter(e.puzzle.difficulty for e in entries)
        count = spec["count"]
        check(
            pack.status == "done" and positions == list(range(count)) and distinct == keys == count
            and unique == count and levels == Counter({spec["difficulty"]: count}),
            f"pack {pack.name!r} is {pack.status}: {len(entries)} puzzles at positions "
            f"0..{count - 1}, {distinct} distinct ({keys} canonical keys), {unique} with "
            f"count_solutions(limit=2) == 1, levels {dict(levels)}",
        )  # fmt: skip
        attempts = Counter(PackChunk.objects.filter(pack=pack).values_list("attempts", flat=True))
        say(f"  chunks by starts: {dict(sorted(attempts.items()))}")

    ok_ids = list(chaos.ok_moves)
    logged = Counter(
        str(mid)
        for mid in Move.objects.filter(client_move_id__in=ok_ids).values_list(
            "client_move_id", flat=True
        )
    )
    missing = [m for m in ok_ids if logged[m] == 0]
    doubled = [m for m in ok_ids if logged[m] > 1]
    mismatched = []
    rows = Move.objects.filter(client_move_id__in=ok_ids).values_list(
        "client_move_id", "game_id", "kind", "cell", "value"
    )
    by_id = {str(r[0]): r[1:] for r in rows}
    for move_id, answers in chaos.ok_moves.items():
        for game_id, kind, cell, value, _replayed, _completed in answers:
            if move_id in by_id and by_id[move_id] != (game_id, kind, cell, value):
                mismatched.append(move_id)
    replays = sum(1 for answers in chaos.ok_moves.values() for a in answers if a[4])
    check(
        not missing and not doubled and not mismatched,
        f"{len(ok_ids)} moves answered 200 ({replays} of those answers were replays of a "
        f"retried id): each is in the move log exactly once, as sent ({len(missing)} missing, "
        f"{len(doubled)} twice, {len(mismatched)} different)",
    )

    completing = Counter()
    for move in Move.objects.filter(response__completed=True).values_list("game_id", flat=True):
        completing[move] += 1
    games = Game.objects.all()
    completed = games.filter(status=Status.COMPLETED)
    twice = [g for g, n in completing.items() if n > 1]
    without = completed.exclude(pk__in=list(completing)).count()
    scored_wrong = games.exclude(status=Status.COMPLETED).filter(score__isnull=False).count()
    unscored = completed.filter(score__isnull=True).count()
    client_completions = Counter(
        a[0] for answers in chaos.ok_moves.values() for a in answers if a[5] and not a[4]
    )
    client_twice = [g for g, n in client_completions.items() if n > 1]
    check(
        not twice and not without and not scored_wrong and not unscored and not client_twice,
        f"{completed.count()} of {games.count()} games completed, each by exactly one move with "
        f"one score ({len(twice)} completed twice, {without} without a completing move, "
        f"{unscored} without a score, {scored_wrong} scored but not completed; devices saw "
        f"{len(client_twice)} games completed twice)",
    )
    by_status = Counter(Game.objects.values_list("status", flat=True))
    say(f"  moves in the log: {Move.objects.count()}; games by status: {dict(by_status)}")

    bad = [e for e in chaos.errors if not e.outcome.startswith(("retried:", "refetched"))]
    check(
        not bad,
        f"{len(chaos.errors)} client errors, every one retried to success or made moot by the "
        f"other device's write ({len(bad)} not)",
    )
    say("")
    say(f"## Client errors ({len(chaos.errors)}; requests sent: {dict(chaos.requests)})")
    say("")
    by_kind = Counter(
        (e.phase, e.request, e.error, e.outcome.split(" after ")[0]) for e in chaos.errors
    )
    say("| phase | request | error | outcome | count |")
    say("|---|---|---|---|---:|")
    for (phase, request, error, outcome), n in sorted(by_kind.items()):
        say(f"| {phase} | {request} | {error} | {outcome} | {n} |")
    say("")
    say("Each error seen during a fault (the steady phases' errors are 409s of the two-device")
    say("players, counted in the table):")
    for e in chaos.errors:
        if e.phase in ("warm-up", "steady"):
            continue
        move = f" move {e.client_move_id[:8]}" if e.client_move_id else ""
        say(f"- t={e.at:6.2f}s [{e.phase}] {e.device} {e.request}{move}: {e.error} -> {e.outcome}")

    say("")
    say("## What the workers said")
    say("")
    logs = "\n".join(w.output() for w in workers) + beat.output()
    needles = (
        "sending again stalled chunks",
        "Connection to broker lost",
        "WorkerLostError",
        "Cannot connect to redis",
    )
    for needle in needles:
        hits = [line.strip() for line in logs.splitlines() if needle in line]
        if not hits:
            continue
        say(f"- {needle!r}: {len(hits)} line(s)")
        for hit in hits[:4]:
            say(f"  - `{hit[:160]}`")
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", type=Path, help="also write the report to this file")
    args = parser.parse_args(argv)
    return run(args.report)


if __name__ == "__main__":
    sys.exit(main())
