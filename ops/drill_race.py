"""A live race through HAProxy for the drill: racers whose sockets land on different nodes,
playing ordinary games over HTTP, who keep seeing each other when a node dies.

Each racer is two threads: its socket (reconnecting through HAProxy whenever it drops,
as a phone does) and its player (right values, one every THINK seconds, each move sent
through ``Chaos.call`` so the drill's move invariants cover race moves too).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from typing import Any

from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from ops.chaos import Chaos

THINK = 0.25  # seconds between a racer's moves
RECONNECT_GIVE_UP = 60.0


class Racer:
    """One racer of the drill's race: a socket that reconnects and a player."""

    def __init__(self, chaos: Chaos, port: int, code: str, token: str, player_id: int) -> None:
        self.chaos, self.port, self.code, self.token = chaos, port, code, token
        self.player_id = player_id
        self.lock = threading.Lock()
        self.served_by: list[str] = []  # the node behind each connection, in order
        self.seen: dict[int, int] = {}  # player -> the highest progress a message showed
        self.snapshots, self.race_status, self.game_id = 0, "lobby", None
        self.failure = ""
        self.stop = threading.Event()
        self.threads = [
            threading.Thread(target=self._listen, daemon=True),
            threading.Thread(target=self._play, daemon=True),
        ]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def join(self, timeout: float) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout)

    # -- the socket -----------------------------------------------------------------------

    def _listen(self) -> None:
        uri = f"ws://127.0.0.1:{self.port}/ws/races/{self.code}/"
        headers = {"Authorization": f"Token {self.token}"}
        while not self.stop.is_set():
            give_up = time.monotonic() + RECONNECT_GIVE_UP
            try:
                with connect(uri, additional_headers=headers, open_timeout=5) as socket:
                    served = socket.response.headers.get("X-Served-By", "?")
                    with self.lock:
                        self.served_by.append(served)
                    self._read(socket)
            except (OSError, WebSocketException, TimeoutError) as exc:
                if time.monotonic() > give_up:
                    self.failure = f"socket gave up reconnecting: {exc}"
                    return
                time.sleep(0.2)

    def _read(self, socket: Any) -> None:
        while not self.stop.is_set():
            try:
                raw = socket.recv(timeout=0.5)
            except TimeoutError:
                continue
            message = json.loads(raw)
            with self.lock:
                kind = message.get("type")
                if kind == "snapshot":
                    self.snapshots += 1
                    self.game_id = message["you"].get("game") or self.game_id
                if kind in ("snapshot", "race"):
                    self.race_status = message["race"]["status"]
                    for racer in message["race"]["racers"]:
                        self._saw(racer["player"], racer["progress"])
                elif kind == "progress":
                    self._saw(message["player"], message["progress"])
            if kind == "race" and self.race_status == "running" and self.game_id is None:
                socket.send(json.dumps({"type": "snapshot"}))

    def _saw(self, player: int, progress: int) -> None:
        self.seen[player] = max(self.seen.get(player, 0), progress)

    # -- the player -----------------------------------------------------------------------

    def _play(self) -> None:
        from solver import SYMBOLS, format_line, parse, solve

        while not self.stop.is_set() and self.game_id is None:
            time.sleep(0.1)
        if self.game_id is None:
            return
        path = f"/api/v1/games/{self.game_id}/"
        answer = self.chaos.call("GET", path, self.token)
        if answer is None or answer[0] != 200:
            self.failure = f"could not read the race game: {answer}"
            return
        game = answer[1]
        puzzle = game["puzzle"]
        grid = parse(puzzle["givens"], box_rows=puzzle["box_rows"], box_cols=puzzle["box_cols"])
        solution = format_line(solve(grid))
        cells = [c for c, ch in enumerate(game["entries"]) if ch == "."]
        for cell in cells:
            if self.stop.is_set():
                return
            time.sleep(THINK)
            body = {
                "client_move_id": str(uuid.uuid4()),
                "cell": cell,
                "value": SYMBOLS.index(solution[cell]) + 1,
                "kind": "value",
            }
            answer = self.chaos.call("POST", f"{path}moves/", self.token, body)
            if answer is None or answer[0] != 200:
                self.failure = f"move refused: {answer}"
                return
            payload = answer[1]
            with self.chaos.lock:
                self.chaos.ok_moves[body["client_move_id"]].append(
                    (self.game_id, "value", cell, body["value"], payload["replayed"],
                     payload["completed"])
                )  # fmt: skip


def race_create(chaos: Chaos, tokens: list[str]) -> str:
    """A 9x9 easy race hosted by the first token, joined by the others; its code."""
    answer = chaos.call("POST", "/api/v1/races/", tokens[0], {"difficulty": "easy", "size": 9})
    if answer is None or answer[0] != 201:
        raise RuntimeError(f"creating the race answered {answer}")
    code = answer[1]["race"]["code"]
    for token in tokens[1:]:
        joined = chaos.call("POST", f"/api/v1/races/{code}/join/", token)
        if joined is None or joined[0] != 200:
            raise RuntimeError(f"joining the race answered {joined}")
    return code


def race_start(chaos: Chaos, code: str, host_token: str) -> None:
    answer = chaos.call("POST", f"/api/v1/races/{code}/start/", host_token)
    if answer is None or answer[0] not in (200, 202):
        raise RuntimeError(f"starting the race answered {answer}")


def race_results(chaos: Chaos, code: str, token: str) -> dict[str, Any] | None:
    answer = chaos.call("GET", f"/api/v1/races/{code}/", token)
    return answer[1]["race"] if answer is not None and answer[0] == 200 else None
