"""bench/paced.py: paced players, timed per move, against a small local server."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from django.conf import settings

GAMES = [("7", "tok-a", [3, 4, 5]), ("8", "tok-b", [10])]


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.moves: list[tuple[str, str, dict]] = []
        self.connections = 0
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


def test_paced_players_send_fresh_moves_and_count_every_answer(tmp_path):
    games = tmp_path / "games.txt"
    games.write_text("".join(f"{g} {t} {','.join(map(str, c))}\n" for g, t, c in GAMES))
    server = _Server()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        # As bench/moves.py runs it: 4 players, 20 ms apart, for 1 s; run number 5.
        done = subprocess.run(
            [sys.executable, "-m", "bench.paced", str(server.server_port), str(games),
             "4", "20", "1", "5"],
            cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=60, check=True,
        )  # fmt: skip
    finally:
        server.shutdown()
    result = json.loads(done.stdout)
    moves = server.moves
    assert result["requests"] == len(moves) >= 20
    assert result["non2xx"] == len(moves) // 3
    assert result["socket_errors"] == 0
    assert 0 < result["p50"] <= result["p99"]
    # Each move is a new one (its own UUID), a value placed in an open cell of its game.
    ids = [uuid.UUID(body["client_move_id"]) for _, _, body in moves]
    assert len(set(ids)) == len(ids)
    for path, authorization, body in moves:
        _, token, cells = next(g for g in GAMES if path == f"/api/v1/games/{g[0]}/moves/")
        assert authorization == f"Token {token}"
        assert body["kind"] == "value" and body["cell"] in cells and 0 <= body["value"] <= 9
    # A connection the server closed is opened again (unless that player was done), and
    # none is opened otherwise; a close is not counted as an error.
    closed = len(moves) // 5
    assert closed <= server.connections <= 4 + closed
