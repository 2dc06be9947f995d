"""The drill's machines on this one host: web nodes on their own loopback addresses, each
with its own forward to PostgreSQL, and HAProxy in front (ops/drill.py runs them).

Every address is in 127.0.0.0/8, so no packet leaves the machine: a node is a process
tree bound to 127.0.0.2 or 127.0.0.3, its death a SIGKILL of that tree, a hang a SIGSTOP.
"""

from __future__ import annotations

import csv
import io
import os
import signal
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from ops.stack import Process

NODE_ADDRESSES = ("127.0.0.2", "127.0.0.3")


def free_port_on(*hosts: str) -> int:
    """A TCP port free on every one of ``hosts`` (tried from a random start)."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind((hosts[0], 0))
            port = probe.getsockname()[1]
        if all(_bindable(host, port) for host in hosts):
            return port
    raise RuntimeError(f"no port free on all of {hosts}")


def _bindable(host: str, port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def answers(host: str, port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex((host, port)) == 0


def via(database_url: str, host: str, port: int) -> str:
    """``database_url`` reached through ``host:port`` instead of its own address."""
    parts = urlsplit(database_url)
    auth = parts.netloc.rpartition("@")[0]
    return urlunsplit(parts._replace(netloc=f"{auth}@{host}:{port}" if auth else f"{host}:{port}"))


class Node:
    """One web machine: its HTTP server on ``address:port``, its socket server (ASGI, the
    race sockets) on ``address:socket_port``, and its database forward."""

    def __init__(
        self, name: str, address: str, ports: tuple[int, int],
        servers: tuple[list[str], list[str]], env: dict[str, str], database_url: str,
        logs: Path,
    ) -> None:  # fmt: skip
        self.name, self.address = name, address
        self.port, self.socket_port = ports
        db = urlsplit(database_url)
        self.forward_port = free_port_on(address)
        target = f"{db.hostname}:{db.port or 5432}"
        self.forward = Process(
            f"{name}-dbforward",
            [sys.executable, "-m", "ops.forward", f"{address}:{self.forward_port}", target],
            env, logs,
        )  # fmt: skip
        home = logs / f"{name}-home"  # anything a server keeps under $HOME stays the node's
        home.mkdir(exist_ok=True)
        node_env = {
            **env,
            "HOME": str(home),
            "DATABASE_URL": via(database_url, address, self.forward_port),
            "NODE_NAME": name,
        }
        self.web = Process(f"{name}-web", servers[0], node_env, logs)
        self.sockets = Process(f"{name}-sockets", servers[1], node_env, logs)

    def start(self) -> None:
        if not self.forward.alive():
            self.forward.start()
        self.web.start()
        self.sockets.start()

    def up(self) -> bool:
        return (
            self.web.alive()
            and self.sockets.alive()
            and answers(self.address, self.port)
            and answers(self.address, self.socket_port)
        )

    def pids(self) -> list[int]:
        return [p.proc.pid for p in (self.web, self.sockets) if p.proc is not None and p.alive()]

    def kill(self) -> None:
        """The machine dies: SIGKILL to each of its servers' whole process tree."""
        self.web.kill(signal.SIGKILL)
        self.sockets.kill(signal.SIGKILL)

    def hang(self, hung: bool = True) -> None:
        for pid in self.pids():
            os.killpg(pid, signal.SIGSTOP if hung else signal.SIGCONT)

    def stop(self) -> None:
        self.hang(False)
        self.web.stop()
        self.sockets.stop()
        self.forward.stop()


def haproxy_config(port: int, nodes: list[Node], stats_socket: Path) -> str:
    """HAProxy in front of the nodes: retries and redispatch move a dead node's requests,
    active checks on /healthz and passive ones (5xx answers) take a sick node out."""
    servers = "\n".join(f"    server {n.name} {n.address}:{n.port} check" for n in nodes)
    sockets = "\n".join(f"    server {n.name} {n.address}:{n.socket_port} check" for n in nodes)
    return f"""global
    maxconn 4096
    stats socket {stats_socket} mode 600 level admin

defaults
    mode http
    option http-buffer-request
    timeout connect 2s
    timeout client 60s
    timeout server 30s
    timeout http-keep-alive 10s
    # A WebSocket, once upgraded, is a tunnel: it lives as long as the race.
    timeout tunnel 1h
    # A killed node refuses or drops the connection: send the request to the other.
    retries 3
    retry-on conn-failure empty-response
    option redispatch 1

frontend site
    bind 127.0.0.1:{port}
    default_backend web
    use_backend sockets if {{ path_beg /ws/ }}
    http-response set-header X-Served-By %[srv_name]

backend web
    balance roundrobin
    option httpchk
    http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host 127.0.0.1
    default-server inter 1s fastinter 500ms downinter 1s fall 2 rise 2
    default-server observe layer7 error-limit 3 on-error mark-down
{servers}

backend sockets
    balance roundrobin
    option httpchk
    http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host 127.0.0.1
    default-server inter 1s fastinter 500ms downinter 1s fall 2 rise 2
{sockets}
"""


def haproxy_states(stats_socket: Path, backend: str = "web") -> dict[str, str]:
    """server name -> HAProxy's status of it (UP, DOWN, ...) in ``backend``."""
    rows = haproxy_command(stats_socket, "show stat")
    reader = csv.DictReader(io.StringIO(rows.lstrip("# ")))
    return {
        row["svname"]: row["status"].split()[0]
        for row in reader
        if row.get("pxname") == backend and row.get("svname") not in ("FRONTEND", "BACKEND")
    }


def haproxy_command(stats_socket: Path, command: str) -> str:
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(5)
        conn.connect(str(stats_socket))
        conn.sendall(command.encode() + b"\n")
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode()
