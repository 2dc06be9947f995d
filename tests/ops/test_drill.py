"""The two-node drill's parts that can be checked without running it: the HAProxy
configuration, the database forward, and the URL a node reaches its database by."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ops.drill_checks import _cookies
from ops.nodes import Node, answers, free_port_on, haproxy_config, via
from ops.stack import ROOT


def _node(name: str, address: str, tmp_path: Path) -> Node:
    servers = (["true"], ["true"])
    url = "postgres://postgres@127.0.0.1:5432/drill"
    return Node(name, address, (8000, 8001), servers, {}, url, tmp_path)


def test_a_nodes_database_url_goes_through_its_own_forward(tmp_path):
    node = _node("web1", "127.0.0.2", tmp_path)
    assert (
        node.web.env["DATABASE_URL"] == f"postgres://postgres@127.0.0.2:{node.forward_port}/drill"
    )
    assert node.forward.argv[-2:] == [f"127.0.0.2:{node.forward_port}", "127.0.0.1:5432"]
    assert node.web.env["HOME"].endswith("web1-home")  # a home of its own, per node
    assert via("postgres://u:p@db:5432/x", "127.0.0.3", 6000) == "postgres://u:p@127.0.0.3:6000/x"


def test_haproxy_retries_a_dead_nodes_requests_and_checks_health(tmp_path):
    nodes = [_node("web1", "127.0.0.2", tmp_path), _node("web2", "127.0.0.3", tmp_path)]
    config = haproxy_config(9999, nodes, tmp_path / "stats.sock")
    for line in (
        "bind 127.0.0.1:9999",
        "retry-on conn-failure empty-response",
        "option redispatch",
        "timeout tunnel 1h",
        "http-check send meth GET uri /healthz",
        "observe layer7 error-limit 3 on-error mark-down",
        "use_backend sockets if { path_beg /ws/ }",
        "server web1 127.0.0.2:8000 check",
        "server web2 127.0.0.3:8001 check",
    ):
        assert line in config
    # Every address it names is on loopback.
    assert all(a.startswith("127.") for a in re.findall(r"\b(\d+\.\d+\.\d+\.\d+):", config))


def test_the_forward_refuses_an_address_off_loopback():
    done = subprocess.run(
        [sys.executable, "-m", "ops.forward", "10.0.0.1:5000", "127.0.0.1:5432"],
        cwd=ROOT, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode != 0
    assert "not a loopback address" in done.stderr


@pytest.mark.slow
def test_the_forward_carries_bytes_both_ways_and_dies_with_its_connections():
    target_port = free_port_on("127.0.0.1")
    listen_port = free_port_on("127.0.0.4")
    server = socket.socket()
    server.bind(("127.0.0.1", target_port))
    server.listen()

    def echo(conn: socket.socket) -> None:
        with conn:
            while data := conn.recv(1024):
                conn.sendall(data.upper())

    def serve() -> None:  # a connection each, the forward's readiness probe's included
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            threading.Thread(target=echo, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    forward = subprocess.Popen(
        [sys.executable, "-m", "ops.forward", f"127.0.0.4:{listen_port}",
         f"127.0.0.1:{target_port}"], cwd=ROOT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while not answers("127.0.0.4", listen_port):
            assert time.monotonic() < deadline, "the forward did not listen"
            time.sleep(0.05)
        with socket.create_connection(("127.0.0.4", listen_port), timeout=5) as client:
            client.sendall(b"move")
            assert client.recv(1024) == b"MOVE"
            forward.kill()
            forward.wait()
            client.settimeout(5)
            assert client.recv(1024) == b""  # the link is gone
    finally:
        forward.kill()
        server.close()


def test_cookies_are_read_from_a_joined_set_cookie_header():
    header = "csrftoken=abc; Path=/; SameSite=Lax, sessionid=xyz; HttpOnly; Path=/"
    assert _cookies({"set-cookie": header}, {}) == {"csrftoken": "abc", "sessionid": "xyz"}
