"""bench/moves.py and bench/stack.py: reading wrk, callgrind and a server's CPU."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bench.moves import callgrind_total, database_is_local, parse_wrk
from bench.stack import scratch_database, server_cpu_seconds

WRK_OUTPUT = """\
Running 15s test @ http://127.0.0.1:8000
  2 threads and 64 connections
  Latency Distribution
     50%   39.20ms
     75%   45.00ms
     90%   52.10ms
     99%    1.20s
  23084 requests in 15.02s, 30.1MB read
  Socket errors: connect 0, read 2, write 0, timeout 3
  Non-2xx or 3xx responses: 7
Requests/sec:   1537.12
"""


def test_wrk_output_gives_the_rate_percentiles_and_errors():
    row = parse_wrk(WRK_OUTPUT)
    assert row["rps"] == pytest.approx(1537.12)
    assert row["p50"] == pytest.approx(39.2)
    assert row["p99"] == pytest.approx(1200.0)
    assert (row["requests"], row["non2xx"], row["socket_errors"]) == (23084, 7, 5)


def test_wrk_output_without_percentiles_reads_as_not_a_number():
    row = parse_wrk("Requests/sec: 10.0\n")
    assert row["rps"] == 10.0
    assert row["p99"] != row["p99"]  # NaN


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("postgres://postgres@127.0.0.1:5432/test", True),
        ("postgres://postgres@localhost/test", True),
        ("postgres://postgres@%2Fvar%2Frun%2Fpostgresql/test", True),
        ("postgres:///test", True),  # no host: libpq's default socket
        ("postgres://postgres@db.internal:5432/test", False),
    ],
)
def test_a_loopback_address_or_a_socket_directory_is_a_local_database(url, local):
    assert database_is_local(url) is local


def test_the_scratch_database_sits_beside_the_configured_one():
    url, name, maintenance = scratch_database("postgres://u:p@db:5432/site", "_movebench")
    assert (url, name) == ("postgres://u:p@db:5432/site_movebench", "site_movebench")
    assert maintenance == "postgresql://u:p@db:5432/postgres"


def test_server_cpu_counts_a_child_that_exited_during_the_window():
    """A PostgreSQL backend can end mid-run: its CPU still counts, from its parent's
    reaped-children time."""
    before = server_cpu_seconds(os.getpid())
    burn = "import time\nwhile time.process_time() < 0.3: pass"
    subprocess.run([sys.executable, "-c", burn], check=True)
    assert server_cpu_seconds(os.getpid()) - before >= 0.25


CALLGRIND_PROFILE = """\
# callgrind format
version: 1
cmd:  .venv/bin/python -m bench.moves instructions /tmp/games.txt
events: Ir
summary: 0

fl=(1) ???
fn=(1) 0x0000000000001100
5 3

totals: 779193966
"""


def test_the_instruction_count_is_the_profiles_totals_not_its_summary():
    assert callgrind_total(CALLGRIND_PROFILE) == 779193966


def test_a_profile_without_totals_has_no_count():
    assert callgrind_total("# callgrind format\nevents: Ir\n") is None
