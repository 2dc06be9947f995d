"""The drill's figures: moves per second through HAProxy with two nodes and with one, the
web nodes' CPU per move and the database's share of it."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

from ops.nodes import Node, haproxy_command
from ops.stack import ROOT

PLAYERS, GAMES_EACH, CLIENTS, SECONDS = 32, 2, 32, 8
RACERS = 4
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def accounts(staff_password: str) -> dict[str, Any]:
    """The drill's own accounts (in its database, in this process): one to throttle, one
    to lock out, and players with games for the load runs (``games``: the client's file)."""
    import secrets
    import tempfile

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.test import Client

    from accounts.services import token_create
    from puzzles.models import Puzzle
    from solver import format_line, parse, solve

    users = get_user_model()
    throttled = users.objects.create(username="drill-throttled")
    locked_password = secrets.token_urlsafe(12)
    locked = users(username="drill-locked")
    locked.set_password(locked_password)
    locked.save()
    grid = parse(PUZZLE)
    givens, solved = format_line(grid), format_line(solve(grid))

    def relabelled(text: str, shift: int) -> str:
        return "".join(ch if ch == "." else str((int(ch) - 1 + shift) % 9 + 1) for ch in text)

    puzzles = [
        Puzzle.objects.create(
            size=9, box_rows=3, box_cols=3, givens=relabelled(givens, s), difficulty="easy",
            solution=relabelled(solved, s), score=1, clue_count=grid.clues,
            canonical_key=f"drill{s:059x}", source="imported",
        )
        for s in range(GAMES_EACH)
    ]  # fmt: skip
    playable = [i for i, ch in enumerate(givens) if ch == "."][1:]  # one cell never played
    rows = []
    for i in range(PLAYERS):
        user = users.objects.create(username=f"drill-load-{i}")
        token = token_create(user=user)[1]
        client = Client(HTTP_AUTHORIZATION=f"Token {token}")
        for puzzle in puzzles:
            answer = client.post("/api/v1/games/", {"puzzle": puzzle.pk}, "application/json")
            assert answer.status_code == 201, answer.content
            rows.append(f"{answer.json()['id']} {token} {','.join(map(str, playable))}\n")
    games = Path(tempfile.mkstemp(prefix="drill-games-", suffix=".txt")[1])
    games.write_text("".join(rows))
    # The racers play by script at a move every 0.25 s: scripted players to the review
    # (integrity's exempt permission, as the browser tests' player), or their results
    # would be marked flagged and unplaced (docs/integrity.md).
    exempt = Permission.objects.get(codename="exempt_from_review")
    racers = []
    for i in range(RACERS):
        racer = users.objects.create(username=f"drill-racer-{i}")
        racer.user_permissions.add(exempt)
        racers.append({"id": racer.pk, "token": token_create(user=racer)[1]})
    return {
        "racers": racers,
        "token": token_create(user=throttled)[1],
        "locked_password": locked_password,
        "games": games,
    }


def _cpu(procs: list[psutil.Process]) -> dict[int, float]:
    """pid -> CPU seconds (its reaped children's included) of each process still there."""
    seen = {}
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            seen[proc.pid] = sum(proc.cpu_times()[:4])
    return seen


def _spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between two readings; a process new since the first counts from zero."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def _tree(pid: int | None) -> list[psutil.Process]:
    if pid is None:
        return []
    with contextlib.suppress(psutil.Error):
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    return []


def _backends(database: str) -> list[psutil.Process]:
    """The PostgreSQL backends serving the drill's database (their title names it)."""
    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        with contextlib.suppress(psutil.Error):
            title = " ".join(proc.info["cmdline"] or [])
            if title.startswith("postgres:") and f" {database} " in title:
                found.append(proc)
    return found


def _load(port: int, games: Path, run: int) -> dict[str, float]:
    command = [sys.executable, "-m", "bench.client", str(port), str(games), str(CLIENTS), "0",
               str(SECONDS), str(run)]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=SECONDS + 60)
    if done.returncode:
        raise RuntimeError(f"the load client failed: {done.stderr[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(
    port: int, nodes: list[Node], stats: Path, made: dict[str, Any], say: Callable[[str], None]
) -> None:
    """Back-to-back moves from CLIENTS connections for SECONDS, through both nodes, then
    with the second taken out of HAProxy; CPU of the nodes and of the database's backends."""
    from django.conf import settings

    database = settings.DATABASES["default"]["NAME"]
    say(f"{CLIENTS} connections play moves back to back for {SECONDS} s through HAProxy.\n")
    say("| nodes | moves/s | p99 ms | non-2xx | web CPU ms/move | database CPU ms/move | "
        "database share |\n|---|---:|---:|---:|---:|---:|---:|")  # fmt: skip
    for run, serving in ((1, nodes), (2, nodes[:1])):
        for node in nodes:
            state = "enable" if node in serving else "disable"
            haproxy_command(stats, f"{state} server web/{node.name}")
        web = [p for n in serving for pid in n.pids() for p in _tree(pid)]
        web0, db0 = _cpu(web), _cpu(_backends(database))
        result = _load(port, made["games"], run)
        moves = max(result["requests"], 1.0) / 1000  # CPU seconds per 1,000: ms per move
        web_ms = _spent(web0, _cpu(web)) / moves
        db_ms = _spent(db0, _cpu(_backends(database))) / moves
        share = db_ms / (web_ms + db_ms) if web_ms + db_ms else 0.0
        row = (f"| {len(serving)} | {result['rps']:.0f} | {result['p99']:.0f} | "
               f"{result['non2xx']:.0f} | {web_ms:.2f} | {db_ms:.2f} | {share:.0%} |")  # fmt: skip
        say(row)
    for node in nodes:
        haproxy_command(stats, f"enable server web/{node.name}")


class ConnectionCount:
    """The most PostgreSQL connections to the drill's database seen at once, sampled twice a
    second from its backends' process titles while the drill runs."""

    def __init__(self, database: str) -> None:
        import threading

        self.database, self.most = database, 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self.stopping.wait(0.5):
            self.most = max(self.most, len(_backends(self.database)))

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> int:
        self.stopping.set()
        self.thread.join(timeout=5)
        return self.most
