"""The frame of make bench's report: the machine, and its speed at the start and the end."""

from __future__ import annotations

import os
import re
import sys

from bench import report

SERVICES = {
    "postgres": "PostgreSQL 15",
    "redis": "Redis 7",
    "database_url": "postgres://x/bench",
    "redis_url": "redis://x/8",
}


def test_python_speed_is_the_reference_solvers_rate_on_its_fixed_puzzles(monkeypatch):
    solved: list[str] = []
    monkeypatch.setattr(
        "bench.norvig.solve", lambda line, rows, cols: solved.append(line) or {"A1": "1"}
    )
    assert report.python_speed() > 0
    # Three runs over the same first puzzles of the set.
    first = solved[: report.SPEED_PUZZLES]
    assert len(solved) == 3 * report.SPEED_PUZZLES
    assert solved == first * 3
    assert len(set(first)) == report.SPEED_PUZZLES


def test_the_header_gives_the_machines_python_speed_at_the_start():
    header = "\n".join(report.machine_lines(SERVICES))
    row = re.search(r"^\| Python speed at the start \| ([\d,]+) puzzles/s: (.*) \|$", header, re.M)
    assert row is not None, header
    assert int(row.group(1).replace(",", "")) > 0
    assert report.SPEED_SET in row.group(2)


def test_the_report_ends_with_the_machines_python_speed(tmp_path):
    out = tmp_path / "RESULTS.md"
    report.write_results(out, ["# Benchmark results"], "## A section\n", 0)
    footer = out.read_text().splitlines()[-1]
    assert re.search(r"Python speed at the end: [\d,]+ puzzles/s\. Every section ran\.$", footer)


def test_the_header_names_the_interpreter_and_how_libpython_is_linked():
    header = "\n".join(report.machine_lines(SERVICES))
    row = re.search(r"^\| Python \| (\S+) \(CPython: (.*)\) \|$", header, re.M)
    assert row is not None, header
    assert row.group(2).startswith(os.path.realpath(sys.executable))


def test_python_build_tells_a_shared_libpython_from_a_static_one():
    shared = "7f00-7f01 r-xp 0 08:01 5 /opt/py/lib/libpython3.11.so.1.0\n"
    static = "5500-5501 r-xp 0 08:01 6 /usr/bin/python3.11\n"
    assert report.python_build(shared).endswith("libpython shared")
    assert report.python_build(static).endswith("libpython linked in statically")
    assert report.python_build("") == os.path.realpath(sys.executable)
