"""bench/moves.py, bench/stack.py and ops/stack.py: the scratch database, reading
callgrind, a process tree's CPU, the cProfile table."""

from __future__ import annotations

import os
import subprocess
import sys

from bench.moves import PUZZLE, _profile, callgrind_total
from bench.stack import cpu_seconds
from ops.stack import scratch_database
from solver import parse


def test_the_scratch_database_sits_beside_the_configured_one():
    url, name, maintenance = scratch_database("postgres://u:p@db:5432/site", "_movebench")
    assert (url, name) == ("postgres://u:p@db:5432/site_movebench", "site_movebench")
    assert maintenance == "postgresql://u:p@db:5432/postgres"


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


def test_a_process_trees_cpu_counts_its_reaped_children():
    before_own, before_tree = cpu_seconds(os.getpid()), cpu_seconds(os.getpid(), tree=True)
    burn = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"
    subprocess.run([sys.executable, "-c", burn], check=True)
    spent_tree = cpu_seconds(os.getpid(), tree=True) - before_tree
    spent_own = cpu_seconds(os.getpid()) - before_own
    assert spent_tree >= 0.25
    assert spent_own < spent_tree - 0.2


def test_a_gone_process_has_spent_nothing():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert cpu_seconds(child.pid, tree=True) == 0.0


def test_the_profile_lists_the_projects_functions_by_share():
    table = _profile(lambda i: parse(PUZZLE), 200)
    shares = [share for _, share in table]
    assert table and all(name.startswith(("solver/", "sudokusite/")) for name, _ in table)
    assert not any("bench/" in name or ".venv" in name for name, _ in table)
    assert shares == sorted(shares, reverse=True) and 0 < shares[0] <= 100
