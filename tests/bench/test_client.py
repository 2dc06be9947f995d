"""bench/client.py: fixed-rate clients timed from when each move was due, and back-to-back
clients, against a small local server."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from django.conf import settings

from bench.client import schedule

GAMES = [("7", "tok-a", [3, 4, 5]), ("8", "tok-b", [10])]


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.moves: list[tuple[str, str, dict]] = []
        self.connections = 0
        self.delay = 0.0  # seconds before each answer
        self.lock = threading.Lock()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive

    def setup(self) -> None:
        super().setup()
        with self.server.lock:
            self.server.connections += 1

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.server.lock:
            self.server.moves.append((self.path, self.headers["Authorization"], body))
            count = len(self.server.moves)
        time.sleep(self.server.delay)
        answer = b'{"ok": true}'
        # Every third move is refused; every fifth answer closes the connection.
        self.send_response(409 if count % 3 == 0 else 200)
        self.send_header("Content-Length", str(len(answer)))
        if count % 5 == 0:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args) -> None:
        pass


def _run_client(tmp_path, server: _Server, *args: str) -> dict:
    games = tmp_path / "games.txt"
    games.write_text("".join(f"{g} {t} {','.join(map(str, c))}\n" for g, t, c in GAMES))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bench.client", str(server.server_port), str(games), *args],
            cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
    finally:
        server.shutdown()
    return json.loads(done.stdout)


def test_fixed_rate_clients_send_the_whole_schedule_and_count_every_answer(tmp_path):
    server = _Server()
    # As bench/moves.py runs it: 4 clients offering 40 moves/s for 1 s; run number 5.
    result = _run_client(tmp_path, server, "4", "40", "1", "5")
    moves = server.moves
    planned = sum(len(times) for _, times in schedule(4, 40, 1, 5))
    assert 30 <= planned <= 50
    assert result["offered"] == result["requests"] == len(moves) == planned
    assert result["non2xx"] == len(moves) // 3
    assert result["socket_errors"] == 0
    assert 0 < result["p50"] <= result["p99"]
    assert result["client_cpu_ms"] > 0
    # Each move is a new one (its own UUID), a value placed in an open cell of its game.
    ids = [uuid.UUID(body["client_move_id"]) for _, _, body in moves]
    assert len(set(ids)) == len(ids)
    for path, authorization, body in moves:
        _, token, cells = next(g for g in GAMES if path == f"/api/v1/games/{g[0]}/moves/")
        assert authorization == f"Token {token}"
        assert body["kind"] == "value" and body["cell"] in cells and 0 <= body["value"] <= 9
    # A connection the server closed is opened again (unless that client was done), and
    # none is opened otherwise; a close is not counted as an error.
    closed = len(moves) // 5
    assert closed <= server.connections <= 4 + closed


def test_latency_is_counted_from_when_a_move_was_due_not_when_it_was_sent(tmp_path):
    """One client due every 10 ms against a server that answers in 50: the schedule does
    not wait, so moves queue behind the connection and their wait is in the latency (a
    client timing from the send would see about 50 ms for every move)."""
    server = _Server()
    server.delay = 0.05
    result = _run_client(tmp_path, server, "1", "100", "0.5", "1")
    planned = sum(len(times) for _, times in schedule(1, 100, 0.5, 1))
    assert result["requests"] == len(server.moves) == planned >= 30
    # The last move was due by 0.5 s and answered after every move before it, each at
    # least 50 ms: it waited at least planned * 50 ms - 0.5 s.
    assert result["p99"] >= 1000 * (planned * server.delay - 0.5) * 0.9
    assert result["rps"] <= 1 / server.delay


def test_back_to_back_clients_send_each_move_when_the_last_is_answered(tmp_path):
    """Rate 0: two clients against a server that answers in 20 ms keep one move each in
    flight for the whole run, so about 2 / 20 ms = 100 moves/s, each timed from its send."""
    server = _Server()
    server.delay = 0.02
    result = _run_client(tmp_path, server, "2", "0", "0.6", "3")
    assert result["offered"] == result["requests"] == len(server.moves)
    assert 20 <= result["requests"] <= 60
    assert 20 <= result["p50"] <= result["p99"] < 200
    assert result["rps"] <= 2 / server.delay
    assert result["socket_errors"] == 0
