"""The site on two web machines: ``make drill``. What it runs, plays and checks:
docs/operations.md#the-two-node-drill; exit 1 when an invariant breaks.

Two web nodes on 127.0.0.2 and 127.0.0.3, each its own process tree pinned to its own core
and reaching PostgreSQL through its own TCP forward; HAProxy in front on 127.0.0.1; one
PostgreSQL database (``DRILL_DATABASE_URL``, default ``.../drill``, created afresh), one
Redis of its own (``DRILL_REDIS_PORT``, default 6391) and two Celery workers. Every address
is loopback: nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from ops import drill_checks, drill_load, drill_race
from ops.chaos import Chaos, Device, _check, _prepare, _redis_up
from ops.nodes import NODE_ADDRESSES, Node, free_port_on, haproxy_config, haproxy_states
from ops.stack import (
    DRILL_SETTINGS,
    ROOT,
    Process,
    free_port,
    migrate,
    recreate_database,
    scratch_database,
    site_environment,
    wait,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/drill"
DEFAULT_REDIS_PORT, REDIS_DB = 6391, 5
ANALYSE_LIMIT, FAILURE_LIMIT = 6, 5
PLAY_SECONDS = 8  # of play before each fault, and after it
DB_LOSS_ERROR_BUDGET = 12  # errors players may see before HAProxy takes the node out


def _servers(address: str, ports: tuple[int, int], core: int | None) -> tuple[list, list]:
    """A node's servers, each gunicorn as ``gunicorn.conf.py`` sets it, one process, on the
    node's own core (``taskset``), with no control socket (the nodes share a filesystem):
    HTTP (WSGI) and the race sockets (ASGI, ``sudokusite.workers.AsgiWorker``)."""
    pin = ["taskset", "-c", str(core)] if core is not None and shutil.which("taskset") else []
    gunicorn = [*pin, sys.executable, "-m", "gunicorn", "--log-level", "warning",
                "--no-control-socket"]  # fmt: skip
    return (
        [*gunicorn, "sudokusite.wsgi", "--bind", f"{address}:{ports[0]}"],
        [*gunicorn, "sudokusite.asgi:application", "--worker-class",
         "sudokusite.workers.AsgiWorker", "--bind", f"{address}:{ports[1]}"],
    )  # fmt: skip


def _race_cells(racers: list[drill_race.Racer]) -> int:
    from play.models import Game

    game = Game.objects.get(pk=racers[0].game_id)
    return game.entries.count(".")


def _everyone_saw(racers: list[drill_race.Racer], progress: int) -> bool:
    """Whether every racer has seen every racer (itself included) reach ``progress``."""
    ids = [r.player_id for r in racers]
    return all(all(r.seen.get(i, 0) >= progress for i in ids) for r in racers)


def run(report_path: Path | None) -> int:
    database_url = os.environ.get("DRILL_DATABASE_URL", DEFAULT_DATABASE_URL)
    url, db_name, maintenance = scratch_database(database_url)
    if urlsplit(url).scheme not in {"postgres", "postgresql"} or "drill" not in db_name:
        print("drill: DRILL_DATABASE_URL must be postgres://... with 'drill' in the database "
              "name (it is dropped and created afresh)", file=sys.stderr)  # fmt: skip
        return 2
    if shutil.which("haproxy") is None:
        print("drill: haproxy is not installed (apt-get install haproxy)", file=sys.stderr)
        return 2
    began, lines, failures = time.monotonic(), [], []
    tmp = Path(tempfile.mkdtemp(prefix="drill-"))
    redis_port = free_port(int(os.environ.get("DRILL_REDIS_PORT", DEFAULT_REDIS_PORT)))
    env = site_environment(
        url,
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/{REDIS_DB}",
        CACHE_KEY_PREFIX="drill",
        CELERY_DATA_DIR=str(tmp / "celery"),
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        TRUSTED_PROXY_COUNT="1",
        WEB_CONCURRENCY="1",
        WEB_PIN_CPUS="0",
        SOLVER_ANALYSE_RATE=f"{ANALYSE_LIMIT}/min",
        LOGIN_FAILURE_LIMIT=str(FAILURE_LIMIT),
        AUTH_RATE_PER_ADDRESS="1000/min",
        AUTH_RATE_PER_USERNAME="1000/min",
        DATABASE_CONN_HEALTH_CHECKS="1",
        **DRILL_SETTINGS,
        RACE_COUNTDOWN_SECONDS="2",
    )
    os.environ.update(env)

    def say(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    def check(ok: bool, text: str) -> None:
        say(f"- {'PASS' if ok else 'FAIL'}: {text}")
        if not ok:
            failures.append(text)

    ports = (free_port_on(*NODE_ADDRESSES), free_port_on(*NODE_ADDRESSES))
    front_port = free_port_on("127.0.0.1")
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    nodes = [
        Node(f"web{i + 1}", address, ports,
             _servers(address, ports, cores[i % len(cores)] if len(cores) > 1 else None),
             env, url, tmp)
        for i, address in enumerate(NODE_ADDRESSES)
    ]  # fmt: skip
    stats = tmp / "haproxy.sock"
    (tmp / "haproxy.cfg").write_text(haproxy_config(front_port, nodes, stats))
    haproxy = Process("haproxy", ["haproxy", "-db", "-f", str(tmp / "haproxy.cfg")], env, tmp)
    server = f"redis-server --port {redis_port} --bind 127.0.0.1 --save '' --appendonly no"
    broker = Process("redis", shlex.split(f"{server} --dir {tmp}"), env, tmp)
    celery = [sys.executable, "-m", "celery", "-A", "sudokusite", "worker", "-l", "INFO",
              "--concurrency", "1", "--without-gossip", "--without-mingle",
              "--hostname"]  # fmt: skip
    workers = [Process(f"worker{i}", [*celery, f"drill{i}@%h"], env, tmp) for i in (1, 2)]
    processes = [broker, haproxy, *workers]
    chaos, devices = Chaos(front_port), []

    def states(backend: str = "web") -> dict[str, str]:
        try:
            return haproxy_states(stats, backend)
        except OSError:
            return {}

    def all_up() -> bool:
        up = set(states().values()) | set(states("sockets").values())
        return all(n.up() for n in nodes) and up == {"UP"}

    def play(phase: str, seconds: float) -> None:
        chaos.phase = phase
        time.sleep(seconds)

    try:
        where = ", ".join(f"{n.name} {n.address}:{n.port} and :{n.socket_port}" for n in nodes)
        say(f"# Two-node drill {time.strftime('%Y-%m-%d %H:%M:%S')}\n\nDatabase {db_name}, "
            f"Redis on port {redis_port}, HAProxy on 127.0.0.1:{front_port}, nodes "
            f"{where}; logs in {tmp}.\n")  # fmt: skip
        recreate_database(maintenance, db_name)
        migrate(env)
        # Production settings serve hashed static files: the pages need the manifest.
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                       cwd=ROOT, env=env, check=True, timeout=300)  # fmt: skip
        broker.start()
        wait(lambda: _redis_up(redis_port), 20, "Redis")
        import django

        django.setup()
        staff_password = secrets.token_urlsafe(16)
        players = _prepare(staff_password)
        accounts = drill_load.accounts(staff_password)
        for proc in (*nodes, haproxy, *workers):
            proc.start()
        connections = drill_load.ConnectionCount(db_name)
        connections.start()
        wait(all_up, 90, "both nodes up behind HAProxy")
        say("## Either node answers\n")
        for name, (ok, seen) in (
            ("a web session",
             drill_checks.session_check(front_port, "chaos-staff", staff_password)),
            ("a throttle",
             drill_checks.throttle_check(front_port, accounts["token"], ANALYSE_LIMIT)),
            ("a sign-in lockout", drill_checks.lockout_check(
                front_port, "drill-locked", accounts["locked_password"], FAILURE_LIMIT)),
        ):  # fmt: skip
            check(ok, f"{name} holds across the nodes: {seen}")

        say("\n## A race, and faults during play\n")
        code = drill_race.race_create(chaos, [r["token"] for r in accounts["racers"]])
        racers = [
            drill_race.Racer(chaos, front_port, code, r["token"], r["id"])
            for r in accounts["racers"]
        ]
        for racer in racers:
            racer.start()
        wait(lambda: all(r.snapshots for r in racers), 30, "every racer's socket")
        first = sorted({r.served_by[0] for r in racers})
        check(first == [n.name for n in nodes],
              f"the racers' sockets landed on {first}")  # fmt: skip
        drill_race.race_start(chaos, code, accounts["racers"][0]["token"])
        devices = [
            Device(chaos, p, i, seed)
            for seed, (p, i) in enumerate((p, i) for p in players for i in range(len(p["tokens"])))
        ]
        chaos.started = time.monotonic()
        for device in devices:
            device.start()
        wait(lambda: all(r.game_id for r in racers), 60, "the race's start, a game each")
        cells = _race_cells(racers)
        wait(lambda: _everyone_saw(racers, cells // 4), 120, "a quarter of the race")
        check(_everyone_saw(racers, 1),
              "every racer sees every other racer's progress, across the nodes")  # fmt: skip
        victim = nodes[0]
        chaos.phase = "node killed"
        on_victim = [r for r in racers if r.served_by[-1] == victim.name]
        victim.kill()
        say(f"- t={time.monotonic() - chaos.started:5.1f}s SIGKILL {victim.name}'s process "
            f"trees, {len(on_victim)} racers' sockets on it")  # fmt: skip
        wait(lambda: all(r.race_status == "finished" for r in racers), 180, "the race's end")
        for racer in racers:
            racer.join(timeout=30)
        failed = [r.failure for r in racers if r.failure]
        check(not failed, f"every racer played to the end ({failed[:2]})")
        check(all(len(r.served_by) >= 2 and r.served_by[-1] != victim.name for r in on_victim),
              "the killed node's racers reconnected through the other: "
              f"{[r.served_by for r in on_victim]}")  # fmt: skip
        check(_everyone_saw(racers, cells),
              f"every racer saw every racer finish all {cells} cells")  # fmt: skip
        race = drill_race.race_results(chaos, code, accounts["racers"][0]["token"])
        places = sorted(r["place"] or 0 for r in (race or {}).get("racers", []))
        check(race is not None and race["status"] == "finished"
              and places == list(range(1, len(racers) + 1)),
              f"the race finished with places {places}")  # fmt: skip
        check(states().get(victim.name) == "DOWN",
              f"HAProxy took {victim.name} out: {states()}")  # fmt: skip
        victim.start()
        wait(all_up, 60, f"{victim.name} back behind HAProxy")
        say(f"- t={time.monotonic() - chaos.started:5.1f}s {victim.name} started again, UP")
        play("steady", PLAY_SECONDS)
        chaos.phase = "database lost"
        victim.forward.kill()
        lost_at = time.monotonic()
        say(f"- t={lost_at - chaos.started:5.1f}s SIGKILL {victim.name}'s database forward")
        wait(lambda: states().get(victim.name) == "DOWN", 30, f"HAProxy to take {victim.name} out")
        say(f"- HAProxy took {victim.name} out after {time.monotonic() - lost_at:.1f} s")
        play("database lost", PLAY_SECONDS)
        victim.forward.start()
        wait(all_up, 60, f"{victim.name} back behind HAProxy")
        say(f"- t={time.monotonic() - chaos.started:5.1f}s forward restored, {victim.name} UP")
        play("steady", PLAY_SECONDS)
        chaos.stopping.set()
        for device in devices:
            device.join(timeout=120)
        # Errors of the node's own making (a 5xx, a dropped connection), not the 409s two
        # devices of one player cause each other in every phase.
        lost = [
            e for e in chaos.errors
            if e["phase"] == "database lost" and e["error"].startswith(("HTTP 5", "connection"))
        ]  # fmt: skip
        check(len(lost) <= DB_LOSS_ERROR_BUDGET,
              f"{len(lost)} errors seen by players while {victim.name} had no database "
              f"(budget {DB_LOSS_ERROR_BUDGET})")  # fmt: skip
        failures += _check(chaos, devices, {}, say)

        say("\n## Figures\n")
        drill_load.measure(front_port, nodes, stats, accounts, say)
        most = connections.stop()
        # Each node: WSGI, one process of WEB_THREADS (2) threads, a connection each; ASGI,
        # one pooled process (DATABASE_POOL_SIZE, 4). Each worker's two processes, and this
        # process's threads.
        bound = len(nodes) * (2 + 4) + 2 * len(workers) + 4
        check(most <= bound,
              f"at most {most} PostgreSQL connections to the drill's database at once, "
              f"nodes, workers and the drill itself (bounded by {bound})")  # fmt: skip
    except Exception as exc:
        say(f"\nRUN FAILED: {type(exc).__name__}: {exc}")
        for proc in [*processes, *(n.web for n in nodes), *(n.forward for n in nodes)]:
            say(f"\n--- {proc.name} log (end) ---\n{proc.output()[-1500:]}")
        failures.append("the run")
    chaos.stopping.set()
    say(f"\nResult: {'FAIL' if failures else 'PASS'} ({len(failures)} broken), "
        f"{time.monotonic() - began:.0f} s in all.")  # fmt: skip
    for proc in [*workers, haproxy, *nodes, broker]:
        proc.stop()
    from django.db import connections

    connections.close_all()
    if os.environ.get("DRILL_KEEP_DATABASE") != "1":
        recreate_database(maintenance, db_name, drop_only=True)
    if report_path is not None:
        report_path.write_text("\n".join(lines) + "\n")
    if not failures:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--report", type=Path, help="also write the report to this file")
    return run(parser.parse_args(argv).report)


if __name__ == "__main__":
    sys.exit(main())
