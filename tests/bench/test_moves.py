"""bench/moves.py and ops/stack.py: the scratch database, reading callgrind."""

from __future__ import annotations

from bench.moves import callgrind_total
from ops.stack import scratch_database


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
